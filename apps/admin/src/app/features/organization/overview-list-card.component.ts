import { NgTemplateOutlet } from '@angular/common';
import { ChangeDetectionStrategy, Component, TemplateRef, contentChild, input } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { RouterLink } from '@angular/router';
import type { PageResource } from '../../core/page-resource';
import { LoadErrorComponent } from '../../shared/load-error.component';

/**
 * A card of the Overview that lists the first few of something (services, drafts) and links to the page that has
 * them all. The projected template draws one list item (`let-item`); while `resource` loads the card shows a
 * progress bar, when it failed the load error with a retry, and once loaded empty `emptyText`.
 */
@Component({
  selector: 'sc-overview-list-card',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [NgTemplateOutlet, RouterLink, MatButtonModule, MatCardModule, MatIconModule, MatProgressBarModule, LoadErrorComponent],
  template: `
    <mat-card appearance="outlined" [attr.data-testid]="testId()">
      <mat-card-header>
        <mat-card-title><h2>{{ heading() }}</h2></mat-card-title>
      </mat-card-header>
      <mat-card-content>
        @if (resource().isLoading()) {
          <mat-progress-bar mode="indeterminate" [attr.aria-label]="loadingLabel()" />
        }
        @if (resource().error(); as error) {
          <sc-load-error [error]="error" (retry)="resource().reload()" />
        } @else if (items(); as list) {
          @if (list.length === 0) {
            <p class="muted">{{ emptyText() }}</p>
          } @else {
            <ul class="overview-list">
              @for (item of list; track key()(item)) {
                <li><ng-container [ngTemplateOutlet]="itemTemplate()" [ngTemplateOutletContext]="{ $implicit: item }" /></li>
              }
            </ul>
          }
        }
      </mat-card-content>
      <mat-card-actions>
        <a mat-button [routerLink]="link()">
          <mat-icon [svgIcon]="linkIcon()" aria-hidden="true" />
          {{ linkLabel() }}
        </a>
      </mat-card-actions>
    </mat-card>
  `,
  styles: `
    /* The card, not this element, is the item of the Overview's grid. */
    :host {
      display: contents;
    }
    mat-card-actions mat-icon {
      margin-right: 6px;
    }
    .overview-list {
      margin: 0;
      padding: 0;
      list-style: none;

      li {
        display: flex;
        justify-content: space-between;
        gap: 12px;
        padding: 6px 0;
        border-bottom: 1px solid var(--mat-sys-outline-variant);
      }

      li:last-child {
        border-bottom: none;
      }
    }
  `,
})
export class OverviewListCardComponent<T> {
  readonly heading = input.required<string>();
  readonly testId = input.required<string>();
  /** What loads the list: its progress, its error and the retry. */
  readonly resource = input.required<Pick<PageResource<unknown>, 'isLoading' | 'error' | 'reload'>>();
  readonly loadingLabel = input.required<string>();
  /** The items, or null until they have loaded. */
  readonly items = input.required<readonly T[] | null | undefined>();
  /** What identifies an item in the list (its name, its id). */
  readonly key = input.required<(item: T) => string>();
  readonly emptyText = input.required<string>();
  /** The page with them all, relative to the Overview's route. */
  readonly link = input.required<string>();
  readonly linkIcon = input.required<string>();
  readonly linkLabel = input.required<string>();

  readonly itemTemplate = contentChild.required(TemplateRef);
}
