import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type {
  DatabaseView,
  DiagramView as DiagramResponse,
  FlowView,
  JobsView,
  ServiceDetail,
  ServiceListItem,
  ServiceRevisionItem,
  SummaryView,
  TextArtifactView,
} from '@sc/contracts';
import type { ApplyReport, OverlaidGraph } from '@sc/diagram';
import { Observable } from 'rxjs';

/** A diagram as the read API returns it, typed with the diagram library's graph and report. */
export type DiagramData = DiagramResponse<OverlaidGraph, ApplyReport>;
export type FlowData = FlowView<OverlaidGraph>;
export type JobsData = JobsView<OverlaidGraph>;

/** The text artifacts shown as stored: documents and API specs (by name) and the service summary. */
export type TextSource = 'docs' | 'api-specs' | 'summary';

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
    return this.http.get<DiagramData>(`${this.artifact(orgId, service)}/diagrams/${encodeURIComponent(name)}`);
  }

  flow(orgId: string, service: string, name: string): Observable<FlowData> {
    return this.http.get<FlowData>(`${this.artifact(orgId, service)}/flows/${encodeURIComponent(name)}`);
  }

  jobs(orgId: string, service: string): Observable<JobsData> {
    return this.http.get<JobsData>(`${this.artifact(orgId, service)}/jobs`);
  }

  database(orgId: string, service: string, name: string): Observable<DatabaseView> {
    return this.http.get<DatabaseView>(`${this.artifact(orgId, service)}/databases/${encodeURIComponent(name)}`);
  }

  summary(orgId: string, service: string): Observable<SummaryView> {
    return this.http.get<SummaryView>(`${this.artifact(orgId, service)}/summary`);
  }

  text(orgId: string, service: string, source: 'docs' | 'api-specs', name: string): Observable<TextArtifactView> {
    return this.http.get<TextArtifactView>(`${this.artifact(orgId, service)}/${source}/${encodeURIComponent(name)}`);
  }

  private artifact(orgId: string, service: string): string {
    return `${this.base(orgId)}/${encodeURIComponent(service)}`;
  }
}
