import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { ArtifactKind, ArtifactListItem, DatabaseView, DiagramDiff, DiagramSource, DiagramView as DiagramResponse, FlowView, JobsView, ServiceDetail, ServiceListItem, ServiceRevisionItem, SummaryView, TextArtifactView } from '@sc/contracts';
import type { ApplyReport, GraphEdge, GraphGroup, GraphNode, OverlaidGraph } from '@sc/diagram';
import { Observable, map } from 'rxjs';
import { linkedPage, type CursorPage } from '../../core/cursor-pages';
import { orgApiUrl } from '../../core/org-api';
import { diagramLayoutUrl } from '../diagram-canvas/early-diagram-layout';
// Their own lines: the shared import above changes often.
import type { DiagramLayout } from '@sc/contracts';
import type { PreviewListItem, PreviewView } from '@sc/contracts';
import type { ArrangementLists, DiagramArrangement } from '@sc/contracts';

/** A diagram as the read API returns it, typed with the diagram library's graph and report. */
export type DiagramData = DiagramResponse<OverlaidGraph, ApplyReport>;
export type FlowData = FlowView<OverlaidGraph>;
export type DiagramChanges = DiagramDiff<GraphNode, GraphEdge, GraphGroup>;
export type JobsData = JobsView<OverlaidGraph>;
/** A preview (`sync --preview`) with its diagrams compared with the current revision, typed like DiagramData. */
export type PreviewData = PreviewView<OverlaidGraph, ApplyReport, GraphNode, GraphEdge, GraphGroup>;

/** The text artifacts shown as stored: documents and API specs (by name) and the service summary. */
export type TextSource = 'docs' | 'api-specs' | 'summary';

@Injectable({ providedIn: 'root' })
export class ServicesApi {
  private readonly http = inject(HttpClient);

  private base(orgId: string): string {
    return orgApiUrl(orgId, 'services');
  }

  /** The first page of services (up to 100, by name): for pickers. The services page reads every page (`page`). */
  list(orgId: string): Observable<ServiceListItem[]> {
    return this.http.get<ServiceListItem[]>(this.base(orgId));
  }

  /** The names of the first page of services, for pickers. */
  serviceNames(orgId: string): Observable<string[]> {
    return this.list(orgId).pipe(map((services) => services.map((service) => service.name)));
  }

  /** The current revision's artifacts of one kind: the diagrams a draft can copy, the schemas a node can point at. */
  artifactsOfKind(orgId: string, service: string, kind: ArtifactKind): Observable<ArtifactListItem[]> {
    return this.get(orgId, service).pipe(map((detail) => detail.artifacts.filter((artifact) => artifact.kind === kind)));
  }

  /** One page of the services by name; `cursor` continues after the previous page. */
  page(orgId: string, cursor?: string): Observable<CursorPage<ServiceListItem>> {
    return linkedPage<ServiceListItem>(this.http, this.base(orgId), cursor);
  }

  /** Deletes the service with its revisions (admins and owners). */
  remove(orgId: string, service: string): Observable<void> {
    return this.http.delete<void>(`${this.base(orgId)}/${encodeURIComponent(service)}`);
  }

  /** The service with the artifacts of one revision (the current one when `revision` is undefined). */
  get(orgId: string, service: string, revision?: number): Observable<ServiceDetail> {
    return this.http.get<ServiceDetail>(this.artifact(orgId, service), { params: revisionParams(revision) });
  }

  /** One page of the revisions, newest first; `cursor` (from the previous page's Link header) continues. */
  revisionsPage(orgId: string, service: string, cursor?: string): Observable<CursorPage<ServiceRevisionItem>> {
    return linkedPage<ServiceRevisionItem>(this.http, `${this.base(orgId)}/${encodeURIComponent(service)}/revisions`, cursor);
  }

  revisions(orgId: string, service: string): Observable<ServiceRevisionItem[]> {
    return this.http.get<ServiceRevisionItem[]>(`${this.base(orgId)}/${encodeURIComponent(service)}/revisions`);
  }

  diagram(orgId: string, service: string, name: string, revision?: number): Observable<DiagramData> {
    return this.http.get<DiagramData>(`${this.artifact(orgId, service)}/diagrams/${encodeURIComponent(name)}`, {
      params: revisionParams(revision),
    });
  }

  /**
   * The server's layout of the diagram's default view (404 diagram_layout_not_found while it has none: the page
   * then lays the diagram out itself).
   */
  diagramLayout(orgId: string, service: string, name: string, revision?: number): Observable<DiagramLayout> {
    return this.http.get<DiagramLayout>(diagramLayoutUrl(orgId, service, name, revision));
  }

