import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MAT_DIALOG_DATA, MatDialogModule, MatDialogRef } from '@angular/material/dialog';
import { MatInputModule } from '@angular/material/input';
import { MatRadioModule } from '@angular/material/radio';
import { MatSelectModule } from '@angular/material/select';
import { frameAncestorProblems, type CreatedEmbedLinkResponse } from '@sc/contracts';
import { mutation } from '../../core/mutation';
import { CopyFieldComponent } from '../../shared/copy-field.component';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { EXPIRY_CHOICES, expiresAtFor, type ExpiryChoice } from '../tokens/token-rules';
import { EMBED_SNIPPET_LABELS, embedSnippet, type EmbedSnippetKind } from './embed-snippets';
import { EmbedLinksApi } from './embeds.api';

export interface EmbedLinkDialogData {
  orgId: string;
  service: string;
  diagram: string;
  /** The revision the page shows, offered for pinning. */
  revision: number;
  /** The snippet the person asked for: shown first once the link exists. */
  kind: EmbedSnippetKind;
  /** The dashboard's page of the diagram (the Markdown image links to it). */
  diagramPageUrl: string;
}

const SNIPPET_ORDER: EmbedSnippetKind[] = ['image', 'markdown', 'iframe'];

/** Which sites may show the link's zoomable page in an iframe (CSP `frame-ancestors`); images work everywhere. */
export type FramingChoice = 'any' | 'listed' | 'none';

/** The origins typed in the dialog: one per line (commas and spaces separate too), blanks dropped. */
export function typedOrigins(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((origin) => origin.trim())
    .filter(Boolean);
}

/**
 * Creates an embed link for one diagram (admins): latest or pinned revision, and an expiry. The token exists only in
 * this answer, so the dialog then shows the snippets to copy; it closes with the created link (the page keeps it for
 * further copies while it is open) or undefined.
 */
