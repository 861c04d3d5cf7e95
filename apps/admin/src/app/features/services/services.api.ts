import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { DiagramView as DiagramResponse, ServiceDetail, ServiceListItem, ServiceRevisionItem } from '@sc/contracts';
import type { ApplyReport, OverlaidGraph } from '@sc/diagram';
import { Observable } from 'rxjs';

/** A diagram as the read API returns it, typed with the diagram library's graph and report. */
export type DiagramData = DiagramResponse<OverlaidGraph, ApplyReport>;

@Injectable({ providedIn: 'root' })
export class ServicesApi {
  private readonly http = inject(HttpClient);

  private base(orgId: string): string {
    return `/api/v1/orgs/${encodeURIComponent(orgId)}/services`;
  }

  list(orgId: string): Observable<ServiceListItem[]> {
    return this.http.get<ServiceListItem[]>(this.base(orgId));
  }

  get(orgId: string, service: string): Observable<ServiceDetail> {
    return this.http.get<ServiceDetail>(`${this.base(orgId)}/${encodeURIComponent(service)}`);
  }

  revisions(orgId: string, service: string): Observable<ServiceRevisionItem[]> {
    return this.http.get<ServiceRevisionItem[]>(`${this.base(orgId)}/${encodeURIComponent(service)}/revisions`);
  }

  diagram(orgId: string, service: string, name: string): Observable<DiagramData> {
    return this.http.get<DiagramData>(
      `${this.base(orgId)}/${encodeURIComponent(service)}/diagrams/${encodeURIComponent(name)}`,
    );
  }
}
