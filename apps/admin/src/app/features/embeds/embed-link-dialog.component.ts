import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MAT_DIALOG_DATA, MatDialogModule, MatDialogRef } from '@angular/material/dialog';
import { MatRadioModule } from '@angular/material/radio';
import { MatSelectModule } from '@angular/material/select';
import type { CreatedEmbedLinkResponse } from '@sc/contracts';
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

/**
 * Creates an embed link for one diagram (admins): latest or pinned revision, and an expiry. The token exists only in
 * this answer, so the dialog then shows the snippets to copy; it closes with the created link (the page keeps it for
 * further copies while it is open) or undefined.
 */
@Component({
  selector: 'sc-embed-link-dialog',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatDialogModule, MatButtonModule, MatRadioModule, MatSelectModule, CopyFieldComponent, ErrorBannerComponent],
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
    .expiry {
      width: 100%;
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

  async create(): Promise<void> {
    const expiresAt = expiresAtFor(this.expiry(), '');
    await this.creation.run(
      true,
      () =>
        this.api.create(this.data.orgId, {
          service: this.data.service,
          diagram: this.data.diagram,
          ...(this.pinned() ? { revision: this.data.revision } : {}),
          ...(expiresAt ? { expiresAt } : {}),
        }),
      { done: (created) => this.created.set(created) },
    );
  }
}
