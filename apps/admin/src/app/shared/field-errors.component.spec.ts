import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { FormControl, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { settle, textOf } from '../../testing/dom';
import { createWithInputs, provideTestApp } from '../../testing/providers';
import { FieldErrorsComponent, type FieldErrorMessages } from './field-errors.component';

/** A form field around the component under test: its control, the messages and an optional hint come from the test. */
@Component({
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [ReactiveFormsModule, MatFormFieldModule, MatInputModule, FieldErrorsComponent],
  template: `
    <mat-form-field>
      <mat-label>Field</mat-label>
      <input matInput [formControl]="control()" />
      @if (hint()) {
        <mat-hint>{{ hint() }}</mat-hint>
      }
      <sc-field-errors matError [control]="control()" [messages]="messages()" />
    </mat-form-field>
  `,
})
class HostComponent {
  readonly control = input.required<FormControl<string>>();
  readonly messages = input.required<FieldErrorMessages>();
  readonly hint = input<string>();
}

describe('FieldErrorsComponent', () => {
  it('shows the message of each named error once the field is touched, then the server sentence, in the error slot', async () => {
    const control = new FormControl('', { nonNullable: true, validators: [Validators.required, Validators.pattern(/^[a-z]+$/)] });
    TestBed.configureTestingModule({ providers: provideTestApp() });
    const fixture = createWithInputs(HostComponent, { control, messages: { required: 'Enter a slug.', pattern: 'Use lowercase.' }, hint: 'hint text' });
    await settle(fixture);
    expect(textOf(fixture)).toContain('hint text');
    expect(textOf(fixture)).not.toContain('Enter a slug.');

    control.markAsTouched();
    control.updateValueAndValidity();
    await settle(fixture);
    expect(textOf(fixture)).toContain('Enter a slug.');
    expect(textOf(fixture)).not.toContain('hint text');

    control.setValue('Nope');
    await settle(fixture);
    expect(textOf(fixture)).not.toContain('Enter a slug.');
    expect(textOf(fixture)).toContain('Use lowercase.');

    control.setValue('kc');
    control.setErrors({ server: 'The slug kc is taken.' });
    await settle(fixture);
    const errors = fixture.nativeElement.querySelectorAll('.mat-mdc-form-field-error-wrapper sc-field-errors div');
    expect([...errors].map((element: Element) => element.textContent)).toEqual(['The slug kc is taken.']);
  });

  it("fills {field} placeholders from the validator's error, so a limit is written only in the validator", async () => {
    const control = new FormControl('', { nonNullable: true, validators: [Validators.maxLength(3)] });
    TestBed.configureTestingModule({ providers: provideTestApp() });
    const fixture = createWithInputs(HostComponent, { control, messages: { maxlength: 'Use at most {requiredLength} characters, not {actualLength} ({unknown}).' } });
    control.setValue('abcde');
    control.markAsTouched();
    await settle(fixture);
    expect(textOf(fixture)).toContain('Use at most 3 characters, not 5 ({unknown}).');
  });
});
