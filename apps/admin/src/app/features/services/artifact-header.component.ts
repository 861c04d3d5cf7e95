import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import type { SyncArtifactRef } from '@sc/contracts';
import type { PageResource } from '../../core/page-resource';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { RevisionBarComponent } from './revision-bar.component';
import { ServiceBreadcrumbComponent } from './service-breadcrumb.component';

/** The synced file an artifact page shows, as its header names it. */
export interface ArtifactFile {
  title: string;
  /** What the file is written in ("postgres", "openapi"), when known. */
  format: string | null;
  path: string;
  revision: number;
}

/**
 * The top of a synced artifact's page (database schema, summary, document, API spec): the way back, the load's
 * progress and error, and once loaded the file's title, format, path and revision with the revision picker.
 */
@Component({
  selector: 'sc-artifact-header',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatProgressBarModule, ErrorBannerComponent, RevisionBarComponent, ServiceBreadcrumbComponent],
  template: `
    <sc-service-breadcrumb [orgId]="orgId()" [service]="service()" [current]="current()" />
    @if (loaded().isLoading()) {
      <mat-progress-bar mode="indeterminate" [attr.aria-label]="loadingLabel()" />
    }
    <sc-error-banner [error]="loaded().error()" />
    @if (file(); as file) {
      <div class="page-header"><h1>{{ file.title }}</h1></div>
      <p class="page-intro muted">
        @if (file.format) {
          {{ file.format }} ·
        }
        <code>{{ file.path }}</code> · revision {{ file.revision }}
      </p>
      <sc-revision-bar [orgId]="orgId()" [service]="service()" [revision]="file.revision" [artifact]="artifact()" />
    }
  `,
})
export class ArtifactHeaderComponent {
  readonly orgId = input.required<string>();
  readonly service = input.required<string>();
  /** The breadcrumb's last step. */
  readonly current = input.required<string>();
  /** The page's load: its progress bar (labelled `loadingLabel`) and its error. */
  readonly loaded = input.required<Pick<PageResource<unknown>, 'isLoading' | 'error'>>();
  readonly loadingLabel = input('Loading');
  /** Null until loaded. */
  readonly file = input.required<ArtifactFile | null>();
  /** The artifact for the revision picker; null for the service summary (one per service). */
  readonly artifact = input.required<SyncArtifactRef | null>();
}
