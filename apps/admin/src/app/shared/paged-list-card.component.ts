import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { MatCardModule } from '@angular/material/card';
import type { CursorPages } from '../core/cursor-pages';
import { ListStateComponent } from './list-state.component';
import { LoadMoreComponent } from './load-more.component';

/**
 * A paged list of the API (cursorPages) in its card: the list's states (`<sc-list-state>`: progress bar, load error
 * with retry, the empty state with `emptyText`), then, once there are entries, the projected table and the
 * "Load more" footer (`<sc-load-more>`).
 */
@Component({
  selector: 'sc-paged-list-card',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatCardModule, ListStateComponent, LoadMoreComponent],
  template: `
    <mat-card appearance="outlined" class="section">
      <sc-list-state [loading]="pages().isLoading()" [loadingLabel]="loadingLabel()" [error]="pages().error()" (retry)="pages().reload()" [empty]="empty()"
        [emptyIcon]="emptyIcon()" [emptyHeading]="emptyHeading()" [emptyTestId]="emptyTestId()">{{ emptyText() }}</sc-list-state>
      @if (!pages().error() && !empty()) {
        <ng-content />
        <sc-load-more [pages]="pages()" [label]="moreLabel()" [testId]="moreTestId()" />
      }
    </mat-card>
  `,
  styles: `
    :host {
      display: block;
    }
  `,
})
export class PagedListCardComponent {
  readonly pages = input.required<CursorPages<unknown>>();
  readonly loadingLabel = input.required<string>();
  readonly emptyIcon = input.required<string>();
  readonly emptyHeading = input.required<string>();
  /** The sentence under the empty state's heading. */
  readonly emptyText = input.required<string>();
  readonly emptyTestId = input<string | null>(null);
  readonly moreLabel = input.required<string>();
  readonly moreTestId = input.required<string>();

  readonly empty = computed(() => this.pages().items().length === 0);
}
