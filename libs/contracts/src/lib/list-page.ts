import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/**
 * The one paging contract of every list that grows without bound (services, revisions, members, API tokens,
 * embed links, drafts, the audit log, the SSO audit log):
 *
 * - request: `?limit=` (a whole number 1–MAX_PAGE_LIMIT, default DEFAULT_PAGE_LIMIT; anything else is 400
 *   `validation_failed` naming `limit`, never silently clamped) and `?cursor=` (absent on the first page);
 * - response: the body is the plain JSON array of the page's items, and a `Link: <…>; rel="next"` header
 *   (RFC 8288) names the next page, absent on the last. The link repeats the request's own path and query
 *   (filters, limit) with the next `cursor`; follow it as given;
 * - the cursor is opaque (base64url of the sort key of the page's last item; keyset, never an offset), so
 *   pages stay exact while items are added or removed. A cursor the list did not hand out (edited, truncated,
 *   of another list) answers 400 `invalid_cursor` naming `cursor`.
 *
 * SCIM (RFC 7644 `startIndex`/`count`), search and where-used (ranked, bounded answers) are not paged lists.
 */
export const MAX_PAGE_LIMIT = 100;

/** The page size when `?limit=` is absent: the largest, so a list of at most 100 items needs one request. */
export const DEFAULT_PAGE_LIMIT = MAX_PAGE_LIMIT;

/** The query parameter carrying the cursor of every paged list. */
export const PAGE_CURSOR_PARAM = 'cursor';

/** Longest cursor accepted: far above any key the server hands out, well below a URL's practical length. */
export const MAX_CURSOR_LENGTH = 512;

const toNumber = ({ value }: { value: unknown }) => (typeof value === 'string' && value !== '' ? Number(value) : value);

function applyAll(decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, property) => {
    for (const decorate of decorators) decorate(target, property);
  };
}

/**
 * `?limit=` of a paged list: optional, a whole number 1–MAX_PAGE_LIMIT (query strings arrive as text, so a
 * numeric string is converted first and anything else fails `IsInt` with the field's name). For query classes
 * that extend a filter class and so cannot extend ListPageQuery.
 */
export function PageLimit(): PropertyDecorator {
  return applyAll([IsOptional(), Transform(toNumber), IsInt(), Min(1), Max(MAX_PAGE_LIMIT)]);
}

/** `?cursor=` of a paged list: an optional string; the server decodes it (400 `invalid_cursor`). */
export function PageCursor(): PropertyDecorator {
  return applyAll([IsOptional(), IsString(), MaxLength(MAX_CURSOR_LENGTH)]);
}

/** `?limit=&cursor=`: the query of a paged list without filters (lists with filters add them beside). */
export class ListPageQuery {
  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;
}

/** One page as a client (or a server service) holds it: the items and the cursor of the next page (null on the last). */
export interface ListPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * The value of `param` in the `rel="next"` link of a `Link` header, or null without a next page. For clients
 * (the dashboard, the CLI) that read a paged list page by page.
 */
export function nextCursorFromLink(link: string | null | undefined, param: string = PAGE_CURSOR_PARAM): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const match = /^\s*<([^>]*)>\s*;\s*rel="?next"?\s*$/.exec(part);
    if (!match?.[1]) continue;
    const query = match[1].split('?')[1] ?? '';
    return new URLSearchParams(query).get(param);
  }
  return null;
}
