import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { MatCardModule } from '@angular/material/card';

/**
 * One titled card of a page (a form, a group of settings): the content is projected into the card's body. Spacing
 * and the title's size are the global `.section` and `mat-card-title h2` styles every card of the admin shares.
 */
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
})
export class SectionCardComponent {
  readonly heading = input.required<string>();
}
