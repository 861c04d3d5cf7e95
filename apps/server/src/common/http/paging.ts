import { MAX_PAGE_LIMIT, PAGE_CURSOR_PARAM, type ListPage } from '@sc/contracts';
import type { Request, Response } from 'express';
import { CommonErrorCode, commonError } from '../errors/common.errors';

/**
 * Keyset paging shared by the paged lists (libs/contracts list-page.ts). A cursor is the sort key of the last
 * item of the previous page, base64url-encoded JSON: stable while rows are added or removed (no offsets).
 */
export function encodeCursor(key: string[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** The sort key in `cursor` (`arity` strings), undefined without one; 400 `invalid_cursor` for anything else. */
export function decodeCursor(cursor: string | undefined, arity: number, isValid: (key: string[]) => boolean = () => true): string[] | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  let key: unknown;
  try {
    key = /^[A-Za-z0-9_-]+$/.test(cursor) ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : undefined;
  } catch {
    key = undefined;
  }
  if (!Array.isArray(key) || key.length !== arity || !key.every((part) => typeof part === 'string') || !isValid(key)) {
    throw commonError(CommonErrorCode.InvalidCursor, 'The "cursor" is not one this list handed out; follow the Link rel="next" header of the previous page.', [
      { path: PAGE_CURSOR_PARAM, message: 'unknown cursor' },
    ]);
  }
  return key;
}

/** The page from `limit + 1` rows read (one more than asked tells whether a next page exists). */
export function pageFrom<R, T>(rows: R[], limit: number, toItem: (row: R) => T, keyOf: (row: R) => string[]): ListPage<T> {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return { items: shown.map(toItem), nextCursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null };
}

/** `limit` of a query, defaulting to the largest page. */
export function pageLimit(query: { limit?: number }): number {
  return query.limit ?? MAX_PAGE_LIMIT;
}

/**
 * Sets `Link: <this path?param=next&limit=…>; rel="next"` when there is a next page. The link repeats the
 * request's own path (behind the global prefix), so a client follows it without building URLs.
 */
export function setNextLink(req: Request, res: Response, next: string | number | null, limit: number, param: string = PAGE_CURSOR_PARAM): void {
  if (next === null) return;
  const query = new URLSearchParams({ [param]: String(next), limit: String(limit) });
  res.setHeader('Link', `<${req.baseUrl}${req.path}?${query}>; rel="next"`);
}

/** A page's items for a controller to answer, its next page named in the Link header (see setNextLink). */
export function pageItems<T>(req: Request, res: Response, query: { limit?: number }, page: ListPage<T>): T[] {
  setNextLink(req, res, page.nextCursor, pageLimit(query));
  return page.items;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The cursor key of lists sorted by creation time, the row id breaking ties. */
export function timeIdKey(row: { createdAt: Date; id: string }): string[] {
  return [row.createdAt.toISOString(), row.id];
}

/** The (creation time, id) position in a cursor of a list sorted by timeIdKey; 400 `invalid_cursor` otherwise. */
export function decodeTimeIdCursor(cursor: string | undefined): { createdAt: Date; id: string } | undefined {
  const key = decodeCursor(cursor, 2, ([at, id]) => !Number.isNaN(Date.parse(at ?? '')) && UUID.test(id ?? ''));
  return key ? { createdAt: new Date(key[0] ?? ''), id: key[1] ?? '' } : undefined;
}
