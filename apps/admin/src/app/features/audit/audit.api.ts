import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { AuditEntry, AuditFilter } from '@sc/contracts';
import { Observable } from 'rxjs';
import { linkedPage, type CursorPage } from '../../core/cursor-pages';
import { orgApiUrl } from '../../core/org-api';

/** The organization audit log (owners and admins). */
@Injectable({ providedIn: 'root' })
export class AuditApi {
  private readonly http = inject(HttpClient);

  private base(orgId: string): string {
    return orgApiUrl(orgId, 'audit');
  }

  page(orgId: string, filter: AuditFilter, page: { limit: number; cursor?: string }): Observable<CursorPage<AuditEntry>> {
    return linkedPage<AuditEntry>(this.http, this.base(orgId), page.cursor, { ...filter, limit: page.limit });
  }

  /** The download URL of every entry matching `filter`, as JSON lines (the server sends it as an attachment). */
  exportUrl(orgId: string, filter: AuditFilter): string {
    const query = toParams(filter).toString();
    return `${this.base(orgId)}/export${query ? `?${query}` : ''}`;
  }
}

function toParams(values: object): HttpParams {
  let params = new HttpParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') params = params.set(key, String(value));
  }
  return params;
}
