import { HttpClient } from '@angular/common/http';
import { inject } from '@angular/core';
import type { Observable } from 'rxjs';
import { linkedPage, type CursorPage } from './cursor-pages';

/**
 * The URL of an organization's API resource, `/api/v1/orgs/<orgId>/<resource>` (the organization itself without
 * `resource`): the one place the admin writes the API's organization prefix and encodes the id.
 */
export function orgApiUrl(orgId: string, resource?: string): string {
  const organization = `/api/v1/orgs/${encodeURIComponent(orgId)}`;
  return resource === undefined ? organization : `${organization}/${resource}`;
}

/**
 * The client of one collection of an organization, `/api/v1/orgs/<orgId>/<collection>`, paged by cursor like every
 * list of the API: its list, its create and the URLs of the collection and of one item. A feature's client extends
 * it with the collection's own calls.
 */
export abstract class OrgCollectionApi<Item, Create, Created = Item> {
  protected readonly http = inject(HttpClient);
  protected abstract readonly collection: string;

  protected url(orgId: string): string {
    return orgApiUrl(orgId, this.collection);
  }

  /** One item of the collection, its id encoded. */
  protected itemUrl(orgId: string, id: string): string {
    return `${this.url(orgId)}/${encodeURIComponent(id)}`;
  }

  /** One page of the collection, in the order the API lists it; `cursor` (from the previous page's Link header) continues. */
  list(orgId: string, page: { limit?: number; cursor?: string } = {}): Observable<CursorPage<Item>> {
    return linkedPage<Item>(this.http, this.url(orgId), page.cursor, { limit: page.limit });
  }

  create(orgId: string, request: Create): Observable<Created> {
    return this.http.post<Created>(this.url(orgId), request);
  }
}
