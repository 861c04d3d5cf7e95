import { ChangeDetectionStrategy, Component, input, signal } from '@angular/core';
import { ClipboardModule } from '@angular/cdk/clipboard';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';

/** A read-only value to copy (a secret shown once, an install command), with a Copy button and a screen-reader note. */
@Component({
  selector: 'sc-copy-field',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [ClipboardModule, MatButtonModule, MatIconModule],
  template: `
    <label class="visually-hidden" [for]="fieldId">{{ label() }}</label>
    <input [id]="fieldId" class="copy-field mono" readonly [value]="value()" (focus)="selectAll($event)" [attr.data-testid]="testId()" />
    <button
      mat-stroked-button
      type="button"
      [cdkCopyToClipboard]="value()"
      (cdkCopyToClipboardCopied)="copied.set($event)"
      [attr.aria-label]="'Copy ' + label()"
      [attr.data-testid]="copyTestId()"
    >
      <mat-icon svgIcon="content_copy" aria-hidden="true" />
      {{ copied() ? 'Copied' : 'Copy' }}
    </button>
    <span class="visually-hidden" aria-live="polite">{{ copied() ? label() + ' copied to the clipboard' : '' }}</span>
  `,
  styles: `
    /* The field and its button in one row; the label and the live note are visually hidden (taken out of the row). */
    :host {
      display: flex;
      gap: 8px;
      align-items: center;
    }
    .copy-field {
      flex: 1 1 auto;
      min-width: 0;
      padding: 10px 12px;
      font-size: 14px;
      border: 1px solid var(--mat-sys-outline-variant);
      border-radius: 6px;
      background: var(--mat-sys-surface-container);
      color: var(--mat-sys-on-surface);
    }
  `,
})
export class CopyFieldComponent {
  private static nextId = 0;
  readonly value = input.required<string>();
  /** Names the field for screen readers and the button ("Copy <label>"). */
  readonly label = input.required<string>();
  /** data-testid of the field, and of the Copy button. */
  readonly testId = input<string | null>(null);
  readonly copyTestId = input<string | null>(null);
  readonly copied = signal(false);
  readonly fieldId = `copy-field-${CopyFieldComponent.nextId++}`;

  selectAll(event: FocusEvent): void {
    (event.target as HTMLInputElement).select();
  }
}
