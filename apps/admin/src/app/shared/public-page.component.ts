import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { MatCardModule } from '@angular/material/card';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { BrandComponent } from './brand.component';

/**
 * The layout of the pages outside the organization shell (sign-in, sign-in link, signed out, setup, not
 * found): the product mark over one centred card with the page's title. The page projects its
 * <mat-card-content> and <mat-card-actions>, and optionally a <mat-card-subtitle> under the title.
 */
@Component({
  selector: 'sc-public-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatCardModule, MatProgressBarModule, BrandComponent],
  template: `
    <main class="center">
      <sc-brand />
      <mat-card appearance="outlined" class="card" [style.max-width.px]="width()">
        @if (busy()) {
          <mat-progress-bar mode="indeterminate" [attr.aria-label]="busyLabel()" />
        }
        <mat-card-header>
          <mat-card-title><h1>{{ title() }}</h1></mat-card-title>
          <ng-content select="mat-card-subtitle" ngProjectAs="mat-card-subtitle" />
        </mat-card-header>
        <ng-content />
      </mat-card>
    </main>
  `,
  styles: `
    .center {
      display: flex;
      flex-direction: column;
      align-items: center;
      padding: 48px 16px;
    }
    .card {
      width: 100%;
      overflow: hidden;
    }
    h1 {
      font: var(--mat-sys-headline-small);
      margin: 0 0 8px;
    }
    mat-card-header:has(mat-card-subtitle) h1 {
      margin-bottom: 4px;
    }
  `,
})
export class PublicPageComponent {
  readonly title = input.required<string>();
  /** The card's largest width in pixels: narrow for a question, wide for a form. */
  readonly width = input(480);
  /** Shows an indeterminate progress bar on top of the card. */
  readonly busy = input(false);
  readonly busyLabel = input('Loading');
}
