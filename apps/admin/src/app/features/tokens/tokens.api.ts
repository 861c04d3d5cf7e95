import { Injectable } from '@angular/core';
import { GATEWAY_INFO_PATH, type ApiTokenResponse, type CreateApiTokenRequest, type CreatedApiTokenResponse, type GatewayInfo } from '@sc/contracts';
import { Observable } from 'rxjs';
import { OrgCollectionApi } from '../../core/org-api';

/** The organization's API tokens, newest first. */
@Injectable({ providedIn: 'root' })
export class TokensApi extends OrgCollectionApi<ApiTokenResponse, CreateApiTokenRequest, CreatedApiTokenResponse> {
  protected readonly collection = 'tokens';

  /** Answers the token as it is now (revokedAt set). */
  revoke(orgId: string, tokenId: string): Observable<ApiTokenResponse> {
    return this.http.delete<ApiTokenResponse>(this.itemUrl(orgId, tokenId));
  }

  /** The version handshake, which also names the service-cli package this server serves (public). */
  gatewayInfo(): Observable<GatewayInfo> {
    return this.http.get<GatewayInfo>(GATEWAY_INFO_PATH);
  }
}
