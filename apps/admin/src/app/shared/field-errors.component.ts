import { ChangeDetectionStrategy, Component, computed, effect, input, signal } from '@angular/core';
import type { AbstractControl } from '@angular/forms';

/** Messages for a control's validator errors, by error key, in the order they are shown. */
export type FieldErrorMessages = Readonly<Record<string, string>>;

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
      .map(([, message]) => message);
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
