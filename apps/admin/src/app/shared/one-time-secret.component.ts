import { ChangeDetectionStrategy, Component, input, signal } from '@angular/core';
import { ClipboardModule } from '@angular/cdk/clipboard';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';

/** A secret the server returns exactly once (API token, sign-in link), with a copy button and a warning. */
@Component({
  selector: 'sc-one-time-secret',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [ClipboardModule, MatButtonModule, MatIconModule],
  template: `
    <div class="warning-banner" role="note">
      <mat-icon svgIcon="warning" aria-hidden="true" />
      <div>
        <strong>{{ warningTitle() }}</strong>
        <div>{{ warning() }}</div>
      </div>
    </div>
    <div class="secret-row">
      <label class="visually-hidden" [for]="fieldId">{{ label() }}</label>
      <input
        [id]="fieldId"
        class="secret mono"
        readonly
        [value]="value()"
        (focus)="selectAll($event)"
        data-testid="one-time-secret"
      />
      <button
        mat-stroked-button
        type="button"
        [cdkCopyToClipboard]="value()"
        (cdkCopyToClipboardCopied)="copied.set($event)"
        [attr.aria-label]="'Copy ' + label()"
      >
        <mat-icon svgIcon="content_copy" aria-hidden="true" />
        {{ copied() ? 'Copied' : 'Copy' }}
      </button>
    </div>
    <span class="visually-hidden" aria-live="polite">{{ copied() ? label() + ' copied to the clipboard' : '' }}</span>
  `,
  styles: `
    .secret-row {
      display: flex;
      gap: 8px;
      align-items: center;
    }
    .secret {
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
export class OneTimeSecretComponent {
  private static nextId = 0;
  readonly value = input.required<string>();
  readonly label = input('secret');
  readonly warningTitle = input('Copy it now — it is shown only once.');
  readonly warning = input('The server keeps only a hash. If you lose it, revoke it and create a new one.');
  readonly copied = signal(false);
  readonly fieldId = `one-time-secret-${OneTimeSecretComponent.nextId++}`;

  selectAll(event: FocusEvent): void {
    (event.target as HTMLInputElement).select();
  }
}
