import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/**
 * Paging of the lists that grow without bound (services, revisions, members, API tokens): the body stays the
 * plain array of the page, at most `limit` items (1–MAX_PAGE_LIMIT, default MAX_PAGE_LIMIT), and a
 * `Link: <…>; rel="next"` header names the next page (absent on the last). Follow it as given: the cursor in it
 * is opaque. A cursor the server did not hand out answers 400 `invalid_cursor`.
 */
export const MAX_PAGE_LIMIT = 100;

/** The query parameter carrying the cursor of the lists paged by an opaque cursor (revisions use `before`). */
export const PAGE_CURSOR_PARAM = 'cursor';

const toNumber = ({ value }: { value: unknown }) => (typeof value === 'string' && value !== '' ? Number(value) : value);

/** `?limit=` (1–100) shared by every paged list. */
export class PageLimitQuery {
  @IsOptional()
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit?: number;
}

/** `?limit=&cursor=`: the query of a list paged by an opaque cursor. */
export class ListPageQuery extends PageLimitQuery {
  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}

/** One page as a client holds it: the items and the cursor of the next page (null on the last). */
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
