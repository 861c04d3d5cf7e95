import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { GATEWAY_INFO_PATH, type ApiTokenResponse, type CreateApiTokenRequest, type CreatedApiTokenResponse, type GatewayInfo } from '@sc/contracts';
import { Observable } from 'rxjs';
import { linkedPage, type CursorPage } from '../../core/cursor-pages';
import { orgApiUrl } from '../../core/org-api';

@Injectable({ providedIn: 'root' })
export class TokensApi {
  private readonly http = inject(HttpClient);

  private base(orgId: string): string {
    return orgApiUrl(orgId, 'tokens');
  }

  /** One page of the tokens (newest first); `cursor` continues after the previous page. */
  list(orgId: string, cursor?: string): Observable<CursorPage<ApiTokenResponse>> {
    return linkedPage<ApiTokenResponse>(this.http, this.base(orgId), cursor);
  }

  create(orgId: string, request: CreateApiTokenRequest): Observable<CreatedApiTokenResponse> {
    return this.http.post<CreatedApiTokenResponse>(this.base(orgId), request);
  }

  /** Answers the token as it is now (revokedAt set). */
  revoke(orgId: string, tokenId: string): Observable<ApiTokenResponse> {
    return this.http.delete<ApiTokenResponse>(`${this.base(orgId)}/${encodeURIComponent(tokenId)}`);
  }

  /** The version handshake, which also names the service-cli package this server serves (public). */
  gatewayInfo(): Observable<GatewayInfo> {
    return this.http.get<GatewayInfo>(GATEWAY_INFO_PATH);
  }
}
