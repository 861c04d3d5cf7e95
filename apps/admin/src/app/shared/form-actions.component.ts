import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';

/** Cancel and submit under a form in a card; while `busy` the submit button is disabled and says what is under way. */
@Component({
  selector: 'sc-form-actions',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule],
  template: `
    <div class="form-actions">
      <button mat-button type="button" (click)="cancelled.emit()">Cancel</button>
      <button mat-flat-button type="submit" [disabled]="busy()" [attr.data-testid]="submitTestId()">
        {{ busy() ? busyLabel() : submitLabel() }}
      </button>
    </div>
  `,
  styles: `
    :host {
      display: block;
    }
  `,
})
export class FormActionsComponent {
  readonly submitLabel = input.required<string>();
  readonly busyLabel = input.required<string>();
  readonly busy = input.required<boolean>();
  readonly submitTestId = input.required<string>();
  readonly cancelled = output<void>();
}
