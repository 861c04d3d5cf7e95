import { ClipboardModule } from '@angular/cdk/clipboard';
import { DOCUMENT } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { MatTabsModule } from '@angular/material/tabs';
import { MatTooltipModule } from '@angular/material/tooltip';
import { RouterLink } from '@angular/router';
import type { SsoProviderResponse } from '@sc/contracts';
import { pageResource } from '../../core/page-resource';
import { mutation } from '../../core/mutation';
import { confirmation } from '../../shared/confirm-dialog.component';
import { TYPE_LABELS } from './provider-form';
import { SsoApi } from './sso.api';
import { SsoAuditComponent } from './sso-audit.component';
import { ListStateComponent } from '../../shared/list-state.component';
import { DATA_TABLE } from '../../shared/data-table.component';
import { RelativeTimeComponent } from '../../shared/relative-time.component';
import { SessionService } from '../../core/session.service';
import { DomainsCardComponent } from './domains-card.component';
import { ScimCardComponent } from './scim-card.component';
import { RequireSsoCardComponent } from './require-sso-card.component';

/** Organization settings → SSO: the providers and the sign-in audit log. */
@Component({
  selector: 'sc-sso-settings-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    ClipboardModule,
    RouterLink,
    MatButtonModule,
    MatCardModule,
    MatIconModule,
    DATA_TABLE,
    MatTabsModule,
    MatTooltipModule,
    SsoAuditComponent,
    ListStateComponent,
    RelativeTimeComponent,
    DomainsCardComponent,
    ScimCardComponent,
    RequireSsoCardComponent,
  ],
  templateUrl: './sso-settings.page.html',
  styleUrl: './sso-settings.page.scss',
})
export class SsoSettingsPage {
  private readonly api = inject(SsoApi);
  private readonly origin = inject(DOCUMENT).location.origin;

  /** SCIM tokens are the owners' (the server refuses admins). */
  private readonly session = inject(SessionService);
  readonly isOwner = computed(() => this.session.role() === 'owner');
  readonly orgId = input.required<string>();
  /** `?tab=audit` opens the audit log. */
  readonly tab = input<string | undefined>();

  readonly providers = pageResource({
    params: this.orgId,
    load: (orgId) => this.api.list(orgId),
    initial: [] as SsoProviderResponse[],
  });
  private readonly confirm = confirmation();
  /** Row actions: the provider being deleted. */
  private readonly removal = mutation<string>();
  readonly busySlug = this.removal.busy;
  readonly rowTestId = (provider: SsoProviderResponse) => `provider-row-${provider.slug}`;
  readonly slugs = computed(() => this.providers.value().map((provider) => provider.slug));
  /** What to hand to the organization's people: the page with one button per enabled provider. */
  readonly signInPageUrl = computed(() => `${this.origin}/orgs/${encodeURIComponent(this.orgId())}/sign-in`);
  readonly initialTab = computed(() => (this.tab() === 'audit' ? 1 : 0));

  typeLabel(provider: SsoProviderResponse): string {
    return TYPE_LABELS[provider.type];
  }

  async remove(provider: SsoProviderResponse): Promise<void> {
    const confirmed = await this.confirm({
      title: `Delete “${provider.displayName}”?`,
      message: `Nobody can sign in through ${provider.slug} any more, and its callback URL stops working. Members keep their accounts. This cannot be undone.`,
      confirmLabel: 'Delete provider',
      destructive: true,
    });
    if (!confirmed) return;
    await this.removal.run(provider.slug, () => this.api.remove(this.orgId(), provider.slug), {
      success: `“${provider.displayName}” deleted.`,
      done: () => this.providers.update((providers) => providers.filter((p) => p.slug !== provider.slug)),
    });
  }
}
