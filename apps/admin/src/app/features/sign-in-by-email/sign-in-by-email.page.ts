import { HttpClient } from '@angular/common/http';
import { DOCUMENT } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { FormControl, Validators } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import type { SignInByEmailResponse, SignInDestination } from '@sc/contracts';
import { firstValueFrom } from 'rxjs';
import { toApiError } from '../../core/api-error';
import { FORM_FIELDS } from '../../shared/form-fields';
import { PublicPageComponent } from '../../shared/public-page.component';
import { loginHref } from '../sign-in/sign-in-rules';

/** One organization and its provider buttons, as the page shows them. */
interface Choice {
  organizationId: string;
  organizationName: string;
  providers: { slug: string; displayName: string; href: string }[];
}

/**
 * `/sign-in`: asks for a work email and sends the person to the sign-in of the organization that verified its domain —
 * straight to the provider when exactly one organization with one provider matches, else a choice. The server's answer
 * depends only on the domain, so the page says the same for an address with an account and one without.
 */
@Component({
  selector: 'sc-sign-in-by-email-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [FORM_FIELDS, MatButtonModule, MatCardModule, PublicPageComponent],
  template: `
    <sc-public-page title="Sign in" [width]="460" [busy]="busy()" busyLabel="Finding your organization">
      <mat-card-content>
        <form (submit)="submit($event)">
          <mat-form-field class="full">
            <mat-label>Work email</mat-label>
            <input matInput type="email" [formControl]="email" autocomplete="email" data-testid="sign-in-email" />
            <sc-field-errors matError [control]="email" [messages]="{ required: 'Enter your work email address.', email: 'Enter an email address.' }" />
          </mat-form-field>
          <button mat-flat-button type="submit" class="full" [disabled]="busy()" data-testid="sign-in-continue">Continue</button>
        </form>
        @if (error(); as message) {
          <p role="alert" class="error">{{ message }}</p>
        }
        @if (choices(); as list) {
          @if (list.length === 0) {
            <p data-testid="sign-in-no-destination">
              No organization signs in with addresses at this domain here. Use the sign-in address your administrator gave
              you (it looks like <span class="mono">/orgs/&lt;organization&gt;/sign-in</span>), or ask them for a sign-in link.
            </p>
          } @else {
            <p class="muted">Choose where to sign in:</p>
            @for (choice of list; track choice.organizationId) {
              <div class="choice" [attr.data-testid]="'sign-in-choice-' + choice.organizationId">
                <strong>{{ choice.organizationName }}</strong>
                @for (provider of choice.providers; track provider.slug) {
                  <a mat-stroked-button [href]="provider.href">Sign in with {{ provider.displayName }}</a>
                }
              </div>
            }
          }
        }
      </mat-card-content>
    </sc-public-page>
  `,
  styles: `
    .full {
      width: 100%;
    }
    .choice {
      display: flex;
      flex-direction: column;
      gap: 8px;
      margin: 12px 0;
    }
    .error {
      color: var(--mat-sys-error);
    }
  `,
})
export class SignInByEmailPage {
  private readonly http = inject(HttpClient);
  private readonly location = inject(DOCUMENT).location;

  readonly email = new FormControl('', { nonNullable: true, validators: [Validators.required, Validators.email] });
  readonly busy = signal(false);
  readonly error = signal<string | null>(null);
  private readonly destinations = signal<SignInDestination[] | null>(null);
  readonly choices = computed<Choice[] | null>(() => {
    const destinations = this.destinations();
    return destinations === null ? null : choicesOf(destinations);
  });

  async submit(event: Event): Promise<void> {
    event.preventDefault();
    if (this.email.invalid) {
      this.email.markAsTouched();
      return;
    }
    this.busy.set(true);
    this.error.set(null);
    try {
      const answer = await firstValueFrom(this.http.post<SignInByEmailResponse>('/api/v1/auth/sign-in-by-email', { email: this.email.value.trim() }));
      const choices = choicesOf(answer.destinations);
      const only = choices.length === 1 && choices[0].providers.length === 1 ? choices[0].providers[0] : null;
      if (only) {
        this.location.assign(only.href);
        return;
      }
      this.destinations.set(answer.destinations);
    } catch (failure: unknown) {
      this.error.set(toApiError(failure).message);
    } finally {
      this.busy.set(false);
    }
  }
}

/** The destinations with the provider links the sign-in page would build (only relative API URLs are followed). */
export function choicesOf(destinations: SignInDestination[]): Choice[] {
  return destinations
    .map((destination) => ({
      organizationId: destination.organizationId,
      organizationName: destination.organizationName,
      providers: destination.providers.flatMap((provider) => {
        const href = loginHref(provider.loginUrl, null, destination.organizationId);
        return href ? [{ slug: provider.slug, displayName: provider.displayName, href }] : [];
      }),
    }))
    .filter((choice) => choice.providers.length > 0);
}