  /** Where people arranged the diagram's nodes, frames and edges (version 0 and empty lists when nobody did). */
  arrangement(orgId: string, service: string, name: string): Observable<DiagramArrangement> {
    return this.http.get<DiagramArrangement>(this.arrangementUrl(orgId, service, name));
  }

  /** Saves the arrangement over `version` (409 arrangement_version_conflict when someone saved since). */
  saveArrangement(orgId: string, service: string, name: string, version: number, lists: ArrangementLists): Observable<DiagramArrangement> {
    return this.http.put<DiagramArrangement>(this.arrangementUrl(orgId, service, name), lists, { headers: { 'If-Match': `"${version}"` } });
  }

  /** Back to the automatic layout. */
  resetArrangement(orgId: string, service: string, name: string, version: number): Observable<void> {
    return this.http.delete<void>(this.arrangementUrl(orgId, service, name), { headers: { 'If-Match': `"${version}"` } });
  }

  private arrangementUrl(orgId: string, service: string, name: string): string {
    return `${this.artifact(orgId, service)}/diagrams/${encodeURIComponent(name)}/arrangement`;
  }

  /** The diagram's Mermaid and context files exactly as synced in that revision (Export To Mermaid). */
  diagramSource(orgId: string, service: string, name: string, revision?: number): Observable<DiagramSource> {
    return this.http.get<DiagramSource>(`${this.artifact(orgId, service)}/diagrams/${encodeURIComponent(name)}/source`, {
      params: revisionParams(revision),
    });
  }

  /** What changed in a diagram between two revisions: nodes, edges and groups added, removed and changed. */
  diagramChanges(orgId: string, service: string, name: string, from: number, to: number): Observable<DiagramChanges> {
    return this.http.get<DiagramChanges>(`${this.artifact(orgId, service)}/diagrams/${encodeURIComponent(name)}/diff`, {
      params: new HttpParams().set('from', from).set('to', to),
    });
  }

  /** The service's open previews, newest first. */
  previews(orgId: string, service: string): Observable<PreviewListItem[]> {
    return this.http.get<PreviewListItem[]>(`${this.artifact(orgId, service)}/previews`);
  }

  /** One preview with every diagram compared with the current revision (404 preview_not_found once expired). */
  preview(orgId: string, service: string, id: string): Observable<PreviewData> {
    return this.http.get<PreviewData>(`${this.artifact(orgId, service)}/previews/${encodeURIComponent(id)}`);
  }

  flow(orgId: string, service: string, name: string, revision?: number): Observable<FlowData> {
    return this.http.get<FlowData>(`${this.artifact(orgId, service)}/flows/${encodeURIComponent(name)}`, {
      params: revisionParams(revision),
    });
  }

  jobs(orgId: string, service: string, revision?: number): Observable<JobsData> {
    return this.http.get<JobsData>(`${this.artifact(orgId, service)}/jobs`, { params: revisionParams(revision) });
  }

  /** A database schema; `revision` reads the one synced in that revision (the diagram canvas's db-table nodes). */
  database(orgId: string, service: string, name: string, revision?: number): Observable<DatabaseView> {
    return this.http.get<DatabaseView>(`${this.artifact(orgId, service)}/databases/${encodeURIComponent(name)}`, {
      params: revisionParams(revision),
    });
  }

  summary(orgId: string, service: string, revision?: number): Observable<SummaryView> {
    return this.http.get<SummaryView>(`${this.artifact(orgId, service)}/summary`, { params: revisionParams(revision) });
  }

  text(orgId: string, service: string, source: 'docs' | 'api-specs', name: string, revision?: number): Observable<TextArtifactView> {
    return this.http.get<TextArtifactView>(`${this.artifact(orgId, service)}/${source}/${encodeURIComponent(name)}`, {
      params: revisionParams(revision),
    });
  }

  private artifact(orgId: string, service: string): string {
    return `${this.base(orgId)}/${encodeURIComponent(service)}`;
  }
}

function revisionParams(revision: number | undefined): HttpParams {
  return revision === undefined ? new HttpParams() : new HttpParams().set('revision', revision);
}

/** `?revision=` from the URL as a revision number, or undefined for "current" (also for anything unreadable). */
export function parseRevision(value: string | undefined): number | undefined {
  if (value === undefined || !/^[1-9][0-9]{0,8}$/.test(value)) return undefined;
  return Number(value);
}
