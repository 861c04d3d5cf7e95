import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatCardModule } from '@angular/material/card';
import type { SyncArtifactRef } from '@sc/contracts';
import { map, type Observable } from 'rxjs';
import { pageResource } from '../../core/page-resource';
import { CodeBlockComponent } from '../../shared/code-block.component';
import { MarkdownComponent } from '../../shared/markdown.component';
import { ArtifactHeaderComponent, type ArtifactFile } from './artifact-header.component';
import { ServicesApi, TextSource, parseRevision } from './services.api';

interface TextArtifact extends ArtifactFile {
  content: string;
}

interface TextParams {
  orgId: string;
  service: string;
  source: TextSource;
  name: string;
  revision: number | undefined;
}

const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown', 'mdx']);

/** The file's extension, lower case ("yaml" for `openapi.yaml`): the language its text is highlighted as. */
function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * The service summary, a document or an API spec. Markdown (the summary, `.md` docs) is rendered and sanitized
 * (MarkdownComponent); anything else is shown as written, highlighted by its file extension.
 */
@Component({
  selector: 'sc-text-artifact-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatCardModule, ArtifactHeaderComponent, CodeBlockComponent, MarkdownComponent],
  template: `
    <div class="page">
      <sc-artifact-header [orgId]="orgId()" [service]="service()" [current]="artifact()?.title ?? name()" [loaded]="loaded" [file]="artifact()" [artifact]="artifactRef()" />
      @if (artifact(); as artifact) {
        <mat-card appearance="outlined">
          <mat-card-content data-testid="artifact-text">
            @if (isMarkdown()) {
              <sc-markdown [markdown]="artifact.content" />
            } @else {
              <sc-code-block [code]="artifact.content" [language]="language()" />
            }
          </mat-card-content>
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
  /** `?revision=n` from the URL; absent means the current revision. */
  readonly revision = input<string | undefined>();

  readonly loaded = pageResource({
    params: (): TextParams => ({ orgId: this.orgId(), service: this.service(), source: this.source(), name: this.name(), revision: parseRevision(this.revision()) }),
    load: (params) => this.fetch(params),
    initial: null as TextArtifact | null,
  });
  readonly artifact = this.loaded.value;
  readonly language = computed(() => extensionOf(this.artifact()?.path ?? ''));
  readonly isMarkdown = computed(() => this.artifact()?.format === 'markdown' || MARKDOWN_EXTENSIONS.has(this.language()));

  /** The artifact on the page, for the revision picker; the summary is one per service (any name). */
  readonly artifactRef = computed<SyncArtifactRef | null>(() => {
    const source = this.source();
    return source === 'summary' ? null : { kind: source === 'docs' ? 'doc' : 'api-spec', name: this.name() };
  });

  private fetch({ orgId, service, source, name, revision }: TextParams): Observable<TextArtifact> {
    if (source === 'summary') {
      return this.api.summary(orgId, service, revision).pipe(
        map((summary) => ({ title: 'Service summary', path: summary.path, revision: summary.revision, format: 'markdown', content: summary.markdown })),
      );
    }
    return this.api.text(orgId, service, source, name, revision).pipe(
      map((view) => ({ title: view.name, path: view.path, revision: view.revision, format: view.format, content: view.content })),
    );
  }
}
