import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { SEARCH_LIMITS, SEARCH_SNIPPET_MARKS, type SearchAnswer, type SearchHit, type WhereUsedAnswer, type WhereUsedHit } from '@sc/contracts';
import type { Observable } from 'rxjs';
import { orgApiUrl } from '../../core/org-api';

@Injectable({ providedIn: 'root' })
export class SearchApi {
  private readonly http = inject(HttpClient);

  /** GET /orgs/:orgId/search: the organization's ranked hits (the caller trims `q` to SEARCH_LIMITS.maxQueryLength). */
  search(orgId: string, q: string, limit = SEARCH_LIMITS.defaultLimit): Observable<SearchAnswer> {
    return this.http.get<SearchAnswer>(orgApiUrl(orgId, 'search'), { params: new HttpParams().set('q', q).set('limit', limit) });
  }

  /** GET /orgs/:orgId/search/where-used: the current diagrams whose nodes bind this table (of this database, when given). */
  whereUsed(orgId: string, table: string, database?: string | null): Observable<WhereUsedAnswer> {
    const params = new HttpParams().set('table', table);
    return this.http.get<WhereUsedAnswer>(orgApiUrl(orgId, 'search/where-used'), { params: database ? params.set('database', database) : params });
  }
}

/** The diagram of a where-used hit, opened centred on the node (`?node=`). */
export function whereUsedTarget(orgId: string, hit: WhereUsedHit): Required<Pick<HitTarget, 'commands' | 'queryParams'>> {
  return { commands: ['/orgs', orgId, 'services', hit.service, 'diagrams', hit.diagram], queryParams: { node: hit.node.id } };
}

/** Where a hit opens: the router commands, and `?node=` (the diagram pages centre that node) or a table's fragment. */
export interface HitTarget {
  commands: string[];
  queryParams?: { node: string };
  fragment?: string;
}

/** The id the database page gives a table's card, the fragment a table hit opens. */
export function tableAnchor(table: string): string {
  return `table-${table}`;
}

export function hitTarget(orgId: string, hit: SearchHit): HitTarget {
  const service = ['/orgs', orgId, 'services', hit.service];
  const artifact = hit.artifact;
  if (!artifact) return { commands: service };
  const node = hit.element.kind === 'node' || hit.element.kind === 'group' ? { queryParams: { node: hit.element.id } } : {};
  switch (artifact.kind) {
    case 'architecture-diagram':
      return { commands: [...service, 'diagrams', artifact.name], ...node };
    case 'flow':
      return { commands: [...service, 'flows', artifact.name], ...node };
    case 'job-dependencies':
    case 'job-notes':
      return { commands: [...service, 'jobs'], ...node };
    case 'database-schema': {
      const table = hit.element.kind === 'table' ? hit.element.id : hit.element.kind === 'column' ? hit.element.id.slice(0, hit.element.id.lastIndexOf('.')) : null;
      return { commands: [...service, 'databases', artifact.name], ...(table ? { fragment: tableAnchor(table) } : {}) };
    }
    case 'service-summary':
      return { commands: [...service, 'summary'] };
    case 'doc':
      return { commands: [...service, 'docs', artifact.name] };
    case 'api-spec':
      return { commands: [...service, 'api-specs', artifact.name] };
  }
}

/** The snippet cut at its «» marks: the marked parts render in <mark>, as text (never as HTML). */
export function snippetParts(snippet: string): Array<{ text: string; marked: boolean }> {
  const parts: Array<{ text: string; marked: boolean }> = [];
  let rest = snippet;
  while (rest !== '') {
    const start = rest.indexOf(SEARCH_SNIPPET_MARKS.start);
    const stop = start < 0 ? -1 : rest.indexOf(SEARCH_SNIPPET_MARKS.stop, start + 1);
    if (start < 0 || stop < 0) {
      parts.push({ text: rest, marked: false });
      break;
    }
    if (start > 0) parts.push({ text: rest.slice(0, start), marked: false });
    parts.push({ text: rest.slice(start + 1, stop), marked: true });
    rest = rest.slice(stop + 1);
  }
  return parts;
}
