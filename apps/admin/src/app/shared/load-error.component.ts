import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { ApiError } from '../core/api-error';
import { ErrorBannerComponent } from './error-banner.component';

/**
 * Something that failed to load: the reason, and a way to try again without reloading the whole app. A 404 (no
 * such service, diagram or draft) gets the reason alone: loading it again cannot make it exist.
 */
@Component({
  selector: 'sc-load-error',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, MatIconModule, ErrorBannerComponent],
  template: `
    <sc-error-banner [error]="error()" />
    @if (error().status !== 404) {
      <button mat-stroked-button type="button" (click)="retry.emit()">
        <mat-icon svgIcon="refresh" aria-hidden="true" />
        Try again
      </button>
    }
  `,
  styles: `
    :host {
      display: block;
      padding: 16px;
    }
  `,
})
export class LoadErrorComponent {
  readonly error = input.required<ApiError>();
  readonly retry = output<void>();
}
