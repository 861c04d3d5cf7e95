import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { BrandComponent } from '../../shared/brand.component';

/** Where people land after signing out, when their session expired, or when they open a page without one. */
@Component({
  selector: 'sc-signed-out-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatCardModule, MatIconModule, BrandComponent],
  template: `
    <main class="center">
      <sc-brand />
      <mat-card appearance="outlined" class="card">
        <mat-card-header>
          <mat-card-title><h1>{{ title() }}</h1></mat-card-title>
        </mat-card-header>
        <mat-card-content>
          <p>{{ explanation() }}</p>
          <p class="muted">
            To sign in, use your organization's single sign-on link, or ask an organization owner for a one-time
            sign-in link.
          </p>
        </mat-card-content>
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
      max-width: 520px;
      width: 100%;
    }
    h1 {
      font: var(--mat-sys-headline-small);
      margin: 0 0 8px;
    }
  `,
})
export class SignedOutPage {
  /** Bound from the query string by the router. */
  readonly reason = input<string | undefined>();
  readonly returnUrl = input<string | undefined>();

  readonly title = computed(() => (this.reason() === 'expired' ? 'Your session has ended' : 'You are signed out'));
  readonly explanation = computed(() => {
    if (this.reason() === 'expired') return 'For your security, sessions end after a period of inactivity.';
    if (this.returnUrl()) return 'The page you opened needs a signed-in session.';
    return 'You have been signed out of System Context.';
  });
}
