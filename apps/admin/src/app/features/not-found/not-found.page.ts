import { ChangeDetectionStrategy, Component } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { RouterLink } from '@angular/router';

@Component({
  selector: 'sc-not-found-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, RouterLink],
  template: `
    <main class="page empty-state">
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <a mat-flat-button routerLink="/">Go to the start page</a>
    </main>
  `,
})
export class NotFoundPage {}
