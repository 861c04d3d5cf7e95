import { ChangeDetectionStrategy, Component, ElementRef, Injector, afterNextRender, computed, inject, input, signal, type Signal } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { MatTabsModule } from '@angular/material/tabs';
import { Router, RouterLink } from '@angular/router';
import { SSO_SLUG_PATTERN, SSO_TEST_VALID_HOURS, SsoErrorCode, samlServiceProviderUrls, ssoCallbackUrl, type SsoProviderResponse, type SsoPublicUrlResponse } from '@sc/contracts';
import { tap } from 'rxjs';
import type { ApiError } from '../../core/api-error';
import { mutation } from '../../core/mutation';
import { pageResource } from '../../core/page-resource';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { confirmation } from '../../shared/confirm-dialog.component';
import { formValueFromProvider, toCreateRequest, toUpdateRequest } from './provider-form';
import { applyServerErrors, createProviderForm, editProviderForm, setProviderForm } from './provider-form-group';
import { ProviderConfigurationTabComponent } from './provider-configuration-tab.component';
import { ProviderSettingsTabComponent } from './provider-settings-tab.component';
import { SsoApi } from './sso.api';

const CONFIGURATION_TAB = 1;

/**
 * Create (no slug in the route) or edit one SSO provider; the Configuration tab opens once the slug is valid (its
 * callback URL), and has the endpoints and the test sign-in once the provider is saved.
 * The page loads the provider, owns the form and saves it; each tab is its own component.
 */
@Component({
  selector: 'sc-provider-editor-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    RouterLink,
    MatButtonModule,
    MatIconModule,
    MatProgressBarModule,
    MatTabsModule,
    ErrorBannerComponent,
    ProviderConfigurationTabComponent,
    ProviderSettingsTabComponent,
  ],
  templateUrl: './provider-editor.page.html',
  styleUrl: './provider-editor.page.scss',
})
export class ProviderEditorPage {
  private readonly api = inject(SsoApi);
  private readonly router = inject(Router);
  private readonly host = inject<ElementRef<HTMLElement>>(ElementRef);
  private readonly injector = inject(Injector);

  /** Bound from the route: the organization, and the provider's slug when editing. */
  readonly orgId = input.required<string>();
  readonly slug = input<string | undefined>();
  /** `?tab=configuration` opens the Configuration tab; `?created=1` greets a provider just created. */
  readonly tab = input<string | undefined>();
  readonly created = input<string | undefined>();

  readonly form = createProviderForm();
  readonly mode = computed(() => (this.slug() ? 'edit' : 'create'));
  /** Loaded afresh whenever the router reuses the page for another :orgId or :slug; idle while creating. */
  readonly loaded = pageResource({
    params: () => {
      const slug = this.slug();
      return slug ? { orgId: this.orgId(), slug } : undefined;
    },
    load: ({ orgId, slug }) => {
      if (this.tab() === 'configuration') this.selectedTab.set(CONFIGURATION_TAB);
      editProviderForm(this.form);
      return this.api.get(orgId, slug).pipe(tap((provider) => this.fillForm(provider)));
    },
    initial: null as SsoProviderResponse | null,
  });
  readonly provider = this.loaded.value;
  /** Only while creating: the address the callback URL starts with, so the Configuration tab can show it early. */
  private readonly publicUrl = pageResource({
    params: () => (this.slug() ? undefined : { orgId: this.orgId() }),
    load: ({ orgId }) => this.api.publicUrl(orgId),
    initial: null as SsoPublicUrlResponse | null,
  });
  private readonly slugValue = toSignal(this.form.controls.slug.valueChanges, { initialValue: this.form.controls.slug.value });
  /**
   * What to register at the identity provider: the saved provider's, or while creating the one a valid slug will
   * have, as soon as it is typed (the provider's client is often registered before its ID and secret exist).
   */
  readonly callbackUrl = this.savedOrPlanned(
    (provider) => provider.callbackUrl,
    () => this.mode() === 'create',
    (publicUrl, slug) => ssoCallbackUrl(publicUrl, this.orgId(), slug),
  );
  private readonly typeValue = toSignal(this.form.controls.type.valueChanges, { initialValue: this.form.controls.type.value });
  /** SAML: what the IdP administrator registers (entity ID, ACS URL, metadata link), saved or as the slug will give. */
  readonly samlUrls = this.savedOrPlanned(
    (provider) => provider.saml,
    () => this.typeValue() === 'saml',
    (publicUrl, slug) => samlServiceProviderUrls(publicUrl, this.orgId(), slug),
  );
  private readonly saveAction = mutation({ report: 'inline' });
  private readonly confirm = confirmation();
  readonly saving = this.saveAction.pending;
  readonly saveError = this.saveAction.error;
  readonly replacingSecret = signal(false);
  readonly selectedTab = signal(0);


