import { HttpParams, type HttpClient } from '@angular/common/http';
import { computed, signal, type Signal } from '@angular/core';
import { PAGE_CURSOR_PARAM, nextCursorFromLink } from '@sc/contracts';
import { firstValueFrom, map, type Observable } from 'rxjs';
import { ApiError, toApiError } from './api-error';
import { pageResource } from './page-resource';

/** One page of a list the API pages by cursor (libs/contracts list-page.ts). */
export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** The entries on screen and what they were read for, which "show older" continues. */
interface CursorList<P, T> extends CursorPage<T> {
  params: P;
}

/** Reading the entries older than `list`. */
interface OlderRead<P, T> {
  list: CursorList<P, T>;
  pending: boolean;
  error: ApiError | null;
}

export interface CursorPages<T> {
  readonly items: Signal<T[]>;
  readonly nextCursor: Signal<string | null>;
  /** The first page or older entries are being read. */
  readonly loading: Signal<boolean>;
  /** The first page could not be read (shown with a retry). */
  readonly error: Signal<ApiError | null>;
  /** Older entries could not be read; the entries already shown stay. */
  readonly olderError: Signal<ApiError | null>;
  loadMore(): Promise<void>;
  reload(): void;
  /** The same as `items` and `loading`, so a page can swap pageResource for cursorPages without other changes. */
  readonly value: Signal<T[]>;
  readonly isLoading: Signal<boolean>;
  /** Replaces the items on screen locally (after a create, update or delete answered with the item). */
  update(change: (items: T[]) => T[]): void;
}

/**
 * Reads one page of a paged list (every list of the API: libs/contracts list-page.ts): the body is the page's
 * items, the cursor in the `Link: <…>; rel="next"` header the next page's. `query` holds the list's filters and
 * `limit`; empty values are left out.
 */
export function linkedPage<T>(http: HttpClient, url: string, cursor: string | undefined, query: Record<string, string | number | undefined> = {}): Observable<CursorPage<T>> {
  let params = new HttpParams();
  for (const [key, value] of Object.entries({ ...query, [PAGE_CURSOR_PARAM]: cursor })) {
    if (value !== undefined && value !== '') params = params.set(key, String(value));
  }
  return http
    .get<T[]>(url, { observe: 'response', params })
    .pipe(map((response) => ({ items: response.body ?? [], nextCursor: nextCursorFromLink(response.headers.get('Link')) })));
}

/**
 * A list read page by page: the first page through pageResource (read again whenever `params` change), older
 * pages appended on request. Older entries read for a list that has since been replaced (other params, a
 * reload) are dropped. Must be called in an injection context.
 */
export function cursorPages<P, T>(options: { params: () => P | undefined; load: (params: NoInfer<P>, cursor: string | undefined) => Observable<CursorPage<T>> }): CursorPages<T> {
  const first = pageResource({
    params: options.params,
    load: (params) => options.load(params, undefined).pipe(map((page): CursorList<P, T> => ({ params, ...page }))),
    initial: null as CursorList<P, T> | null,
  });
  const older = signal<OlderRead<P, T> | null>(null);
  const olderForList = computed(() => {
    const read = older();
    return read !== null && read.list === first.value() ? read : null;
  });

  const items = computed(() => first.value()?.items ?? []);
  const loading = computed(() => first.isLoading() || (olderForList()?.pending ?? false));
  return {
    items,
    value: items,
    nextCursor: computed(() => first.value()?.nextCursor ?? null),
    loading,
    isLoading: loading,
    update(change: (items: T[]) => T[]): void {
      const list = first.value();
      if (list !== null) first.set({ ...list, items: change(list.items) });
    },
    error: first.error,
    olderError: computed(() => olderForList()?.error ?? null),
    reload: () => first.reload(),
    async loadMore(): Promise<void> {
      const list = first.value();
      if (list === null || list.nextCursor === null) return;
      older.set({ list, pending: true, error: null });
      try {
        const page = await firstValueFrom(options.load(list.params, list.nextCursor));
        // The older entries belong to this list only; another one may be on screen by now.
        if (first.value() === list) first.set({ ...list, items: [...list.items, ...page.items], nextCursor: page.nextCursor });
      } catch (error: unknown) {
        older.update((read) => (read?.list === list ? { list, pending: false, error: toApiError(error) } : read));
      }
    },
  };
}
