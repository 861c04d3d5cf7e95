import { applyDecorators, Injectable, UseInterceptors, type CallHandler, type ExecutionContext, type NestInterceptor, type PipeTransform, type Type } from '@nestjs/common';
import { ApiOkResponse, ApiQuery } from '@nestjs/swagger';
import { DEFAULT_PAGE_LIMIT, ListPageQuery, MAX_CURSOR_LENGTH, MAX_PAGE_LIMIT, PAGE_CURSOR_PARAM, type ListPage } from '@sc/contracts';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import { CommonErrorCode, commonError } from '../errors/common.errors';
import { requestValidationPipe } from './validation-pipe';

/*
 * The server half of the one paging contract (libs/contracts list-page.ts): every list handler reads its query
 * through ListPagePipe (limit rule, cursor codec, its filters) and answers through @PagedList (the body is the
 * page's items, `Link: <…>; rel="next"` the next page). Repositories read keyset pages: `limit + 1` rows after
 * the decoded position (never OFFSET), and pageFrom turns them into a page.
 */

/** How a list's sort key travels in a cursor: `arity` strings, and their parse (undefined when they are not one). */
export interface CursorKey<K> {
  readonly arity: number;
  parse(parts: string[]): K | undefined;
}

/** A position in a list sorted by a time, the row id breaking ties (members, tokens, embed links, drafts, SSO audit). */
export interface TimeIdPosition {
  at: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const TIME_ID_CURSOR: CursorKey<TimeIdPosition> = {
  arity: 2,
  parse: ([at = '', id = '']) => (ISO_TIME.test(at) && !Number.isNaN(Date.parse(at)) && UUID.test(id) ? { at: new Date(at), id } : undefined),
};

/** A position in a list sorted by a unique name (services). */
export const NAME_CURSOR: CursorKey<string> = { arity: 1, parse: ([name = '']) => (name !== '' ? name : undefined) };

/** A position in a list sorted by a positive whole number: revision numbers, the audit log's sequence (bigint, so kept as text). */
export const NUMBER_CURSOR: CursorKey<string> = { arity: 1, parse: ([number = '']) => (/^[1-9]\d{0,17}$/.test(number) ? number : undefined) };

/** The cursor of `key`: base64url of its JSON, opaque to clients. */
export function encodeCursor(key: string[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** The position in `cursor` (undefined without one); 400 `invalid_cursor` naming `cursor` for anything this list did not hand out. */
export function decodeCursor<K>(cursor: string | undefined, key: CursorKey<K>): K | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  let parts: unknown;
  try {
    parts = cursor.length <= MAX_CURSOR_LENGTH && /^[A-Za-z0-9_-]+$/.test(cursor) ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : undefined;
  } catch {
    parts = undefined;
  }
  const position = Array.isArray(parts) && parts.length === key.arity && parts.every((part) => typeof part === 'string') ? key.parse(parts) : undefined;
  if (position === undefined) {
    throw commonError(
      CommonErrorCode.InvalidCursor,
      'The query parameter "cursor" is not one this list handed out; follow the Link rel="next" header of the previous page, or leave it out for the first page.',
      [{ path: PAGE_CURSOR_PARAM, message: 'unknown cursor' }],
    );
  }
  return position;
}

/** What a list handler hands its service: the page size, the position to continue after, and the list's filters. */
export interface PageRequest<K, F = Record<never, never>> {
  limit: number;
  /** The position of the previous page's last item; undefined for the first page. */
  after: K | undefined;
  filter: F;
}

/** The filters of a list query class: everything but the paging. */
export type FilterOf<Q> = Omit<Q, 'limit' | 'cursor'>;

/**
 * The one query pipe of every list handler: validates the query class (ListPageQuery, or a list's own class
 * adding filters; 400 `validation_failed` naming the field, so a `limit` outside 1–100 is refused, never
 * clamped), defaults `limit`, decodes `cursor` with the list's key (400 `invalid_cursor`).
 * Use: `@Query(new ListPagePipe(TIME_ID_CURSOR)) page: PageRequest<TimeIdPosition>`.
 */
export class ListPagePipe<K, Q extends { limit?: number; cursor?: string } = ListPageQuery> implements PipeTransform<unknown, Promise<PageRequest<K, FilterOf<Q>>>> {
  private readonly validation = requestValidationPipe();

  constructor(
    private readonly key: CursorKey<K>,
    private readonly query: Type<Q> = ListPageQuery as unknown as Type<Q>,
  ) {}

  async transform(raw: unknown): Promise<PageRequest<K, FilterOf<Q>>> {
    const { limit, cursor, ...filter } = (await this.validation.transform(raw ?? {}, { type: 'query', metatype: this.query })) as Q;
    return { limit: limit ?? DEFAULT_PAGE_LIMIT, after: decodeCursor(cursor, this.key), filter };
  }
}

/** The page from up to `limit + 1` rows read (one more than asked tells whether a next page exists). */
export function pageFrom<R, T>(rows: R[], limit: number, toItem: (row: R) => T, keyOf: (row: R) => string[]): ListPage<T> {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return { items: shown.map((row) => toItem(row)), nextCursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null };
}

/** The cursor key of a row sorted by its creation time and id (TIME_ID_CURSOR). */
export function createdAtIdKey(row: { createdAt: Date; id: string }): string[] {
  return [row.createdAt.toISOString(), row.id];
}

/**
 * The link to the next page: the request's own path and query (filters, limit) with the next cursor, so a
 * client follows it without building URLs.
 */
export function nextPageLink(originalUrl: string, cursor: string): string {
  const url = new URL(originalUrl, 'http://server.invalid');
  url.searchParams.set(PAGE_CURSOR_PARAM, cursor);
  return `<${url.pathname}${url.search}>; rel="next"`;
}

/** Answers a handler's ListPage as the wire shape: the items as the body, the next page in the Link header. */
@Injectable()
export class PagedListInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    return next.handle().pipe(
      map((page: ListPage<unknown>) => {
        if (page.nextCursor !== null) res.setHeader('Link', nextPageLink(req.originalUrl, page.nextCursor));
        return page.items;
      }),
    );
  }
}

/**
 * Marks a list handler: it returns a ListPage, answered as the items with a Link header (PagedListInterceptor),
 * and the OpenAPI document describes `limit`, `cursor` and the header. `order` says how the list is sorted.
 */
export function PagedList(order: string): MethodDecorator {
  return applyDecorators(
    UseInterceptors(PagedListInterceptor),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT } }),
    ApiQuery({ name: PAGE_CURSOR_PARAM, required: false, description: 'Opaque: the cursor in the previous page\'s Link rel="next" header (400 invalid_cursor otherwise).', schema: { type: 'string', maxLength: MAX_CURSOR_LENGTH } }),
    ApiOkResponse({
      description: `${order}; a JSON array of at most \`limit\` items (1–${MAX_PAGE_LIMIT}, default ${DEFAULT_PAGE_LIMIT}).`,
      headers: { Link: { description: '`<…?cursor=…>; rel="next"`: the next page, the request\'s own path and query with its cursor; absent on the last page.', schema: { type: 'string' } } },
    }),
  );
}
