import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { SessionService } from '../../core/session.service';
import { PublicPageComponent } from '../../shared/public-page.component';

/** Where people land after signing out, when their session expired, or when they open a page without one. */
@Component({
  selector: 'sc-signed-out-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, MatCardModule, MatIconModule, RouterLink, PublicPageComponent],
  template: `
    <sc-public-page [title]="title()" [width]="520">
      <mat-card-content>
        <p>{{ explanation() }}</p>
        <p class="muted">
          To sign in, use your organization's single sign-on link, or ask an organization owner for a one-time
          sign-in link.
        </p>
      </mat-card-content>
      @if (lastOrganization(); as org) {
        <mat-card-actions align="end">
          <a mat-flat-button [routerLink]="['/orgs', org.id, 'sign-in']" data-testid="sign-in-again">Sign in to {{ org.name }}</a>
        </mat-card-actions>
      }
    </sc-public-page>
  `,
})
export class SignedOutPage {
  readonly lastOrganization = inject(SessionService).lastOrganization;
  /** Bound from the query string by the router. */
  readonly reason = input<string | undefined>();

  readonly title = computed(() => (this.reason() === 'expired' ? 'Your session has ended' : 'You are signed out'));
  readonly explanation = computed(() => {
    if (this.reason() === 'expired') return 'For your security, sessions end after a period of inactivity.';
    return 'You have been signed out of System Context.';
  });
}
