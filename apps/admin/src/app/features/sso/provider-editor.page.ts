import { DOCUMENT } from '@angular/common';
import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  Injector,
  afterNextRender,
  computed,
  inject,
  input,
  signal,
} from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { FormControl, ReactiveFormsModule } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatButtonToggleModule } from '@angular/material/button-toggle';
import { MatCardModule } from '@angular/material/card';
import { MatCheckboxModule } from '@angular/material/checkbox';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatIconModule } from '@angular/material/icon';
import { MatInputModule } from '@angular/material/input';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { MatSelectModule } from '@angular/material/select';
import { MatSlideToggleModule } from '@angular/material/slide-toggle';
import { MatTabsModule } from '@angular/material/tabs';
import { MatTooltipModule } from '@angular/material/tooltip';
import { Router, RouterLink } from '@angular/router';
import {
  ENTRA_CLOUDS,
  ENTRA_CLOUD_IDS,
  SSO_LIMITS,
  SSO_PROVIDER_TYPES,
  SSO_ROLES,
  type SsoDiscoveryResponse,
  type SsoProviderResponse,
} from '@sc/contracts';
import { firstValueFrom, map, tap } from 'rxjs';
import { ApiError, toApiError } from '../../core/api-error';
import { pageResource } from '../../core/page-resource';
import { NotifyService } from '../../core/notify.service';
import { CopyFieldComponent } from '../../shared/copy-field.component';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { FieldErrorsComponent } from '../../shared/field-errors.component';
import { ClaimRulesEditorComponent } from './claim-rules-editor.component';
import {
  TYPE_LABELS,
  callbackUrlWarning,
  discoveryPatch,
  formValueFromProvider,
  githubScopeHint,
  previewEndpoints,
  toCreateRequest,
  toUpdateRequest,
  usesField,
  type TypeField,
} from './provider-form';
import {
  applyServerErrors,
  claimRuleGroup,
  createProviderForm,
  editProviderForm,
  moveClaimRule,
  newClaimRule,
  setProviderForm,
} from './provider-form-group';
import { SsoApi } from './sso.api';

const CONFIGURATION_TAB = 1;

/** Create (no slug in the route) or edit one SSO provider; the Configuration tab exists once it is saved. */
@Component({
  selector: 'sc-provider-editor-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    ReactiveFormsModule,
    RouterLink,
    MatButtonModule,
    MatButtonToggleModule,
    MatCardModule,
    MatCheckboxModule,
    MatFormFieldModule,
    MatIconModule,
    MatInputModule,
    MatProgressBarModule,
    MatSelectModule,
    MatSlideToggleModule,
    MatTabsModule,
    MatTooltipModule,
    ClaimRulesEditorComponent,
    CopyFieldComponent,
    ErrorBannerComponent,
    FieldErrorsComponent,
  ],
  templateUrl: './provider-editor.page.html',
  styleUrl: './provider-editor.page.scss',
})
export class ProviderEditorPage {
  private readonly api = inject(SsoApi);
  private readonly router = inject(Router);
  private readonly notify = inject(NotifyService);
  private readonly document = inject(DOCUMENT);
  private readonly host = inject<ElementRef<HTMLElement>>(ElementRef);
  private readonly injector = inject(Injector);

  /** Bound from the route: the organization, and the provider's slug when editing. */
  readonly orgId = input.required<string>();
  readonly slug = input<string | undefined>();
  /** `?tab=configuration` opens the Configuration tab; `?created=1` greets a provider just created. */
  readonly tab = input<string | undefined>();
  readonly created = input<string | undefined>();

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
  readonly saving = signal(false);
  readonly saveError = signal<ApiError | null>(null);
  readonly replacingSecret = signal(false);
  readonly selectedTab = signal(0);
  readonly testing = signal(false);
  readonly testError = signal<ApiError | null>(null);

  readonly discoveryIssuer = new FormControl('', { nonNullable: true });
  readonly discovering = signal(false);
  readonly discovery = signal<SsoDiscoveryResponse | null>(null);
  readonly discoveryError = signal<ApiError | null>(null);

  readonly form = createProviderForm();
  /** The raw value (disabled slug included) as a signal, so previews and visibility follow typing. */
  readonly formValue = toSignal(this.form.valueChanges.pipe(map(() => this.form.getRawValue())), {
    initialValue: this.form.getRawValue(),
  });

