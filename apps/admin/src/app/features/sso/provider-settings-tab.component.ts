import { ChangeDetectionStrategy, Component, computed, inject, input, model, output, signal } from '@angular/core';
import { toObservable, toSignal } from '@angular/core/rxjs-interop';
import { FormControl } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatButtonToggleModule } from '@angular/material/button-toggle';
import { MatCheckboxModule } from '@angular/material/checkbox';
import { MatIconModule } from '@angular/material/icon';
import { MatSelectModule } from '@angular/material/select';
import { MatSlideToggleModule } from '@angular/material/slide-toggle';
import { RouterLink } from '@angular/router';
import {
  ENTRA_CLOUDS,
  ENTRA_CLOUD_IDS,
  SSO_LIMITS,
  SSO_PROVIDER_TYPES,
  SSO_ROLES,
  type SsoDiscoveryResponse,
  type SsoProviderResponse,
} from '@sc/contracts';
import { map, startWith, switchMap } from 'rxjs';
import type { ApiError } from '../../core/api-error';
import { mutation } from '../../core/mutation';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { SectionCardComponent } from '../../shared/section-card.component';
import { ClaimRulesEditorComponent } from './claim-rules-editor.component';
import { TYPE_LABELS, discoveryPatch, githubScopeHint, previewEndpoints, usesField, type TypeField } from './provider-form';
import { claimRuleGroup, moveClaimRule, newClaimRule, type ProviderFormGroup } from './provider-form-group';
import { SsoApi } from './sso.api';
import { FORM_FIELDS } from '../../shared/form-fields';

/**
 * The Settings tab of the provider editor: the form (type, endpoints with discovery import, client, claims,
 * access, claim rules). The page owns the form group and saving; this tab edits it.
 */
@Component({
  selector: 'sc-provider-settings-tab',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    FORM_FIELDS,
    RouterLink,
    MatButtonModule,
    MatButtonToggleModule,
    MatCheckboxModule,
    MatIconModule,
    MatSelectModule,
    MatSlideToggleModule,
    ClaimRulesEditorComponent,
    ErrorBannerComponent,
    SectionCardComponent,
  ],
  templateUrl: './provider-settings-tab.component.html',
  styleUrl: './provider-settings-tab.component.scss',
})
export class ProviderSettingsTabComponent {
  private readonly api = inject(SsoApi);

  readonly form = input.required<ProviderFormGroup>();
  readonly orgId = input.required<string>();
  readonly mode = input.required<'create' | 'edit'>();
  /** The saved provider while editing (whether a client secret is set). */
  readonly provider = input<SsoProviderResponse | null>(null);
  readonly saving = input(false);
  readonly saveError = input<ApiError | null>(null);
  /** Editing only: the person chose to type a new client secret (the page resets it after loading or saving). */
  readonly replacingSecret = model(false);
  readonly save = output<void>();

  readonly discoveryIssuer = new FormControl('', { nonNullable: true });
  private readonly discoveryImport = mutation({ report: 'inline' });
  readonly discovering = this.discoveryImport.pending;
  readonly discoveryError = this.discoveryImport.error;
  readonly discovery = signal<SsoDiscoveryResponse | null>(null);

  /** The raw value (disabled slug included) as a signal, so previews and visibility follow typing. */
  private readonly formValue = toSignal(
    toObservable(this.form).pipe(switchMap((form) => form.valueChanges.pipe(startWith(null), map(() => form.getRawValue())))),
  );

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

  private readonly value = computed(() => this.formValue() ?? this.form().getRawValue());
  readonly type = computed(() => this.value().type);
  readonly preview = computed(() => previewEndpoints(this.value()));
  readonly githubHint = computed(() => githubScopeHint(this.value()));

  uses(field: TypeField): boolean {
    return usesField(this.type(), field);
  }

  addRule(): void {
    this.form().controls.claimRules.push(claimRuleGroup(newClaimRule()));
    this.form().controls.claimRules.markAsDirty();
  }

  removeRule(index: number): void {
    this.form().controls.claimRules.removeAt(index);
    this.form().controls.claimRules.markAsDirty();
  }

  moveRule(move: { from: number; to: number }): void {
    moveClaimRule(this.form().controls.claimRules, move.from, move.to);
  }

  replaceSecret(): void {
    this.replacingSecret.set(true);
  }

  keepSecret(): void {
    this.form().controls.clientSecret.setValue('');
    this.replacingSecret.set(false);
  }

  async importDiscovery(): Promise<void> {
    const issuer = this.discoveryIssuer.value.trim();
    if (issuer === '') return;
    this.discovery.set(null);
    await this.discoveryImport.run(true, () => this.api.discover(this.orgId(), issuer), {
      done: (discovery) => {
        const form = this.form();
        form.patchValue(discoveryPatch(discovery));
        form.markAsDirty();
        this.discovery.set(discovery);
      },
    });
  }
}
