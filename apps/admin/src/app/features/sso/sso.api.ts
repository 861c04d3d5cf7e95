import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type {
  CreateSsoProviderRequest,
  SsoAuditOutcome,
  SsoAuditEntry,
  SsoDiscoveryResponse,
  SsoProviderResponse,
  SsoPublicUrlResponse,
  SsoSettingsResponse,
  SsoSignInStatus,
  SsoTestStartResponse,
  UpdateSsoProviderRequest,
} from '@sc/contracts';
import { Observable } from 'rxjs';
import { linkedPage, type CursorPage } from '../../core/cursor-pages';
import { orgApiUrl } from '../../core/org-api';

export interface AuditFilter {
  provider?: string;
  outcome?: SsoAuditOutcome;
  limit?: number;
}

/** Organization settings → SSO (owners and admins). */
@Injectable({ providedIn: 'root' })
export class SsoApi {
  private readonly http = inject(HttpClient);

  private base(orgId: string): string {
    return orgApiUrl(orgId, 'sso');
  }

  private provider(orgId: string, slug: string): string {
    return `${this.base(orgId)}/providers/${encodeURIComponent(slug)}`;
  }

  settings(orgId: string): Observable<SsoSettingsResponse> {
    return this.http.get<SsoSettingsResponse>(`${this.base(orgId)}/settings`);
  }

  /** Owners: Require SSO on or off (409 sso_requirement_unmet says what is missing). */
  updateSettings(orgId: string, requireSso: boolean): Observable<SsoSettingsResponse> {
    return this.http.put<SsoSettingsResponse>(`${this.base(orgId)}/settings`, { requireSso });
  }

  list(orgId: string): Observable<SsoProviderResponse[]> {
    return this.http.get<SsoProviderResponse[]>(`${this.base(orgId)}/providers`);
  }

  /** Any member: whether an enabled provider has had a successful sign-in (the sign-out warning asks). */
  signInStatus(orgId: string): Observable<SsoSignInStatus> {
    return this.http.get<SsoSignInStatus>(`${this.base(orgId)}/sign-in-status`);
  }

  get(orgId: string, slug: string): Observable<SsoProviderResponse> {
    return this.http.get<SsoProviderResponse>(this.provider(orgId, slug));
  }

  create(orgId: string, request: CreateSsoProviderRequest): Observable<SsoProviderResponse> {
    return this.http.post<SsoProviderResponse>(`${this.base(orgId)}/providers`, request);
  }

  update(orgId: string, slug: string, request: UpdateSsoProviderRequest): Observable<SsoProviderResponse> {
    return this.http.patch<SsoProviderResponse>(this.provider(orgId, slug), request);
  }

  remove(orgId: string, slug: string): Observable<void> {
    return this.http.delete<void>(this.provider(orgId, slug));
  }

  /** SERVICE_PUBLIC_URL: a provider being created shows its callback URL from it before it is saved. */
  publicUrl(orgId: string): Observable<SsoPublicUrlResponse> {
    return this.http.get<SsoPublicUrlResponse>(`${this.base(orgId)}/public-url`);
  }

  discover(orgId: string, issuer: string): Observable<SsoDiscoveryResponse> {
    return this.http.post<SsoDiscoveryResponse>(`${this.base(orgId)}/discovery`, { issuer });
  }

  /** Stores a test state and sets the browser-binding cookie; the browser then goes to `authorizationUrl`. */
  startTest(orgId: string, slug: string): Observable<SsoTestStartResponse> {
    return this.http.post<SsoTestStartResponse>(`${this.provider(orgId, slug)}/test`, {});
  }

  /** One page of the sign-in audit log, newest first (`cursor` from the previous page). */
  audit(orgId: string, filter: AuditFilter, cursor?: string): Observable<CursorPage<SsoAuditEntry>> {
    return linkedPage<SsoAuditEntry>(this.http, `${this.base(orgId)}/audit`, cursor, { ...filter });
  }
}
