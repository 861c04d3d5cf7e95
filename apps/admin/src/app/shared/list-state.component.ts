import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import { MatIconModule } from '@angular/material/icon';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import type { ApiError } from '../core/api-error';
import { LoadErrorComponent } from './load-error.component';

/**
 * The states of a loaded list above its table: a progress bar while loading, the load error with a retry, or
 * the empty state (icon, heading, and the projected sentence) once it loaded nothing. The page shows its table
 * itself when there are rows.
 */
@Component({
  selector: 'sc-list-state',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatIconModule, MatProgressBarModule, LoadErrorComponent],
  template: `
    @if (loading()) {
      <mat-progress-bar mode="indeterminate" [attr.aria-label]="loadingLabel()" />
    }
    @if (error(); as error) {
      <sc-load-error [error]="error" (retry)="retry.emit()" />
    } @else if (!loading() && empty()) {
      <div class="empty-state" [attr.data-testid]="emptyTestId()">
        <mat-icon [svgIcon]="emptyIcon()" aria-hidden="true" />
        <h2>{{ emptyHeading() }}</h2>
        <p><ng-content /></p>
      </div>
    }
  `,
})
export class ListStateComponent {
  readonly loading = input.required<boolean>();
  readonly loadingLabel = input.required<string>();
  readonly error = input.required<ApiError | null>();
  /** Whether the list has no entries (the empty state shows once loading is over and nothing failed). */
  readonly empty = input.required<boolean>();
  readonly emptyIcon = input.required<string>();
  readonly emptyHeading = input.required<string>();
  readonly emptyTestId = input<string | null>(null);
  readonly retry = output<void>();
}
