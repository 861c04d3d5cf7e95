import { HttpHeaders } from '@angular/common/http';
import { Injectable } from '@angular/core';
import { DraftsErrorCode, type Draft, type DraftConflictDetail, type DraftExport, type DraftFromDiagram, type DraftLayout, type DraftSummary, type ErrorDetail } from '@sc/contracts';
import type { DiagramContext, OverlaidGraph } from '@sc/diagram';
import { Observable } from 'rxjs';
import { toApiError } from '../../core/api-error';
import { OrgCollectionApi } from '../../core/org-api';

/** A draft as the API returns it, typed with the diagram library's graph. */
export type DraftData = Draft<OverlaidGraph>;
export type DraftExportData = DraftExport<DiagramContext>;

/** What a save sends: the whole draft as the editor has it. */
export interface DraftContent {
  name: string;
  graph: OverlaidGraph;
  layout: DraftLayout;
}

/** The four ways to start a draft (POST /drafts). */
export type NewDraft =
  | { name: string }
  | DraftContent
  | { name: string; from: DraftFromDiagram }
  | { name: string; mermaid: string; context?: string };

/** The value of If-Match (and of the ETag) for a draft version. */
export function versionTag(version: number): string {
  return `"${version}"`;
}

/**
 * Client of /api/v1/orgs/:orgId/drafts, listed most recently saved first. Saves carry the version they edit in
 * If-Match; a stale one fails with 409 draft_version_conflict (see draftConflict) and changes nothing on the server.
 */
@Injectable({ providedIn: 'root' })
export class DraftsApi extends OrgCollectionApi<DraftSummary, NewDraft, DraftData> {
  protected readonly collection = 'drafts';

  get(orgId: string, draftId: string): Observable<DraftData> {
    return this.http.get<DraftData>(this.itemUrl(orgId, draftId));
  }

  /** Saves `content` over `version`; answers the draft with its next version. */
  save(orgId: string, draftId: string, version: number, content: DraftContent): Observable<DraftData> {
    return this.http.put<DraftData>(this.itemUrl(orgId, draftId), content, { headers: new HttpHeaders({ 'If-Match': versionTag(version) }) });
  }

  /** Deletes the draft; with `version`, only if nobody saved it since. */
  remove(orgId: string, draftId: string, version?: number): Observable<void> {
    const headers = version === undefined ? undefined : new HttpHeaders({ 'If-Match': versionTag(version) });
    return this.http.delete<void>(this.itemUrl(orgId, draftId), { headers });
  }

  /** The Mermaid and context files of the draft, their names and digests, and the .service.yaml lines. */
  export(orgId: string, draftId: string): Observable<DraftExportData> {
    return this.http.get<DraftExportData>(`${this.itemUrl(orgId, draftId)}/export`);
  }
}

/** Who saved the version a failed save did not know about, when the failure is a version conflict. */
export function draftConflict(error: unknown): DraftConflictDetail | null {
  const apiError = toApiError(error);
  if (apiError.code !== DraftsErrorCode.VersionConflict) return null;
  const [detail] = apiError.details;
  return detail && typeof detail['currentVersion'] === 'number' ? (detail as DraftConflictDetail) : null;
}

/**
 * One problem of a refused draft or pasted diagram as a line a person can act on: where (file, line, column)
 * and what (the server's message, which starts with the JSON path when there is one). A Mermaid message that starts
 * with its own "line 4, column 12: " loses that prefix, so the place is said once.
 */
export function describeProblem(detail: ErrorDetail): string {
  const where = [detail.file, detail.line !== undefined ? `line ${detail.line}` : undefined, detail.column !== undefined ? `column ${detail.column}` : undefined]
    .filter((part) => part !== undefined)
    .join(', ');
  const positioned = `line ${detail.line}, column ${detail.column}: `;
  const message = detail.line !== undefined && detail.column !== undefined && detail.message.startsWith(positioned) ? detail.message.slice(positioned.length) : detail.message;
  const hasPath = detail.path !== undefined && message.startsWith(detail.path);
  const what = hasPath || detail.path === undefined ? message : `${detail.path}: ${message}`;
  return where ? `${where} — ${what}` : what;
}
