import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';
import { PageLimitQuery } from '@sc/contracts';

const toNumber = ({ value }: { value: unknown }) => (typeof value === 'string' && value !== '' ? Number(value) : value);

/**
 * `GET …/services/:service/revisions?limit=&before=`: newest first, at most `limit` (1–100, default 100), only
 * revisions numbered below `before` (the cursor: the `Link: …; rel="next"` header of the previous page names it).
 */
export class RevisionsPageQuery extends PageLimitQuery {
  @IsOptional()
  @Transform(toNumber)
  @IsInt({ message: 'before must be a revision number (the cursor of the previous page)' })
  @Min(2)
  before?: number;
}

/** One page of revision records and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  nextBefore: number | null;
}
