import { ChangeDetectionStrategy, Component, linkedSignal, input, output } from '@angular/core';
import { MatChipInputEvent, MatChipsModule } from '@angular/material/chips';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatIconModule } from '@angular/material/icon';

/**
 * A list of distinct strings as chips: type and press Enter or comma to add, the chip's remove button (or
 * Backspace in the empty input) to remove. Used for Tag Input values and for the options of selectable inputs.
 * Test hooks: `<testId>` (the text input), `<testId>-chip-<i>`, `<testId>-remove-<i>`.
 */
@Component({
  selector: 'sc-string-list-editor',
  changeDetection: ChangeDetectionStrategy.OnPush,
  styleUrl: './fields.scss',
  imports: [MatChipsModule, MatFormFieldModule, MatIconModule],
  template: `
    <mat-form-field>
      <mat-label>{{ label() }}</mat-label>
      <mat-chip-grid #grid [attr.aria-label]="label()">
        @for (item of current(); track item; let i = $index) {
          <mat-chip-row (removed)="remove(i)" [attr.data-testid]="testId() + '-chip-' + i">
            {{ item }}
            <button matChipRemove type="button" [attr.aria-label]="'Remove ' + item" [attr.data-testid]="testId() + '-remove-' + i">
              <mat-icon svgIcon="close" />
            </button>
          </mat-chip-row>
        }
        <input
          [matChipInputFor]="grid"
          [matChipInputSeparatorKeyCodes]="separators"
          [matChipInputAddOnBlur]="true"
          (matChipInputTokenEnd)="add($event)"
          [placeholder]="placeholder()"
          [attr.data-testid]="testId()"
        />
      </mat-chip-grid>
      @if (hint()) {
        <mat-hint>{{ hint() }}</mat-hint>
      }
    </mat-form-field>
  `,
})
export class StringListEditorComponent {
  readonly items = input.required<readonly string[]>();
  /** The latest items: ahead of the input until the parent renders again, so quick successive edits build on each other. */
  readonly current = linkedSignal(() => this.items());
  readonly label = input.required<string>();
  readonly testId = input.required<string>();
  readonly placeholder = input('Type, then Enter');
  readonly hint = input('');
  readonly itemsChange = output<string[]>();
  /** Enter and comma. */
  readonly separators = [13, 188];

  add(event: MatChipInputEvent): void {
    const text = event.value.trim();
    event.chipInput.clear();
    if (text === '' || this.current().includes(text)) return;
    this.changed([...this.current(), text]);
  }

  remove(index: number): void {
    this.changed(this.current().filter((_, i) => i !== index));
  }

  /** Emits `next`, and shows it at once (see current). */
  private changed(next: string[]): void {
    this.current.set(next);
    this.itemsChange.emit(next);
  }
}
