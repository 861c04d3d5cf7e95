import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { CreateOrganizationRequest, OrganizationResponse } from '@sc/contracts';
import { Observable } from 'rxjs';
import { orgApiUrl } from '../../core/org-api';

@Injectable({ providedIn: 'root' })
export class OrganizationApi {
  private readonly http = inject(HttpClient);

  get(orgId: string): Observable<OrganizationResponse> {
    return this.http.get<OrganizationResponse>(orgApiUrl(orgId));
  }

  create(request: CreateOrganizationRequest): Observable<OrganizationResponse> {
    return this.http.post<OrganizationResponse>('/api/v1/orgs', request);
  }
}
