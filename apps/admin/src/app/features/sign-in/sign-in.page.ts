import { HttpClient } from '@angular/common/http';
import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import type { SsoSignInPageProvider } from '@sc/contracts';
import { pageResource } from '../../core/page-resource';
import { PublicPageComponent } from '../../shared/public-page.component';
import { loginHref, signInErrorMessage } from './sign-in-rules';

type LoadState = 'loading' | 'ready' | 'unavailable' | 'failed';

/**
 * The organization's public sign-in page: one button per enabled provider. An unknown organization and one
 * without providers look the same, so the page does not reveal which organizations exist.
 */
@Component({
  selector: 'sc-sign-in-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, MatCardModule, MatIconModule, PublicPageComponent],
  template: `
    <sc-public-page title="Sign in" [width]="440" [busy]="state() === 'loading'" busyLabel="Loading sign-in options">
      <mat-card-subtitle>Organization <code>{{ orgId() }}</code></mat-card-subtitle>
      <mat-card-content>
        @if (errorMessage(); as message) {
          <div class="error-banner" role="alert" data-testid="sign-in-error">
            <mat-icon svgIcon="error" aria-hidden="true" />
            <div>{{ message }}</div>
          </div>
        }
        @switch (state()) {
          @case ('ready') {
            <p class="muted">Continue with your organization's identity provider.</p>
            <div class="providers">
              @for (provider of providers(); track provider.slug) {
                @if (provider.href) {
                  <a mat-flat-button class="provider" [href]="provider.href" [attr.data-testid]="'sign-in-' + provider.slug">
                    Sign in with {{ provider.displayName }}
                  </a>
                }
              }
            </div>
            @if (requireSso()) {
              <p class="muted fallback" data-testid="sign-in-sso-required">
                This organization requires single sign-on: sign in with one of its identity providers above. If that
                fails for you, contact your identity provider's administrator.
              </p>
            } @else {
              <p class="muted fallback" data-testid="sign-in-fallback">
                Cannot get in this way? If single sign-on fails for you, ask an owner of this organization for a one-time
                sign-in link.
              </p>
            }
          }
          @case ('unavailable') {
            <p data-testid="sign-in-unavailable">
              Single sign-on is not available at this address. Check the link with your administrator, or ask an
              organization owner for a one-time sign-in link.
            </p>
          }
          @case ('failed') {
            <p role="alert">{{ loadError() }}</p>
            <button mat-stroked-button type="button" (click)="available.reload()">Try again</button>
          }
        }
      </mat-card-content>
    </sc-public-page>
  `,
  styles: `
    .providers {
      display: flex;
      flex-direction: column;
      gap: 12px;
      margin: 16px 0 8px;
    }
    .provider {
      width: 100%;
    }
    .fallback {
      margin-top: 16px;
    }
  `,
})
export class SignInPage {
  private readonly http = inject(HttpClient);

  /** Bound from the route and the query string. */
  readonly orgId = input.required<string>();
  readonly redirect = input<string | undefined>();
  readonly error = input<string | undefined>();

  protected readonly available = pageResource({
    params: this.orgId,
    load: (orgId) => this.http.get<SsoSignInPageProvider[]>(`/api/v1/auth/orgs/${encodeURIComponent(orgId)}/providers`),
    initial: [] as SsoSignInPageProvider[],
  });
  /** An organization without SSO (404) or without enabled providers is "unavailable", not a failure. */
  readonly state = computed<LoadState>(() => {
    if (this.available.isLoading()) return 'loading';
    const error = this.available.error();
    if (error) return error.status === 404 ? 'unavailable' : 'failed';
    return this.available.value().length > 0 ? 'ready' : 'unavailable';
  });
  /** Sign-in links work only for owners' break-glass then, so the page does not suggest asking for one. */
  readonly requireSso = computed(() => this.available.value().some((provider) => provider.requireSso));
  readonly loadError = computed(() => this.available.error()?.message ?? '');

  readonly errorMessage = computed(() => signInErrorMessage(this.error()));
  readonly providers = computed(() =>
    this.available.value().map((provider) => ({
      slug: provider.slug,
      displayName: provider.displayName,
      href: loginHref(provider.loginUrl, this.redirect() ?? null, this.orgId()),
    })),
  );
}
