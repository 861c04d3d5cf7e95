import { ChangeDetectionStrategy, Component, computed, input, linkedSignal, output } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { pairEntry, pairsOf } from './data-field-values';
import type { DataField } from '@sc/diagram';

/**
 * A Key-Value List: rows of key and value, stored as "key: value" strings (the details panel splits them at the
 * first ":" or "="), so a key cannot hold ":" or "=". Test hooks: `<testId>-key-<i>`, `<testId>-val-<i>`,
 * `<testId>-remove-<i>`, `<testId>-add`, `<testId>-error`.
 */
@Component({
  selector: 'sc-key-value-editor',
  changeDetection: ChangeDetectionStrategy.OnPush,
  styleUrl: './fields.scss',
  imports: [MatButtonModule, MatIconModule],
  template: `
    @for (pair of pairs(); track $index; let i = $index) {
      <div class="pair">
        <input [value]="pair.key" (change)="set(i, $any($event.target).value, pair.value)" placeholder="Key" [attr.aria-label]="'Key ' + (i + 1)" [attr.data-testid]="testId() + '-key-' + i" />
        <input [value]="pair.value" (change)="set(i, pair.key, $any($event.target).value)" placeholder="Value" [attr.aria-label]="'Value ' + (i + 1)" [attr.data-testid]="testId() + '-val-' + i" />
        <button mat-icon-button type="button" (click)="remove(i)" [attr.aria-label]="'Remove entry ' + (i + 1)" [attr.data-testid]="testId() + '-remove-' + i">
          <mat-icon svgIcon="delete" />
        </button>
      </div>
    }
    @if (problem()) {
      <p class="error-text" role="alert" [attr.data-testid]="testId() + '-error'">{{ problem() }}</p>
    }
    <button mat-stroked-button type="button" (click)="add()" [attr.data-testid]="testId() + '-add'"><mat-icon svgIcon="add" />Entry</button>
  `,
  styles: `
    :host {
      display: flex;
      flex-direction: column;
      gap: 6px;
      align-items: flex-start;
    }
    .pair {
      display: flex;
      gap: 6px;
      align-items: center;
      width: 100%;
    }
    input {
      flex: 1 1 0;
      min-width: 0;
      padding: 6px 8px;
      border: 1px solid var(--mat-sys-outline-variant);
      border-radius: 4px;
      background: var(--mat-sys-surface);
      color: var(--mat-sys-on-surface);
    }
  `,
})
export class KeyValueEditorComponent {
  readonly value = input.required<DataField['value']>();
  readonly testId = input.required<string>();
  readonly valueChange = output<string[]>();

  /** The rows shown, which may hold a blank row being filled in (blank rows are not stored). */
  readonly pairs = linkedSignal(() => pairsOf(this.value()));
  readonly problem = computed(() => {
    const bad = this.pairs().find((pair) => /[:=]/.test(pair.key));
    return bad ? `A key cannot contain ":" or "=" ("${bad.key}").` : '';
  });

  add(): void {
    this.pairs.update((pairs) => [...pairs, { key: '', value: '' }]);
  }

  set(index: number, key: string, value: string): void {
    this.pairs.update((pairs) => pairs.map((pair, i) => (i === index ? { key: key.trim(), value: value.trim() } : pair)));
    // A row without a key is not stored yet; emitting would reset the rows and lose the value typed into it.
    if (key.trim() !== '') this.emit();
  }

  remove(index: number): void {
    this.pairs.update((pairs) => pairs.filter((_, i) => i !== index));
    this.emit();
  }

  private emit(): void {
    if (this.problem()) return;
    this.valueChange.emit(this.pairs().filter((pair) => pair.key !== '').map((pair) => pairEntry(pair.key, pair.value)));
  }
}