  readonly title = computed(() => {
    const provider = this.provider();
    return provider ? provider.displayName : 'New SSO provider';
  });

  /** After saving: the answer is the provider now, without another round trip. */
  private show(provider: SsoProviderResponse): void {
    this.loaded.set(provider);
    this.fillForm(provider);
  }

  private fillForm(provider: SsoProviderResponse): void {
    setProviderForm(this.form, formValueFromProvider(provider));
    this.replacingSecret.set(false);
  }

  async save(confirmUntested = false): Promise<void> {
    this.saveError.set(null);
    if (this.form.invalid) {
      this.form.markAllAsTouched();
      this.revealFirstProblem();
      return;
    }
    const value = this.form.getRawValue();
    let untested = false;
    const failed = (error: ApiError): void => {
      // Enabling a provider without a recent passed test: asked below, not a field problem.
      if (error.code === SsoErrorCode.ProviderNotTested) {
        untested = true;
        return;
      }
      applyServerErrors(this.form, error.details);
      this.revealFirstProblem();
    };
    const confirmed = confirmUntested ? { confirmUntested: true } : {};
    if (this.mode() === 'create') {
      await this.saveAction.run(true, () => this.api.create(this.orgId(), { ...toCreateRequest(value), ...confirmed }), {
        done: async (created) => {
          this.form.markAsPristine();
          await this.router.navigate(['/orgs', this.orgId(), 'settings', 'sso', created.slug], {
            queryParams: { tab: 'configuration', created: '1' },
          });
        },
        failed,
      });
    } else {
      await this.saveAction.run(true, () => this.api.update(this.orgId(), this.slug() as string, { ...toUpdateRequest(value), ...confirmed }), {
        success: (saved) => `“${saved.displayName}” saved.`,
        done: (saved) => this.show(saved),
        failed,
      });
    }
    if (untested) {
      this.saveError.set(null);
      if (await this.confirm(enableUntestedConfirmation(value.displayName.trim() || value.slug))) await this.save(true);
    }
  }

  /** The Save button is at the bottom of a long form: bring the first problem into view. */
  private revealFirstProblem(): void {
    afterNextRender(
      () => {
        const problem = this.host.nativeElement.querySelector('.mat-form-field-invalid, .error-banner');
        problem?.scrollIntoView?.({ block: 'center' });
      },
      { injector: this.injector },
    );
  }

  /**
   * A value of the saved provider, or before it is saved the one its slug will give: only once `applies`, the public
   * URL is known and the slug typed is valid (null otherwise).
   */
  private savedOrPlanned<T>(saved: (provider: SsoProviderResponse) => T, applies: () => boolean, planned: (publicUrl: string, slug: string) => T): Signal<T | null> {
    return computed(() => {
      const provider = this.provider();
      if (provider) return saved(provider);
      const publicUrl = this.publicUrl.value()?.publicUrl;
      const slug = this.slugValue();
      return applies() && publicUrl && SSO_SLUG_PATTERN.test(slug) ? planned(publicUrl, slug) : null;
    });
  }
}

/** "Enable without a test": what an untested provider can do to the people who rely on it. */
export function enableUntestedConfirmation(name: string) {
  return {
    title: `Enable “${name}” without a test?`,
    message:
      `“${name}” has not passed a test sign-in in the last ${SSO_TEST_VALID_HOURS} hours. If a setting is wrong (client ID or secret, ` +
      'endpoints, callback URL, allowed domains), nobody can sign in through it: people who only use SSO are locked out, and so is ' +
      'anyone who signs out, until an owner fixes the provider or gives them a sign-in link. Run Test sign-in on the Configuration tab first to be sure.',
    confirmLabel: 'Enable without a test',
    destructive: true,
  };
}
