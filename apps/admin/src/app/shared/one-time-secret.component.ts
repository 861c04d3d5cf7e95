import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { MatIconModule } from '@angular/material/icon';
import { CopyFieldComponent } from './copy-field.component';

/** A secret the server returns exactly once (API token, sign-in link), with a copy button and a warning. */
@Component({
  selector: 'sc-one-time-secret',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [CopyFieldComponent, MatIconModule],
  template: `
    <div class="warning-banner" role="note">
      <mat-icon svgIcon="warning" aria-hidden="true" />
      <div>
        <strong>{{ warningTitle() }}</strong>
        <div>{{ warning() }}</div>
      </div>
    </div>
    <sc-copy-field [value]="value()" [label]="label()" testId="one-time-secret" />
  `,
})
export class OneTimeSecretComponent {
  readonly value = input.required<string>();
  readonly label = input('secret');
  readonly warningTitle = input('Copy it now — it is shown only once.');
  readonly warning = input('The server keeps only a hash. If you lose it, revoke it and create a new one.');
}
