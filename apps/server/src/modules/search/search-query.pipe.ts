import { Injectable, PipeTransform } from '@nestjs/common';
import { SEARCH_ELEMENT_KINDS, SEARCH_LIMITS, type SearchElementKind } from '@sc/contracts';
import { SearchErrorCode, searchError } from './search.errors';

export interface SearchQuery {
  q: string;
  kind: SearchElementKind | null;
  limit: number;
}

/** The search route's query string (`q`, `kind`, `limit`), or 400 invalid_search_query naming the parameter. */
@Injectable()
export class SearchQueryPipe implements PipeTransform<unknown, SearchQuery> {
  transform(raw: unknown): SearchQuery {
    const query = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const q = single(query, 'q');
    if (q === undefined || q.trim() === '') refuse('q', 'Give the words to search for in ?q=.');
    if (q.length > SEARCH_LIMITS.maxQueryLength) refuse('q', `?q= is ${q.length} characters long; a search takes at most ${SEARCH_LIMITS.maxQueryLength}.`);
    const kind = single(query, 'kind');
    if (kind !== undefined && !(SEARCH_ELEMENT_KINDS as readonly string[]).includes(kind)) {
      refuse('kind', `?kind= must be one of ${SEARCH_ELEMENT_KINDS.join(', ')}.`);
    }
    const limitText = single(query, 'limit');
    if (limitText !== undefined && !/^[1-9]\d{0,2}$/.test(limitText)) refuse('limit', `?limit= must be a whole number from 1 to ${SEARCH_LIMITS.maxLimit}.`);
    const limit = limitText === undefined ? SEARCH_LIMITS.defaultLimit : Number(limitText);
    if (limit > SEARCH_LIMITS.maxLimit) refuse('limit', `?limit= must be a whole number from 1 to ${SEARCH_LIMITS.maxLimit}.`);
    return { q: q.trim(), kind: (kind as SearchElementKind | undefined) ?? null, limit };
  }
}

export interface WhereUsedQuery {
  table: string;
  database: string | null;
}

/** The where-used route's query string (`table`, optional `database`), or 400 invalid_search_query naming the parameter. */
@Injectable()
export class WhereUsedQueryPipe implements PipeTransform<unknown, WhereUsedQuery> {
  transform(raw: unknown): WhereUsedQuery {
    const query = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const table = single(query, 'table')?.trim();
    if (!table) refuse('table', 'Give the name of the table in ?table=.');
    if (table.length > SEARCH_LIMITS.maxQueryLength) refuse('table', `?table= is ${table.length} characters long; a table name takes at most ${SEARCH_LIMITS.maxQueryLength}.`);
    const database = single(query, 'database')?.trim();
    if (database !== undefined && database.length > SEARCH_LIMITS.maxQueryLength) {
      refuse('database', `?database= is ${database.length} characters long; a database name takes at most ${SEARCH_LIMITS.maxQueryLength}.`);
    }
    return { table, database: database || null };
  }
}

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') refuse(name, `Give ?${name}= once.`);
  return value;
}

function refuse(path: string, message: string): never {
  throw searchError(SearchErrorCode.InvalidQuery, message, [{ path, message }]);
}
