import { computed, type Signal, type WritableSignal } from '@angular/core';
import { rxResource } from '@angular/core/rxjs-interop';
import { catchError, throwError, type Observable } from 'rxjs';
import { ApiError, toApiError } from './api-error';

/** What a page reads to show its data, a loading bar and a load error with retry. */
export interface PageResource<T> {
  /** The loaded data, or `initial` while loading for new params or after a failed load. Writable so that
   * mutations can patch the list without a round trip. */
  readonly value: Signal<T>;
  readonly isLoading: Signal<boolean>;
  readonly error: Signal<ApiError | null>;
  /** Replaces the data locally, e.g. after a create/update/delete answered with the new item. */
  update(change: (value: T) => T): void;
  set(value: T): void;
  /** Loads again with the same params (retry button, after mutations). */
  reload(): void;
}

/**
 * Loads `load(params)` now and again whenever `params` changes (the router reuses a page component when only
 * :orgId changes). Built on rxResource, which unsubscribes from the previous request, so an answer for the
 * organization the user just left never lands on the page. Errors are reduced to ApiError for <sc-load-error>.
 * Must be called in an injection context. `params` returning undefined means "nothing to load yet".
 */
export function pageResource<P, T>(options: {
  params: () => P | undefined;
  load: (params: NoInfer<P>) => Observable<T>;
  initial: T;
}): PageResource<T> {
  const resource = rxResource<T, P | undefined>({
    params: options.params,
    stream: ({ params }) =>
      options.load(params as P).pipe(catchError((error: unknown) => throwError(() => toApiError(error)))),
    defaultValue: options.initial,
  });
  // resource.value() throws while the resource is in the error state; pages show the error instead.
  const value = computed(() => (resource.hasValue() ? resource.value() : options.initial));
  const error = computed(() => {
    const failure = resource.error();
    return failure ? toApiError(failure) : null;
  });
  const local: WritableSignal<T> = resource.value;
  return {
    value,
    isLoading: resource.isLoading,
    error,
    update: (change) => local.set(change(value())),
    set: (next) => local.set(next),
    reload: () => void resource.reload(),
  };
}
