import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, Injector, computed, inject, input } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { Router, RouterLink } from '@angular/router';
import type { ArtifactKind, PreviewListItem, ServiceDetail, ServiceRevisionItem, SyncSource } from '@sc/contracts';
import { cursorPages } from '../../core/cursor-pages';
import { NotifyService } from '../../core/notify.service';
import { pageResource } from '../../core/page-resource';
import { SessionService } from '../../core/session.service';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { LoadMoreComponent } from '../../shared/load-more.component';
import { ARTIFACT_KIND_LABELS, artifactLink, formatBytes, safeWebUrl } from './artifact-labels';
import { RevisionBarComponent } from './revision-bar.component';
import { ServiceBreadcrumbComponent } from './service-breadcrumb.component';
import { ServicesApi, parseRevision } from './services.api';
import { DATA_TABLE } from '../../shared/data-table.component';
import { EmbedLinksCardComponent } from '../embeds/embed-links-card.component';

@Component({
  selector: 'sc-service-detail-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [DatePipe, RouterLink, MatButtonModule, MatCardModule, MatIconModule, MatProgressBarModule, DATA_TABLE, ErrorBannerComponent, LoadMoreComponent, RevisionBarComponent, ServiceBreadcrumbComponent, EmbedLinksCardComponent],
  templateUrl: './service-detail.page.html',
  styleUrl: './services.scss',
})
export class ServiceDetailPage {
  private readonly api = inject(ServicesApi);
  private readonly injector = inject(Injector);
  private readonly router = inject(Router);
  private readonly notify = inject(NotifyService);
  /** Admins and owners may delete the service. */
  readonly canManage = inject(SessionService).canManage;

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();
  readonly service = input.required<string>();
  /** `?revision=n` shows an earlier revision's artifacts; absent means the current one. */
  readonly revision = input<string | undefined>();
  readonly revisionNumber = computed(() => parseRevision(this.revision()));

  readonly loaded = pageResource({
    params: () => ({ orgId: this.orgId(), service: this.service(), revision: this.revisionNumber() }),
    load: ({ orgId, service, revision }) => this.api.get(orgId, service, revision),
    initial: null as ServiceDetail | null,
  });
  /** Newest first, as the API pages them (100 a page); "Load older revisions" appends the next page. */
  readonly revisionPages = cursorPages<{ orgId: string; service: string }, ServiceRevisionItem>({
    params: () => ({ orgId: this.orgId(), service: this.service() }),
    load: ({ orgId, service }, before) => this.api.revisionsPage(orgId, service, before),
  });
  /** Open previews (`sync --preview`), newest first; expired ones are not listed. */
  readonly previews = pageResource({
    params: () => ({ orgId: this.orgId(), service: this.service() }),
    load: ({ orgId, service }) => this.api.previews(orgId, service),
    initial: [] as PreviewListItem[],
  });
  readonly detail = this.loaded.value;
  readonly revisions = this.revisionPages.items;
  /** True when the page shows an earlier revision than the service's current one. */
  readonly viewingOld = computed(() => {
    const detail = this.detail();
    return detail !== null && detail.revision !== detail.currentRevision;
  });
  /** Keeps the chosen revision on the artifact links. */
  readonly revisionQuery = computed(() => (this.viewingOld() ? { revision: this.detail()?.revision } : {}));
  readonly repositoryLink = computed(() => safeWebUrl(this.detail()?.repositoryUrl ?? null));
  readonly artifacts = computed(() =>
    [...(this.detail()?.artifacts ?? [])].sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name)),
  );
  readonly formatBytes = formatBytes;

  async deleteService(): Promise<void> {
    const service = this.service();
    // Loaded on first use: the dialog, Material's dialog service and the form field stay out of the services bundle
    // (admin build budget).
    const { deleteServiceWithConfirmation } = await import('./delete-service-dialog.component');
    if (!(await deleteServiceWithConfirmation(this.injector, { orgId: this.orgId(), service }))) return;
    this.notify.success(`Service ${service} deleted.`);
    await this.router.navigate(['/orgs', this.orgId(), 'services']);
  }

  link(kind: ArtifactKind, name: string): { commands: string[]; label: string } {
    return artifactLink(kind, name);
  }

  kindLabel(kind: ArtifactKind): string {
    return ARTIFACT_KIND_LABELS[kind] ?? kind;
  }

  /** Which token synced the revision and the member who answers for it, as they were then. */
  syncedBy(revision: ServiceRevisionItem): string {
    const by = revision.syncedBy;
    if (!by) return 'Unknown';
    const token = by.tokenName ?? by.tokenPrefix ?? 'an API token';
    return by.email ? `${by.email} with ${token}` : `${token} (creator unknown)`;
  }

  /** The commit, branch and CI run the CLI reported; a CI link is offered only as http(s) (the server checks it too). */
  sourceOf(revision: Pick<ServiceRevisionItem, 'source'>): SyncSource {
    const source = revision.source ?? {};
    return { ...source, ciRunUrl: source.ciRunUrl && /^https?:\/\//i.test(source.ciRunUrl) ? source.ciRunUrl : undefined };
  }

  changeSummary(revision: Pick<ServiceRevisionItem, 'created' | 'updated' | 'removed'>): string {
    const parts = [
      revision.created.length ? `${revision.created.length} added` : '',
      revision.updated.length ? `${revision.updated.length} changed` : '',
      revision.removed.length ? `${revision.removed.length} removed` : '',
    ].filter(Boolean);
    return parts.length ? parts.join(', ') : 'No changes';
  }
}
