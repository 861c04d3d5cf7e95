import { Injectable } from '@angular/core';
import type { AddMemberRequest, ApiTokenResponse, MemberResponse, SignInLinkResponse, UpdateMemberRequest } from '@sc/contracts';
import { Observable } from 'rxjs';
import { OrgCollectionApi } from '../../core/org-api';

/** The organization's members, oldest first. */
@Injectable({ providedIn: 'root' })
export class MembersApi extends OrgCollectionApi<MemberResponse, AddMemberRequest> {
  protected readonly collection = 'members';

  update(orgId: string, userId: string, request: UpdateMemberRequest): Observable<MemberResponse> {
    return this.http.patch<MemberResponse>(this.itemUrl(orgId, userId), request);
  }

  remove(orgId: string, userId: string): Observable<void> {
    return this.http.delete<void>(this.itemUrl(orgId, userId));
  }

  /** The usable API tokens the member created: removing or disabling the member revokes them. */
  tokensRevokedWithMember(orgId: string, userId: string): Observable<ApiTokenResponse[]> {
    return this.http.get<ApiTokenResponse[]>(`${this.itemUrl(orgId, userId)}/tokens`);
  }

  createSignInLink(orgId: string, userId: string): Observable<SignInLinkResponse> {
    return this.http.post<SignInLinkResponse>(`${this.itemUrl(orgId, userId)}/sign-in-link`, {});
  }
}
