import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { CreatedScimTokenResponse, DomainResponse, ScimConfigResponse, ScimTokenResponse } from '@sc/contracts';
import { Observable } from 'rxjs';
import { orgApiUrl } from '../../core/org-api';

/** Verified domains (owners change them, admins see them) and SCIM tokens (owners) of the SSO settings. */
@Injectable({ providedIn: 'root' })
export class ProvisioningApi {
  private readonly http = inject(HttpClient);

  domains(orgId: string): Observable<DomainResponse[]> {
    return this.http.get<DomainResponse[]>(orgApiUrl(orgId, 'domains'));
  }

  addDomain(orgId: string, domain: string): Observable<DomainResponse> {
    return this.http.post<DomainResponse>(orgApiUrl(orgId, 'domains'), { domain });
  }

  verifyDomain(orgId: string, id: string): Observable<DomainResponse> {
    return this.http.post<DomainResponse>(orgApiUrl(orgId, `domains/${encodeURIComponent(id)}/verify`), {});
  }

  removeDomain(orgId: string, id: string): Observable<void> {
    return this.http.delete<void>(orgApiUrl(orgId, `domains/${encodeURIComponent(id)}`));
  }

  scimConfig(orgId: string): Observable<ScimConfigResponse> {
    return this.http.get<ScimConfigResponse>(orgApiUrl(orgId, 'scim-config'));
  }

  scimTokens(orgId: string): Observable<ScimTokenResponse[]> {
    return this.http.get<ScimTokenResponse[]>(orgApiUrl(orgId, 'scim-tokens'));
  }

  createScimToken(orgId: string, name: string): Observable<CreatedScimTokenResponse> {
    return this.http.post<CreatedScimTokenResponse>(orgApiUrl(orgId, 'scim-tokens'), { name });
  }

  revokeScimToken(orgId: string, id: string): Observable<ScimTokenResponse> {
    return this.http.delete<ScimTokenResponse>(orgApiUrl(orgId, `scim-tokens/${encodeURIComponent(id)}`));
  }
}
