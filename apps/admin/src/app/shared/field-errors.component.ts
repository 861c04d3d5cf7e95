import { ChangeDetectionStrategy, Component, computed, effect, input, signal } from '@angular/core';
import type { AbstractControl } from '@angular/forms';

/**
 * Messages for a control's validator errors, by error key, in the order they are shown. `{name}` in a message is
 * replaced by that field of the validator's error (e.g. `{requiredLength}` of `maxlength`), so a limit is written
 * once, in the validator (from @sc/contracts' FIELD_LIMITS), never again as a bare number in a template.
 */
export type FieldErrorMessages = Readonly<Record<string, string>>;

const PLACEHOLDER = /\{(\w+)\}/g;

function fill(message: string, error: unknown): string {
  if (typeof error !== 'object' || error === null) return message;
  const fields = error as Record<string, unknown>;
  return message.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(fields, name) && (typeof fields[name] === 'string' || typeof fields[name] === 'number') ? String(fields[name]) : whole,
  );
}

/**
 * The error line(s) of one form field: the message of each validator error of `control` named in `messages`,
 * then the server's own sentence (the `server` error that applyServerErrors sets). Written inside a
 * <mat-form-field> with the `matError` attribute, which is what mat-form-field projects into its error slot:
 *
 *   <sc-field-errors matError [control]="form.controls.slug" [messages]="{ required: 'Enter a slug.' }" />
 */
@Component({
  selector: 'sc-field-errors',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @for (message of shown(); track $index) {
      <div>{{ message }}</div>
    }
  `,
})
export class FieldErrorsComponent {
  readonly control = input.required<AbstractControl>();
  readonly messages = input<FieldErrorMessages>({});

  /** Bumped on every value, status or touched change of the control: its errors are not signals (OnPush). */
  private readonly changes = signal(0);

  readonly shown = computed(() => {
    this.changes();
    const control = this.control();
    const shown = Object.entries(this.messages())
      .filter(([key]) => control.hasError(key))
      .map(([key, message]) => fill(message, control.getError(key)));
    const server: unknown = control.getError('server');
    return typeof server === 'string' && server !== '' ? [...shown, server] : shown;
  });

  constructor() {
    effect((onCleanup) => {
      const subscription = this.control().events.subscribe(() => this.changes.update((count) => count + 1));
      onCleanup(() => subscription.unsubscribe());
    });
  }
}
