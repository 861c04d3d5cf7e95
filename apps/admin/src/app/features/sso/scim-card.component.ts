import { ChangeDetectionStrategy, Component, inject, input, signal } from '@angular/core';
import { FormControl, Validators } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { MatTooltipModule } from '@angular/material/tooltip';
import { FIELD_LIMITS, type ScimTokenResponse } from '@sc/contracts';
import { mutation } from '../../core/mutation';
import { pageResource } from '../../core/page-resource';
import { confirmation } from '../../shared/confirm-dialog.component';
import { CopyFieldComponent } from '../../shared/copy-field.component';
import { FORM_FIELDS } from '../../shared/form-fields';
import { ListStateComponent } from '../../shared/list-state.component';
import { OneTimeSecretComponent } from '../../shared/one-time-secret.component';
import { RelativeTimeComponent } from '../../shared/relative-time.component';
import { SectionCardComponent } from '../../shared/section-card.component';
import { ProvisioningApi } from './provisioning.api';

/** SSO settings → SCIM provisioning (owners): the base URL to give the identity provider and its tokens. */
@Component({
  selector: 'sc-scim-card',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [FORM_FIELDS, MatButtonModule, MatIconModule, MatTooltipModule, CopyFieldComponent, ListStateComponent, OneTimeSecretComponent, RelativeTimeComponent, SectionCardComponent],
  template: `
    <sc-section-card heading="SCIM provisioning" data-testid="scim-card">
      <p class="muted">
        Let your identity provider (Microsoft Entra ID, Okta…) create, update and deactivate members. Give it this base
        URL and a SCIM token. Deactivating or deleting a user there ends their sessions and revokes their API tokens here.
      </p>
      @if (baseUrl.value(); as config) {
        <sc-copy-field [value]="config.baseUrl" label="SCIM base URL" testId="scim-base-url" />
      }
      <form class="add-row" (submit)="create($event)">
        <mat-form-field class="grow">
          <mat-label>Token name</mat-label>
          <input matInput [formControl]="name" placeholder="e.g. Entra ID provisioning" autocomplete="off" data-testid="scim-token-name" />
          <sc-field-errors matError [control]="name" [messages]="{ required: 'Enter a name for the token.', maxlength: 'Use at most {requiredLength} characters.' }" />
        </mat-form-field>
        <button mat-flat-button type="submit" [disabled]="creating.pending()" data-testid="scim-token-create">Create SCIM token</button>
      </form>
      @if (created(); as secret) {
        <sc-one-time-secret [value]="secret" label="SCIM token" />
      }
      <sc-list-state [loading]="tokens.isLoading()" loadingLabel="Loading SCIM tokens" [error]="tokens.error()" (retry)="tokens.reload()" [empty]="tokens.value().length === 0"
        emptyIcon="key" emptyHeading="No SCIM tokens" emptyTestId="scim-tokens-empty">Create one for your identity provider.</sc-list-state>
      @for (token of tokens.value(); track token.id) {
        <div class="token" [attr.data-testid]="'scim-token-' + token.name">
          <strong>{{ token.name }}</strong>
          <span class="mono small">{{ token.prefix }}…</span>
          <span class="muted small">
            @if (token.revokedAt) { Revoked <sc-relative-time [time]="token.revokedAt" /> }
            @else if (token.lastUsedAt) { Last used <sc-relative-time [time]="token.lastUsedAt" /> }
            @else { Never used }
          </span>
          <span class="grow"></span>
          @if (!token.revokedAt) {
            <button mat-icon-button type="button" (click)="revoke(token)" [disabled]="busy() === token.id" [attr.aria-label]="'Revoke ' + token.name" matTooltip="Revoke">
              <mat-icon svgIcon="delete" />
            </button>
          }
        </div>
      }
    </sc-section-card>
  `,
  styleUrl: './provisioning-card.scss',
  styles: `
    .add-row {
      margin-top: 12px;
    }
    .token {
      display: flex;
      align-items: center;
      gap: 12px;
      padding: 8px 0;
      border-top: 1px solid var(--mat-sys-outline-variant);
    }
  `,
})
export class ScimCardComponent {
  private readonly api = inject(ProvisioningApi);
  private readonly confirm = confirmation();

  readonly orgId = input.required<string>();
  readonly baseUrl = pageResource({ params: this.orgId, load: (orgId) => this.api.scimConfig(orgId), initial: null as { baseUrl: string } | null });
  readonly tokens = pageResource({ params: this.orgId, load: (orgId) => this.api.scimTokens(orgId), initial: [] as ScimTokenResponse[] });
  readonly name = new FormControl('', { nonNullable: true, validators: [Validators.required, Validators.maxLength(FIELD_LIMITS.apiTokenName)] });
  /** The new token's value, shown once. */
  readonly created = signal<string | null>(null);
  readonly creating = mutation();
  private readonly revoking = mutation<string>();
  readonly busy = this.revoking.busy;

  async create(event: Event): Promise<void> {
    event.preventDefault();
    if (this.name.invalid) {
      this.name.markAsTouched();
      return;
    }
    await this.creating.run(true, () => this.api.createScimToken(this.orgId(), this.name.value.trim()), {
      success: 'SCIM token created. Copy it into your identity provider now.',
      done: (answer) => {
        this.created.set(answer.token);
        this.tokens.update((list) => [answer.scimToken, ...list]);
        this.name.reset();
      },
    });
  }

  async revoke(token: ScimTokenResponse): Promise<void> {
    const confirmed = await this.confirm({
      title: `Revoke “${token.name}”?`,
      message: 'The identity provider using it can no longer provision or deprovision members until it gets a new token.',
      confirmLabel: 'Revoke token',
      destructive: true,
    });
    if (!confirmed) return;
    await this.revoking.run(token.id, () => this.api.revokeScimToken(this.orgId(), token.id), {
      success: `“${token.name}” revoked.`,
      done: (revoked) => this.tokens.update((list) => list.map((item) => (item.id === revoked.id ? revoked : item))),
    });
  }
}
