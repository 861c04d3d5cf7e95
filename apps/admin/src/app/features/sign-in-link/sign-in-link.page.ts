import { HttpClient } from '@angular/common/http';
import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, DOCUMENT, computed, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { ActivatedRoute } from '@angular/router';
import { AuthErrorCode, type RedeemSignInLinkRequest, type RedeemSignInLinkResponse, type SignInLinkPreviewResponse } from '@sc/contracts';
import { firstValueFrom } from 'rxjs';
import { ApiError, ClientErrorCode, toApiError } from '../../core/api-error';
import { pageResource } from '../../core/page-resource';
import { PublicPageComponent } from '../../shared/public-page.component';

/** Only an organization home is a valid destination: the page never follows an arbitrary redirect. */
const ORGANIZATION_HOME = /^\/orgs\/[a-z0-9][a-z0-9-]*$/;

/**
 * Landing page of a break-glass sign-in link (`/sign-in-link#<token>`). The token sits in the fragment, which
 * browsers never send to a server, and the link is only used up when the person clicks "Sign in": link
 * previews in chat and mail fetch the page but never press the button.
 */
@Component({
  selector: 'sc-sign-in-link-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [DatePipe, MatButtonModule, MatCardModule, MatIconModule, PublicPageComponent],
  template: `
    <sc-public-page title="Sign in with a one-time link" [busy]="busy() || preview.isLoading()" busyLabel="Signing in">
      <mat-card-content>
        @if (error(); as err) {
          <div class="error-banner" role="alert" data-testid="sign-in-link-error">
            <mat-icon svgIcon="error" aria-hidden="true" />
            <div>
              <div>{{ errorText() }}</div>
              @if (whatToDo(); as advice) {
                <div>{{ advice }}</div>
              }
            </div>
          </div>
        }
        @if (!token()) {
          <p role="alert" data-testid="sign-in-link-missing">
            This address does not contain a sign-in link. Open the complete link you were sent, or ask an owner of
            your organization for a new one-time sign-in link.
          </p>
        } @else if (!error()) {
          @if (preview.value(); as link) {
            <p data-testid="sign-in-link-question">
              Sign in to <strong>{{ link.organization.name }}</strong> as <strong>{{ link.email }}</strong>?
            </p>
            <p class="muted">
              An organization owner created this link so you can sign in without single sign-on. It works once and
              expires at {{ link.expiresAt | date: 'shortTime' }}.
            </p>
          }
        }
      </mat-card-content>
      @if (token()) {
        <mat-card-actions align="end">
          @if (error() && !askForNewLink()) {
            <button mat-stroked-button type="button" (click)="retry()">Try again</button>
          } @else if (!error() && preview.value()) {
            <button mat-flat-button type="button" data-testid="sign-in-link-confirm" [disabled]="busy()" (click)="redeem()">Sign in</button>
          }
        </mat-card-actions>
      }
    </sc-public-page>
  `,
})
export class SignInLinkPage {
  private readonly http = inject(HttpClient);
  private readonly document = inject(DOCUMENT);

  readonly token = signal(inject(ActivatedRoute).snapshot.fragment ?? '');
  readonly busy = signal(false);
  /** Shown before the button: the link is looked at, not used up. */
  readonly preview = pageResource<RedeemSignInLinkRequest, SignInLinkPreviewResponse | null>({
    params: () => (this.token() ? { token: this.token() } : undefined),
    load: (body) => this.http.post<SignInLinkPreviewResponse>('/api/v1/auth/sign-in-link/preview', body),
    initial: null,
  });
  private readonly redeemError = signal<ApiError | null>(null);
  readonly error = computed(() => this.redeemError() ?? this.preview.error());
  /** Used, expired, unknown or refused links cannot be retried: the only way forward is an owner. */
  readonly askForNewLink = computed(() => {
    const code = this.error()?.code;
    return code === AuthErrorCode.SignInLinkInvalid || code === AuthErrorCode.AccountDisabled;
  });
  /**
   * The page's own words for a link that cannot work: the server's message for it already ends with "ask an owner
   * for a new one" (API clients read it too), and the page's advice under it said so a second time.
   */
  readonly errorText = computed(() => (this.error()?.code === AuthErrorCode.SignInLinkInvalid ? 'This sign-in link is invalid, expired or was already used.' : (this.error()?.message ?? '')));
  readonly whatToDo = computed(() => {
    switch (this.error()?.code) {
      case AuthErrorCode.SignInLinkInvalid:
        return 'Ask an owner of your organization for a new one-time sign-in link.';
      case AuthErrorCode.AccountDisabled:
        // A new link would be refused too: the membership itself has to be turned back on.
        return 'Ask an owner of your organization to re-enable your membership.';
      default:
        return undefined;
    }
  });

  retry(): void {
    this.redeemError.set(null);
    this.preview.reload();
  }

  async redeem(): Promise<void> {
    if (this.busy()) return;
    this.busy.set(true);
    this.redeemError.set(null);
    try {
      const body: RedeemSignInLinkRequest = { token: this.token() };
      const answer = await firstValueFrom(this.http.post<RedeemSignInLinkResponse>('/api/v1/auth/sign-in-link/redeem', body));
      if (!ORGANIZATION_HOME.test(answer.redirect)) throw new ApiError(0, ClientErrorCode.UnexpectedRedirect, 'The server answered with an unexpected destination.');
      // A full page load, so the app starts over with the new session instead of any state from an earlier one.
      this.document.location.assign(answer.redirect);
    } catch (error) {
      this.redeemError.set(toApiError(error));
      this.busy.set(false);
    }
  }
}
