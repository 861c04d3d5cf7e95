import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { FormBuilder, ValidationErrors, Validators } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatCheckboxModule } from '@angular/material/checkbox';
import { MatIconModule } from '@angular/material/icon';
import { MatSelectModule } from '@angular/material/select';
import { MatTooltipModule } from '@angular/material/tooltip';
import { FIELD_LIMITS, TOKEN_SCOPES, type ApiTokenResponse, type CreatedApiTokenResponse, type TokenScope } from '@sc/contracts';
import { tap } from 'rxjs';
import { mutation } from '../../core/mutation';
import { SessionService } from '../../core/session.service';
import { confirmation } from '../../shared/confirm-dialog.component';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { cursorPages } from '../../core/cursor-pages';
import { PagedListCardComponent } from '../../shared/paged-list-card.component';
import { OneTimeSecretComponent } from '../../shared/one-time-secret.component';
import { relativeTime } from '../../shared/time';
import { CliInstallComponent } from './cli-install.component';
import { EXPIRY_CHOICES, SCOPE_DESCRIPTIONS, expiresAtFor, tokenStatus, type ExpiryChoice } from './token-rules';
import { TokensApi } from './tokens.api';
import { FormActionsComponent } from '../../shared/form-actions.component';
import { DATA_TABLE } from '../../shared/data-table.component';
import { FORM_FIELDS } from '../../shared/form-fields';
import { SectionCardComponent } from '../../shared/section-card.component';

@Component({
  selector: 'sc-tokens-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    DatePipe,
    FORM_FIELDS,
    MatButtonModule,
    MatCardModule,
    SectionCardComponent,
    MatCheckboxModule,
    MatIconModule,
    MatSelectModule,
    DATA_TABLE,
    MatTooltipModule,
    ErrorBannerComponent,
    OneTimeSecretComponent,
    CliInstallComponent,
    FormActionsComponent,
    PagedListCardComponent,
  ],
  templateUrl: './tokens.page.html',
  styleUrl: './tokens.page.scss',
})
export class TokensPage {
  private readonly api = inject(TokensApi);

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();

  readonly canManage = inject(SessionService).canManage;
  /** Newest first, as the API pages them; "Load more" appends the next page. */
  readonly tokens = cursorPages<string, ApiTokenResponse>({
    params: this.orgId,
    load: (orgId, cursor) => {
      if (cursor === undefined) this.created.set(null);
      return this.api.list(orgId, { cursor }).pipe(tap(() => this.now.set(new Date())));
    },
  });
  readonly formOpen = signal(false);
  private readonly creation = mutation({ report: 'inline' });
  readonly creating = this.creation.pending;
  readonly createError = this.creation.error;
  readonly created = signal<CreatedApiTokenResponse | null>(null);
  private readonly confirm = confirmation();
  /** Row actions: the token being revoked. */
  private readonly revocation = mutation<string>();
  readonly busyId = this.revocation.busy;
  /** Re-evaluated on each load so "expired" and "last used" stay true without a timer. */
  private readonly now = signal(new Date());

  readonly scopes = TOKEN_SCOPES;
  readonly scopeDescriptions = SCOPE_DESCRIPTIONS;
  readonly expiryChoices = EXPIRY_CHOICES;
  readonly rowTestId = (row: { token: ApiTokenResponse }) => `token-row-${row.token.name}`;

  readonly rows = computed(() =>
    this.tokens.value().map((token) => ({
      token,
      status: tokenStatus(token, this.now()),
      lastUsed: token.lastUsedAt ? relativeTime(token.lastUsedAt, this.now()) : 'Never',
      // A token created before creators were recorded answers to nobody: say so rather than leave the cell empty.
      createdBy: token.createdBy ? token.createdBy.displayName : token.createdByUserId ? 'A removed user' : 'Unknown (before creators were recorded)',
    })),
  );

  readonly form = inject(FormBuilder).nonNullable.group(
    {
      name: ['', [Validators.required, Validators.maxLength(FIELD_LIMITS.apiTokenName)]],
      sync: [true],
      read: [false],
      admin: [false],
      expiry: ['90' as ExpiryChoice],
      customDate: [''],
    },
    { validators: [(group) => this.validateForm(group.getRawValue() as TokenFormValue)] },
  );

  openForm(): void {
    this.created.set(null);
    this.createError.set(null);
    this.form.reset();
    this.formOpen.set(true);
  }

  cancelForm(): void {
    this.formOpen.set(false);
  }

  async create(): Promise<void> {
    if (this.form.invalid) {
      this.form.markAllAsTouched();
      return;
    }
    const value = this.form.getRawValue();
    const expiresAt = expiresAtFor(value.expiry, value.customDate);
    await this.creation.run(
      true,
      () => this.api.create(this.orgId(), { name: value.name.trim(), scopes: selectedScopes(value), ...(expiresAt ? { expiresAt } : {}) }),
      {
        done: (created) => {
          this.created.set(created);
          this.formOpen.set(false);
          this.tokens.update((tokens) => [created.apiToken, ...tokens]);
        },
      },
    );
  }

  dismissCreated(): void {
    this.created.set(null);
  }

  async revoke(token: ApiTokenResponse): Promise<void> {
    const confirmed = await this.confirm({
      title: `Revoke “${token.name}”?`,
      message: `Anything using ${token.prefix}… stops working immediately. This cannot be undone.`,
      confirmLabel: 'Revoke token',
      destructive: true,
    });
    if (!confirmed) return;
    await this.revocation.run(token.id, () => this.api.revoke(this.orgId(), token.id), {
      success: `Token “${token.name}” revoked.`,
      done: (revoked) => {
        this.tokens.update((tokens) => tokens.map((t) => (t.id === revoked.id ? revoked : t)));
        this.now.set(new Date());
        if (this.created()?.apiToken.id === token.id) this.created.set(null);
      },
    });
  }

  private validateForm(value: TokenFormValue): ValidationErrors | null {
    const errors: ValidationErrors = {};
    if (selectedScopes(value).length === 0) errors['noScope'] = true;
    if (value.expiry === 'custom' && expiresAtFor('custom', value.customDate) === null) errors['badDate'] = true;
    return Object.keys(errors).length === 0 ? null : errors;
  }
}

interface TokenFormValue {
  name: string;
  sync: boolean;
  read: boolean;
  admin: boolean;
  expiry: ExpiryChoice;
  customDate: string;
}

function selectedScopes(value: Pick<TokenFormValue, TokenScope>): TokenScope[] {
  return TOKEN_SCOPES.filter((scope) => value[scope]);
}
