import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { AddMemberRequest, ApiTokenResponse, MemberResponse, SignInLinkResponse, UpdateMemberRequest } from '@sc/contracts';
import { Observable } from 'rxjs';
import { linkedPage, type CursorPage } from '../../core/cursor-pages';
import { orgApiUrl } from '../../core/org-api';

@Injectable({ providedIn: 'root' })
export class MembersApi {
  private readonly http = inject(HttpClient);

  private base(orgId: string): string {
    return orgApiUrl(orgId, 'members');
  }

  /** One page of the members (oldest first); `cursor` continues after the previous page. */
  list(orgId: string, cursor?: string): Observable<CursorPage<MemberResponse>> {
    return linkedPage<MemberResponse>(this.http, this.base(orgId), cursor);
  }

  add(orgId: string, request: AddMemberRequest): Observable<MemberResponse> {
    return this.http.post<MemberResponse>(this.base(orgId), request);
  }

  update(orgId: string, userId: string, request: UpdateMemberRequest): Observable<MemberResponse> {
    return this.http.patch<MemberResponse>(`${this.base(orgId)}/${encodeURIComponent(userId)}`, request);
  }

  remove(orgId: string, userId: string): Observable<void> {
    return this.http.delete<void>(`${this.base(orgId)}/${encodeURIComponent(userId)}`);
  }

  /** The usable API tokens the member created: removing or disabling the member revokes them. */
  tokensRevokedWithMember(orgId: string, userId: string): Observable<ApiTokenResponse[]> {
    return this.http.get<ApiTokenResponse[]>(`${this.base(orgId)}/${encodeURIComponent(userId)}/tokens`);
  }

  createSignInLink(orgId: string, userId: string): Observable<SignInLinkResponse> {
    return this.http.post<SignInLinkResponse>(`${this.base(orgId)}/${encodeURIComponent(userId)}/sign-in-link`, {});
  }
}
