import type { Request } from 'express';

/**
 * True when the request's If-None-Match names `etag` (or `*`): the answer is then a 304 without a body. Compared
 * here rather than with Express's `req.fresh`, which treats a request carrying `Cache-Control: no-cache` as never
 * fresh: fetch() adds that header to every request with its own If-None-Match.
 */
export function matchesIfNoneMatch(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  return header !== undefined && header.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*');
}
