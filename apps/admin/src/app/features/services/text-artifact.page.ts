import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { MatCardModule } from '@angular/material/card';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { map, type Observable } from 'rxjs';
import { pageResource } from '../../core/page-resource';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { ServiceBreadcrumbComponent } from './service-breadcrumb.component';
import { ServicesApi, TextSource } from './services.api';

interface TextArtifact {
  title: string;
  path: string;
  revision: number;
  format: string | null;
  content: string;
}

/**
 * The service summary, a document or an API spec, shown as the repository holds it. The text is displayed
 * verbatim (never interpreted as HTML): it comes from a repository, not from this service.
 */
@Component({
  selector: 'sc-text-artifact-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatCardModule, MatProgressBarModule, ErrorBannerComponent, ServiceBreadcrumbComponent],
  template: `
    <div class="page">
      <sc-service-breadcrumb [orgId]="orgId()" [service]="service()" [current]="artifact()?.title ?? name()" />
      @if (loaded.isLoading()) {
        <mat-progress-bar mode="indeterminate" aria-label="Loading" />
      }
      <sc-error-banner [error]="loaded.error()" />
      @if (artifact(); as artifact) {
        <div class="page-header"><h1>{{ artifact.title }}</h1></div>
        <p class="page-intro muted">
          @if (artifact.format) {
            {{ artifact.format }} ·
          }
          <code>{{ artifact.path }}</code> · revision {{ artifact.revision }}
        </p>
        <mat-card appearance="outlined">
          <mat-card-content><pre class="source" data-testid="artifact-text">{{ artifact.content }}</pre></mat-card-content>
        </mat-card>
      }
    </div>
  `,
  styleUrl: './services.scss',
})
export class TextArtifactPage {
  private readonly api = inject(ServicesApi);

  /** Bound from the route by the router (source from the route's data). */
  readonly orgId = input.required<string>();
  readonly service = input.required<string>();
  readonly name = input('');
  readonly source = input.required<TextSource>();

  readonly loaded = pageResource({
    params: () => ({ orgId: this.orgId(), service: this.service(), source: this.source(), name: this.name() }),
    load: (params) => this.fetch(params),
    initial: null as TextArtifact | null,
  });
  readonly artifact = this.loaded.value;

  private fetch({ orgId, service, source, name }: { orgId: string; service: string; source: TextSource; name: string }): Observable<TextArtifact> {
    if (source === 'summary') {
      return this.api.summary(orgId, service).pipe(
        map((summary) => ({ title: 'Service summary', path: summary.path, revision: summary.revision, format: 'markdown', content: summary.markdown })),
      );
    }
    return this.api.text(orgId, service, source, name).pipe(
      map((view) => ({ title: view.name, path: view.path, revision: view.revision, format: view.format, content: view.content })),
    );
  }
}
