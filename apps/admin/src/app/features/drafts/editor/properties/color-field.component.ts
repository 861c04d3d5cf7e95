import { ChangeDetectionStrategy, Component, computed, input, linkedSignal, output } from '@angular/core';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { isColor } from '@sc/diagram';

/**
 * A colour as text (any colour the context accepts: #rgb, #rrggbb, rgb(), hsl(), a CSS name) beside the browser's
 * colour picker (which speaks #rrggbb only). Emits on change; text that is no colour is shown as a problem and
 * not emitted. Test hooks: `<testId>` (the text) and `<testId>-picker`.
 */
@Component({
  selector: 'sc-color-field',
  changeDetection: ChangeDetectionStrategy.OnPush,
  styleUrl: './fields.scss',
  imports: [MatFormFieldModule, MatInputModule],
  template: `
    <mat-form-field>
      <mat-label>{{ label() }}</mat-label>
      <input matInput class="mono" [value]="text()" (change)="typed($any($event.target).value)" [attr.data-testid]="testId()" spellcheck="false" />
      <input
        matSuffix
        type="color"
        class="picker"
        [class.unset]="!pickable()"
        [value]="pickerValue()"
        (change)="valueChange.emit($any($event.target).value)"
        [attr.aria-label]="label() + ' colour picker'"
        [attr.data-testid]="testId() + '-picker'"
      />
      @if (problem()) {
        <mat-hint class="error-text">{{ problem() }}</mat-hint>
      }
    </mat-form-field>
  `,
  styles: `
    .picker {
      width: 32px;
      height: 28px;
      margin-right: 8px;
      padding: 0;
      border: none;
      background: none;
      cursor: pointer;
    }
    /* No colour set, or one the picker cannot show (a name, rgb()): its black would read as the chosen colour. */
    .picker.unset {
      opacity: 0.35;
    }
  `,
})
export class ColorFieldComponent {
  readonly label = input.required<string>();
  readonly value = input.required<string>();
  readonly testId = input.required<string>();
  /** A colour, or '' to unset. */
  readonly valueChange = output<string>();
  /** What was typed, reset when a new value comes in. */
  readonly text = linkedSignal(() => this.value());
  readonly problem = computed(() => (this.text() === '' || isColor(this.text()) ? '' : `"${this.text()}" is not a colour; it is not applied.`));
  /** Whether the picker shows the value (#rgb or #rrggbb); otherwise it is dimmed. */
  readonly pickable = computed(() => /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(this.text()));
  /** The picker shows #rrggbb values; other notations leave it black (and dimmed). */
  readonly pickerValue = computed(() => {
    const value = this.value();
    if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
    const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
    return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase() : '#000000';
  });

  typed(text: string): void {
    const value = text.trim();
    this.text.set(value);
    if (value !== '' && !isColor(value)) return;
    this.valueChange.emit(value);
  }
}
