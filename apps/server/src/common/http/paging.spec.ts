import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, PageCursor, PageLimit, nextCursorFromLink } from '@sc/contracts';
import { IsIn, IsOptional } from 'class-validator';
import { DomainError } from '../errors/domain-error';
import { ListPagePipe, NAME_CURSOR, NUMBER_CURSOR, TIME_ID_CURSOR, decodeCursor, encodeCursor, nextPageLink, pageFrom } from './paging';

const ID = '0b5e8c52-58a5-4c4e-9a53-2f4c1b7f0a11';
const encoded = (key: unknown) => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

/** The error `run` throws, or fails. */
function thrown(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

async function rejected(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

describe('the cursor codec', () => {
  it('hands out opaque base64url text and reads back the same position', () => {
    const cursor = encodeCursor(['2026-11-01T10:00:00.000Z', ID]);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, TIME_ID_CURSOR)).toEqual({ at: new Date('2026-11-01T10:00:00.000Z'), id: ID });
    expect(decodeCursor(encodeCursor(['payments/api ü']), NAME_CURSOR)).toBe('payments/api ü');
    expect(decodeCursor(encodeCursor(['42']), NUMBER_CURSOR)).toBe('42');
  });

  it('reads no position from an absent or empty cursor (the first page)', () => {
    expect(decodeCursor(undefined, TIME_ID_CURSOR)).toBeUndefined();
    expect(decodeCursor('', NAME_CURSOR)).toBeUndefined();
  });

  it('answers 400 invalid_cursor naming cursor for anything it did not hand out', () => {
    const cases: Array<[string, Parameters<typeof decodeCursor>[1]]> = [
      ['%%%', NAME_CURSOR],
      ['bm90LWpzb24', NAME_CURSOR], // "not-json"
      [encoded({ name: 'a' }), NAME_CURSOR],
      [encoded(['a', 'b']), NAME_CURSOR], // another list's arity
      [encoded([1]), NAME_CURSOR], // not text
      [encoded(['']), NAME_CURSOR],
      [encoded(['0']), NUMBER_CURSOR],
      [encoded(['-1']), NUMBER_CURSOR],
      [encoded(['1e3']), NUMBER_CURSOR],
      [encoded(['yesterday', ID]), TIME_ID_CURSOR],
      [encoded(['2026-11-01', ID]), TIME_ID_CURSOR],
      [encoded(['2026-11-01T10:00:00.000Z', 'not-a-uuid']), TIME_ID_CURSOR],
      [encoded(['2026-11-01T10:00:00.000Z', ID]) + '=', TIME_ID_CURSOR], // padding is not base64url
      [encodeCursor(['x'.repeat(600)]), NAME_CURSOR], // longer than any cursor handed out
    ];
    for (const [cursor, key] of cases) {
      const error = thrown(() => decodeCursor(cursor, key));
      expect([cursor, error.code, error.status, error.details]).toEqual([cursor, 'invalid_cursor', 400, [{ path: 'cursor', message: 'unknown cursor' }]]);
      expect(error.message).toMatch(/^The query parameter "cursor" is not one this list handed out/);
    }
  });
});

describe('the limit rule (ListPagePipe)', () => {
  const pipe = new ListPagePipe(NAME_CURSOR);

  it(`defaults to ${DEFAULT_PAGE_LIMIT} and accepts 1 to ${MAX_PAGE_LIMIT}`, async () => {
    expect(await pipe.transform({})).toEqual({ limit: DEFAULT_PAGE_LIMIT, after: undefined, filter: {} });
    expect(await pipe.transform(undefined)).toEqual({ limit: DEFAULT_PAGE_LIMIT, after: undefined, filter: {} });
    expect((await pipe.transform({ limit: '1' })).limit).toBe(1);
    expect((await pipe.transform({ limit: String(MAX_PAGE_LIMIT) })).limit).toBe(MAX_PAGE_LIMIT);
  });

  it('refuses, never clamps, a limit outside the range or not a whole number: 400 validation_failed naming limit', async () => {
    for (const limit of ['0', String(MAX_PAGE_LIMIT + 1), '1000', '-1', '2.5', 'ten', '']) {
      const error = await rejected(pipe.transform({ limit }));
      expect([limit, error.code, error.status, [...new Set(error.details.map((detail) => detail.path))]]).toEqual([limit, 'validation_failed', 400, ['limit']]);
    }
  });

  it('decodes the cursor with the list\'s key, and refuses unknown parameters (the retired before and offset)', async () => {
    expect((await pipe.transform({ cursor: encodeCursor(['beta']) })).after).toBe('beta');
    expect((await rejected(pipe.transform({ cursor: encoded(['a', 'b']) }))).code).toBe('invalid_cursor');
    for (const retired of ['before', 'offset']) {
      const error = await rejected(pipe.transform({ [retired]: '2' }));
      expect([error.code, error.details.map((detail) => detail.path)]).toEqual(['validation_failed', [retired]]);
    }
  });

  it('hands a list its filters beside the page', async () => {
    class FilteredQuery {
      @PageLimit()
      limit?: number;

      @PageCursor()
      cursor?: string;

      @IsOptional()
      @IsIn(['success', 'failure'])
      outcome?: string;
    }
    const filtered = new ListPagePipe(TIME_ID_CURSOR, FilteredQuery);
    expect(await filtered.transform({ outcome: 'failure', limit: '5' })).toEqual({ limit: 5, after: undefined, filter: { outcome: 'failure' } });
    expect((await rejected(filtered.transform({ outcome: 'maybe' }))).details.map((detail) => detail.path)).toEqual(['outcome']);
  });
});

describe('pages and links', () => {
  const rows = ['a', 'b', 'c'].map((name) => ({ name }));

  it('has a next cursor, the last shown item\'s key, only when more rows were read than shown', () => {
    const page = pageFrom(rows, 2, (row) => row.name.toUpperCase(), (row) => [row.name]);
    expect(page.items).toEqual(['A', 'B']);
    expect(decodeCursor(page.nextCursor ?? undefined, NAME_CURSOR)).toBe('b');
    expect(pageFrom(rows, 3, (row) => row.name, (row) => [row.name])).toEqual({ items: ['a', 'b', 'c'], nextCursor: null });
    expect(pageFrom([], 3, (row: { name: string }) => row.name, (row) => [row.name])).toEqual({ items: [], nextCursor: null });
  });

  it('links the next page with the request\'s own path, filters and limit, and the new cursor', () => {
    const link = nextPageLink('/api/v1/orgs/acme/audit?action=member.added&limit=3&cursor=old', 'WyIxNyJd');
    expect(link).toBe('</api/v1/orgs/acme/audit?action=member.added&limit=3&cursor=WyIxNyJd>; rel="next"');
    expect(nextCursorFromLink(link)).toBe('WyIxNyJd');
    expect(nextPageLink('/api/v1/orgs/acme/services', 'WyJiIl0')).toBe('</api/v1/orgs/acme/services?cursor=WyJiIl0>; rel="next"');
  });
});