  /** The three OAuth endpoints share one field layout; only the wording differs. */
  readonly endpointFields = [
    { name: 'authUrl', label: 'Authorization URL', placeholder: 'https://idp.example.com/authorize', required: 'Enter the authorization URL.' },
    { name: 'tokenUrl', label: 'Token URL', placeholder: 'https://idp.example.com/token', required: 'Enter the token URL.' },
    {
      name: 'userinfoUrl',
      label: 'UserInfo URL',
      placeholder: 'https://idp.example.com/userinfo',
      required: 'Enter the UserInfo URL: every sign-in calls it.',
    },
  ] as const;

  readonly types = SSO_PROVIDER_TYPES;
  readonly typeLabels = TYPE_LABELS;
  readonly roles = SSO_ROLES;
  readonly clouds = ENTRA_CLOUD_IDS.map((id) => ({ id, label: ENTRA_CLOUDS[id].label }));
  readonly maxRules = SSO_LIMITS.claimRules;

  readonly type = computed(() => this.formValue().type);
  readonly preview = computed(() => previewEndpoints(this.formValue()));
  readonly githubHint = computed(() => githubScopeHint(this.formValue()));
  readonly callbackWarning = computed(() => {
    const provider = this.provider();
    return provider ? callbackUrlWarning(provider.callbackUrl) : null;
  });
  /** The server repeats the http-callback advice; the Configuration tab shows it once, as the warning. */
  readonly serverWarnings = computed(() =>
    (this.provider()?.warnings ?? []).filter((warning) => !warning.startsWith('The callback URL uses http')),
  );
  readonly title = computed(() => {
    const provider = this.provider();
    return provider ? provider.displayName : 'New SSO provider';
  });

  uses(field: TypeField): boolean {
    return usesField(this.type(), field);
  }

  /** After saving: the answer is the provider now, without another round trip. */
  private show(provider: SsoProviderResponse): void {
    this.loaded.set(provider);
    this.fillForm(provider);
  }

  private fillForm(provider: SsoProviderResponse): void {
    setProviderForm(this.form, formValueFromProvider(provider));
    this.replacingSecret.set(false);
  }

  addRule(): void {
    this.form.controls.claimRules.push(claimRuleGroup(newClaimRule()));
    this.form.controls.claimRules.markAsDirty();
  }

  removeRule(index: number): void {
    this.form.controls.claimRules.removeAt(index);
    this.form.controls.claimRules.markAsDirty();
  }

  moveRule(move: { from: number; to: number }): void {
    moveClaimRule(this.form.controls.claimRules, move.from, move.to);
  }

  replaceSecret(): void {
    this.replacingSecret.set(true);
  }

  keepSecret(): void {
    this.form.controls.clientSecret.setValue('');
    this.replacingSecret.set(false);
  }

  async importDiscovery(): Promise<void> {
    const issuer = this.discoveryIssuer.value.trim();
    if (issuer === '') return;
    this.discovering.set(true);
    this.discoveryError.set(null);
    this.discovery.set(null);
    try {
      const discovery = await firstValueFrom(this.api.discover(this.orgId(), issuer));
      this.form.patchValue(discoveryPatch(discovery));
      this.form.markAsDirty();
      this.discovery.set(discovery);
    } catch (error: unknown) {
      this.discoveryError.set(toApiError(error));
    } finally {
      this.discovering.set(false);
    }
  }

  async save(): Promise<void> {
    this.saveError.set(null);
    if (this.form.invalid) {
      this.form.markAllAsTouched();
      this.revealFirstProblem();
      return;
    }
    this.saving.set(true);
    const value = this.form.getRawValue();
    try {
      if (this.mode() === 'create') {
        const created = await firstValueFrom(this.api.create(this.orgId(), toCreateRequest(value)));
        this.form.markAsPristine();
        await this.router.navigate(['/orgs', this.orgId(), 'settings', 'sso', created.slug], {
          queryParams: { tab: 'configuration', created: '1' },
        });
        return;
      }
      const saved = await firstValueFrom(this.api.update(this.orgId(), this.slug() as string, toUpdateRequest(value)));
      this.show(saved);
      this.notify.success(`“${saved.displayName}” saved.`);
    } catch (error: unknown) {
      const apiError = toApiError(error);
      this.saveError.set(apiError);
      applyServerErrors(this.form, apiError.details);
      this.revealFirstProblem();
    } finally {
      this.saving.set(false);
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

  /** The test runs in this browser: the provider's login, then the service's report page. */
  async startTest(): Promise<void> {
    this.testing.set(true);
    this.testError.set(null);
    try {
      const started = await firstValueFrom(this.api.startTest(this.orgId(), this.slug() as string));
      this.document.location.assign(started.authorizationUrl);
    } catch (error: unknown) {
      this.testError.set(toApiError(error));
      this.testing.set(false);
    }
  }
}
