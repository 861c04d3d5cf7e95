import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { CreateEmbedLinkRequest, CreatedEmbedLinkResponse, EmbedLinkResponse } from '@sc/contracts';
import type { Observable } from 'rxjs';
import { orgApiUrl } from '../../core/org-api';

/** /api/v1/orgs/:orgId/embed-links (admins): read-only public links to diagram images. */
@Injectable({ providedIn: 'root' })
export class EmbedLinksApi {
  private readonly http = inject(HttpClient);

  private base(orgId: string): string {
    return orgApiUrl(orgId, 'embed-links');
  }

  /** The links of a service (newest first; the first 100, which is what a service has in practice). */
  list(orgId: string, service: string): Observable<EmbedLinkResponse[]> {
    return this.http.get<EmbedLinkResponse[]>(this.base(orgId), { params: { service } });
  }

  create(orgId: string, request: CreateEmbedLinkRequest): Observable<CreatedEmbedLinkResponse> {
    return this.http.post<CreatedEmbedLinkResponse>(this.base(orgId), request);
  }

  /** Answers the link as it is now (revokedAt set). */
  revoke(orgId: string, id: string): Observable<EmbedLinkResponse> {
    return this.http.delete<EmbedLinkResponse>(`${this.base(orgId)}/${encodeURIComponent(id)}`);
  }
}