@Component({
  selector: 'sc-embed-link-dialog',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatDialogModule, MatButtonModule, MatInputModule, MatRadioModule, MatSelectModule, CopyFieldComponent, ErrorBannerComponent],
  template: `
    <h2 mat-dialog-title>Embed “{{ data.diagram }}”</h2>
    <mat-dialog-content>
      @if (created(); as link) {
        <p class="warning" role="note"><strong>Copy it now — the link is shown only once.</strong> Anyone with it can see this image until it is revoked or expires.</p>
        @for (kind of snippetKinds(); track kind) {
          <p class="snippet-label">{{ labels[kind] }}</p>
          <sc-copy-field [value]="snippet(kind, link)" [label]="labels[kind]" [testId]="'embed-snippet-' + kind" [copyTestId]="'embed-copy-' + kind" />
        }
      } @else {
        <p>A read-only link to this diagram's image for READMEs, wikis and portals; it works without signing in.</p>
        <sc-error-banner [error]="error()" />
        <p id="embed-revision-label" class="field-label">Revision</p>
        <mat-radio-group aria-labelledby="embed-revision-label" [value]="pinned()" (change)="pinned.set($event.value)" class="choices">
          <mat-radio-button [value]="false" data-testid="embed-latest">Latest: updates after each sync</mat-radio-button>
          <mat-radio-button [value]="true" data-testid="embed-pinned">Pinned to revision {{ data.revision }}</mat-radio-button>
        </mat-radio-group>
        <mat-form-field appearance="outline" class="expiry">
          <mat-label>Expires</mat-label>
          <mat-select [value]="expiry()" (valueChange)="expiry.set($event)" data-testid="embed-expiry">
            @for (choice of expiryChoices; track choice.value) {
              <mat-option [value]="choice.value">{{ choice.label }}</mat-option>
            }
          </mat-select>
        </mat-form-field>
        <p id="embed-framing-label" class="field-label">Sites that may show it in an iframe</p>
        <mat-radio-group aria-labelledby="embed-framing-label" [value]="framing()" (change)="framing.set($event.value)" class="choices">
          <mat-radio-button value="any" data-testid="embed-framing-any">Any site</mat-radio-button>
          <mat-radio-button value="listed" data-testid="embed-framing-listed">Only these sites</mat-radio-button>
          <mat-radio-button value="none" data-testid="embed-framing-none">No site (image links only)</mat-radio-button>
        </mat-radio-group>
        @if (framing() === 'listed') {
          <mat-form-field appearance="outline" class="origins">
            <mat-label>Origins, one per line</mat-label>
            <textarea
              matInput
              rows="3"
              [value]="originsText()"
              (input)="originsText.set($any($event.target).value)"
              placeholder="https://portal.example.com"
              data-testid="embed-frame-ancestors"
              aria-describedby="embed-origins-hint"
            ></textarea>
          </mat-form-field>
          <p id="embed-origins-hint" class="hint">A scheme and a host, with a port if needed: https://wiki.example.com, https://*.example.com, http://localhost:8080.</p>
          @if (showProblems()) {
            <ul class="problems" role="alert" data-testid="embed-frame-ancestors-errors">
              @for (problem of originProblems(); track $index) {
                <li>{{ problem }}</li>
              }
            </ul>
          }
        }
      }
    </mat-dialog-content>
    <mat-dialog-actions align="end">
      @if (created(); as link) {
        <button mat-flat-button type="button" (click)="ref.close(link)" data-testid="embed-done">Done</button>
      } @else {
        <button mat-button type="button" (click)="ref.close()">Cancel</button>
        <button mat-flat-button type="button" (click)="create()" [disabled]="creating()" data-testid="embed-create">
          {{ creating() ? 'Creating…' : 'Create link' }}
        </button>
      }
    </mat-dialog-actions>
  `,
  styles: `
    .choices {
      display: flex;
      flex-direction: column;
      margin-bottom: 12px;
    }
    .field-label,
    .snippet-label {
      margin: 12px 0 4px;
      font-weight: 500;
    }
    .expiry,
    .origins {
      width: 100%;
    }
    .hint {
      margin: -12px 0 8px;
      font-size: 12px;
      color: var(--mat-sys-on-surface-variant);
    }
    .problems {
      margin: 0 0 8px;
      padding-left: 20px;
      color: var(--mat-sys-error);
    }
    .warning {
      max-width: 60ch;
    }
  `,
})
export class EmbedLinkDialogComponent {
  readonly data = inject<EmbedLinkDialogData>(MAT_DIALOG_DATA);
  readonly ref = inject<MatDialogRef<EmbedLinkDialogComponent, CreatedEmbedLinkResponse>>(MatDialogRef);
  private readonly api = inject(EmbedLinksApi);
  private readonly creation = mutation({ report: 'inline' });
  readonly creating = this.creation.pending;
  readonly error = this.creation.error;
  readonly pinned = signal(false);
  readonly expiry = signal<ExpiryChoice>('never');
  readonly created = signal<CreatedEmbedLinkResponse | null>(null);
  readonly framing = signal<FramingChoice>('any');
  readonly originsText = signal('');
  /** Problems are shown once Create was pressed, then follow the typing. */
  private readonly submitted = signal(false);
  /** Sentences for the typed origins by the server's own rule (libs/contracts frameAncestorProblems). */
  readonly originProblems = computed(() => {
    if (this.framing() !== 'listed') return [];
    const origins = typedOrigins(this.originsText());
    if (origins.length === 0) return ['Name at least one site, or choose “Any site” or “No site”.'];
    return frameAncestorProblems(origins).map((problem) => (problem.index === undefined ? problem.message : `Line ${problem.index + 1}: ${problem.message}`));
  });
  readonly showProblems = computed(() => this.submitted() && this.originProblems().length > 0);
  readonly labels = EMBED_SNIPPET_LABELS;
  /** A custom date needs a date field; the list's fixed periods are enough here (the link can be revoked any time). */
  readonly expiryChoices = EXPIRY_CHOICES.filter((choice) => choice.value !== 'custom');

  /** The asked-for snippet first, then the others. */
  snippetKinds(): EmbedSnippetKind[] {
    return [this.data.kind, ...SNIPPET_ORDER.filter((kind) => kind !== this.data.kind)];
  }

  snippet(kind: EmbedSnippetKind, link: CreatedEmbedLinkResponse): string {
    return embedSnippet(kind, link, this.data.diagram, this.data.diagramPageUrl);
  }

  /** What the link sends as `frameAncestors`: absent for any site, [] for none, else the typed origins. */
  private frameAncestors(): { frameAncestors?: string[] } {
    const framing = this.framing();
    if (framing === 'any') return {};
    return { frameAncestors: framing === 'none' ? [] : typedOrigins(this.originsText()) };
  }

  async create(): Promise<void> {
    this.submitted.set(true);
    if (this.originProblems().length) return;
    const expiresAt = expiresAtFor(this.expiry(), '');
    await this.creation.run(
      true,
      () =>
        this.api.create(this.data.orgId, {
          service: this.data.service,
          diagram: this.data.diagram,
          ...(this.pinned() ? { revision: this.data.revision } : {}),
          ...(expiresAt ? { expiresAt } : {}),
          ...this.frameAncestors(),
        }),
      { done: (created) => this.created.set(created) },
    );
  }
}
