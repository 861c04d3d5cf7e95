import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { CreateOrganizationRequest, OrganizationResponse } from '@sc/contracts';
import { Observable } from 'rxjs';

@Injectable({ providedIn: 'root' })
export class OrganizationApi {
  private readonly http = inject(HttpClient);

  get(orgId: string): Observable<OrganizationResponse> {
    return this.http.get<OrganizationResponse>(`/api/v1/orgs/${encodeURIComponent(orgId)}`);
  }

  create(request: CreateOrganizationRequest): Observable<OrganizationResponse> {
    return this.http.post<OrganizationResponse>('/api/v1/orgs', request);
  }
}
