import { ChangeDetectionStrategy, Component } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { RouterLink } from '@angular/router';
import { PublicPageComponent } from '../../shared/public-page.component';

@Component({
  selector: 'sc-not-found-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, MatCardModule, RouterLink, PublicPageComponent],
  template: `
    <sc-public-page title="Page not found">
      <mat-card-content>
        <p>There is nothing at this address.</p>
      </mat-card-content>
      <mat-card-actions align="end">
        <a mat-flat-button routerLink="/">Go to the start page</a>
      </mat-card-actions>
    </sc-public-page>
  `,
})
export class NotFoundPage {}
