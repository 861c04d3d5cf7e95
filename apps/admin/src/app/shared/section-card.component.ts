import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { MatCardModule } from '@angular/material/card';

/** One titled card of a long form or settings page; the content is projected into the card's body. */
@Component({
  selector: 'sc-section-card',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatCardModule],
  template: `
    <mat-card appearance="outlined" class="section">
      <mat-card-header><mat-card-title><h2>{{ heading() }}</h2></mat-card-title></mat-card-header>
      <mat-card-content><ng-content /></mat-card-content>
    </mat-card>
  `,
  styles: `
    .section {
      margin-bottom: 16px;
    }
    h2 {
      font: var(--mat-sys-title-medium);
      margin: 0 0 8px;
    }
  `,
})
export class SectionCardComponent {
  readonly heading = input.required<string>();
}
