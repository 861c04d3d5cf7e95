import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import type { CursorPages } from '../core/cursor-pages';
import { ErrorBannerComponent } from './error-banner.component';

/**
 * The end of a paged list (cursorPages): a "Load more" button while the API has a next page, and the error of
 * a next page that could not be read (the items already shown stay).
 */
@Component({
  selector: 'sc-load-more',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, ErrorBannerComponent],
  template: `
    <sc-error-banner [error]="pages().olderError()" />
    @if (pages().nextCursor()) {
      <div class="more">
        <button mat-stroked-button type="button" (click)="pages().loadMore()" [disabled]="pages().loading()" [attr.data-testid]="testId()">
          {{ label() }}
        </button>
      </div>
    }
  `,
  styles: `
    .more {
      display: flex;
      justify-content: center;
      padding: 16px;
    }
  `,
})
export class LoadMoreComponent {
  readonly pages = input.required<CursorPages<unknown>>();
  readonly label = input('Load more');
  readonly testId = input('load-more');
}
