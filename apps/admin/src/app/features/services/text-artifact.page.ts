import { ChangeDetectionStrategy, Component, inject, input, signal } from '@angular/core';
import { MatCardModule } from '@angular/material/card';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { firstValueFrom } from 'rxjs';
import { ApiError, toApiError } from '../../core/api-error';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { reloadOn } from '../../shared/reload-on';
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
      @if (loading()) {
        <mat-progress-bar mode="indeterminate" aria-label="Loading" />
      }
      <sc-error-banner [error]="error()" />
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

  readonly artifact = signal<TextArtifact | null>(null);
  readonly loading = signal(true);
  readonly error = signal<ApiError | null>(null);

  constructor() {
    reloadOn(() => `${this.orgId()}/${this.service()}/${this.source()}/${this.name()}`, () => this.load());
  }

  async load(): Promise<void> {
    this.loading.set(true);
    this.error.set(null);
    try {
      this.artifact.set(await this.fetch());
    } catch (error: unknown) {
      this.error.set(toApiError(error));
    } finally {
      this.loading.set(false);
    }
  }

  private async fetch(): Promise<TextArtifact> {
    const source = this.source();
    if (source === 'summary') {
      const summary = await firstValueFrom(this.api.summary(this.orgId(), this.service()));
      return { title: 'Service summary', path: summary.path, revision: summary.revision, format: 'markdown', content: summary.markdown };
    }
    const view = await firstValueFrom(this.api.text(this.orgId(), this.service(), source, this.name()));
    return { title: view.name, path: view.path, revision: view.revision, format: view.format, content: view.content };
  }
}
