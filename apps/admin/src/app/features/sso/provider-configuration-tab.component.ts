import { DOCUMENT } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import type { SsoProviderResponse, SsoSamlDetails } from '@sc/contracts';
import { firstValueFrom } from 'rxjs';
import { ApiError, toApiError } from '../../core/api-error';
import { CopyFieldComponent } from '../../shared/copy-field.component';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { SectionCardComponent } from '../../shared/section-card.component';
import { callbackUrlWarning } from './provider-form';
import { SsoApi } from './sso.api';

/**
 * The Configuration tab: the callback URL to register (while creating, the one the typed slug gives), and for a saved
 * provider the effective endpoints and a test sign-in.
 */
@Component({
  selector: 'sc-provider-configuration-tab',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, MatIconModule, CopyFieldComponent, ErrorBannerComponent, SectionCardComponent],
  template: `
    @let p = provider();
    <div class="editor">
      @if (created()) {
        <div class="created-banner" role="status" data-testid="provider-created">
          <mat-icon svgIcon="check_circle" aria-hidden="true" />
          <div>
            <strong>Provider created.</strong> Register the {{ saml() ? 'service provider values' : 'callback URL' }} below at your
            identity provider, then run a test sign-in.
          </div>
        </div>
      }
      @if (saml(); as sp) {
      <sc-section-card heading="Service provider (SAML)">
      <p>
        Register this service at the identity provider with these values, or give it the metadata link. Responses must
        be signed (RSA-SHA256 or better) and are accepted only at this ACS URL, for this entity ID.
      </p>
      <p class="muted">Entity ID (audience)</p>
      <sc-copy-field [value]="sp.spEntityId" label="entity ID" testId="saml-entity-id" copyTestId="saml-entity-id-copy" />
      <p class="muted">ACS URL (reply URL, HTTP-POST)</p>
      <sc-copy-field [value]="sp.acsUrl" label="ACS URL" testId="saml-acs-url" copyTestId="saml-acs-copy" />
      <p class="muted">Metadata</p>
      <sc-copy-field [value]="sp.metadataUrl" label="metadata URL" testId="saml-metadata-link" copyTestId="saml-metadata-copy" />
      <p><a [href]="sp.metadataUrl" target="_blank" rel="noopener" data-testid="saml-metadata-open">Open the SP metadata</a></p>
      </sc-section-card>
      } @else {
      <sc-section-card heading="Callback URL">
      <p>
        Register exactly this value as the redirect URI of the client at the identity provider. Scheme, host,
        port, organization ID, slug and the absence of a trailing slash must all match.
      </p>
      <sc-copy-field [value]="callbackUrl()" label="callback URL" testId="callback-url" copyTestId="callback-copy" />
      @if (callbackWarning(); as warning) {
        <div class="warning-banner callback-warning" role="note" data-testid="callback-warning">
          <mat-icon svgIcon="warning" aria-hidden="true" />
          <div>{{ warning }}</div>
        </div>
      }
      </sc-section-card>
      }

      @if (p) {
      <sc-section-card heading="Effective endpoints">
      @if (p.saml; as idp) {
      <dl class="key-values endpoints" data-testid="saml-idp">
        <dt>IdP entity ID</dt>
        <dd class="mono">{{ idp.idpEntityId ?? '—' }}</dd>
        <dt>Single sign-on</dt>
        <dd class="mono">{{ idp.idpSsoUrl ?? '—' }}</dd>
        <dt>Signing certificates</dt>
        <dd>{{ idp.idpSigningCertificates }}</dd>
      </dl>
      } @else {
      <dl class="key-values endpoints">
        <dt>Authorization</dt>
        <dd class="mono">{{ p.effectiveEndpoints.authorizationUrl ?? '—' }}</dd>
        <dt>Token</dt>
        <dd class="mono">{{ p.effectiveEndpoints.tokenUrl ?? '—' }}</dd>
        <dt>UserInfo</dt>
        <dd class="mono">{{ p.effectiveEndpoints.userinfoUrl ?? '—' }}</dd>
        <dt>JWKS</dt>
        <dd class="mono">{{ p.effectiveEndpoints.jwksUri ?? 'none — ID-token signatures are not verified' }}</dd>
        <dt>Issuer</dt>
        <dd class="mono">{{ p.effectiveEndpoints.issuer ?? '—' }}</dd>
      </dl>
      }
      @for (warning of serverWarnings(); track warning) {
        <div class="warning-banner" role="note">
          <mat-icon svgIcon="warning" aria-hidden="true" />
          <div>{{ warning }}</div>
        </div>
      }
      </sc-section-card>

      <sc-section-card heading="Test sign-in">
      <p>
        Signs in at the provider in this browser and shows a report: the claims received, which claims gave
        email, name and subject, the domain, sign-up and disabled decisions, each claim rule in order and the
        resulting role — or where it failed. Nothing is created: no user, membership or session. It works
        while the provider is disabled, too.
      </p>
      <sc-error-banner [error]="testError()" />
      @if (unsaved()) {
        <p class="muted" data-testid="test-unsaved">Save your changes first: the test uses the saved settings.</p>
      }
      <button mat-flat-button type="button" (click)="startTest()" [disabled]="testing() || unsaved()" data-testid="provider-test">
        <mat-icon svgIcon="play_arrow" aria-hidden="true" />
        {{ testing() ? 'Opening the provider…' : 'Test sign-in' }}
      </button>
      </sc-section-card>
      } @else {
        <p class="muted" data-testid="configuration-after-save">The effective endpoints and the test sign-in appear here once the provider is saved.</p>
      }
    </div>
  `,
  styleUrl: './provider-configuration-tab.component.scss',
})
export class ProviderConfigurationTabComponent {
  private readonly api = inject(SsoApi);
  private readonly document = inject(DOCUMENT);

  readonly orgId = input.required<string>();
  /** The callback URL to register: the saved provider's, or while creating the one its slug will give. */
  readonly callbackUrl = input.required<string>();
  /** SAML providers: the SP values to register instead of a callback URL. */
  readonly saml = input<Pick<SsoSamlDetails, 'spEntityId' | 'acsUrl' | 'metadataUrl'> | null>(null);
  /** Null while the provider is being created. */
  readonly provider = input.required<SsoProviderResponse | null>();
  /** Greets a provider just created (`?created=1`). */
  readonly created = input(false);
  /** The form has changes not saved yet: the test would use the saved settings, so it waits. */
  readonly unsaved = input(false);

  readonly testing = signal(false);
  readonly testError = signal<ApiError | null>(null);

  readonly callbackWarning = computed(() => callbackUrlWarning(this.callbackUrl()));
  /** The server repeats the http-callback advice; the tab shows it once, as the warning. */
  readonly serverWarnings = computed(() => (this.provider()?.warnings ?? []).filter((warning) => !warning.startsWith('The callback URL uses http')));

  /** The test runs in this browser: the provider's login, then the service's report page. */
  async startTest(): Promise<void> {
    this.testing.set(true);
    this.testError.set(null);
    try {
      const provider = this.provider();
      if (!provider) return;
      const started = await firstValueFrom(this.api.startTest(this.orgId(), provider.slug));
      this.document.location.assign(started.authorizationUrl);
    } catch (error: unknown) {
      // Only on failure: after success the page is leaving for the provider, so the button stays busy.
      this.testError.set(toApiError(error));
      this.testing.set(false);
    }
  }
}
