import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { MatSlideToggleModule, type MatSlideToggleChange } from '@angular/material/slide-toggle';
import type { SsoSettingsResponse } from '@sc/contracts';
import { mutation } from '../../core/mutation';
import { pageResource } from '../../core/page-resource';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { SectionCardComponent } from '../../shared/section-card.component';
import { SsoApi } from './sso.api';

/**
 * Require SSO (owners): the switch and what it means. The server decides whether it may be turned on (a provider
 * whose last test sign-in passed, and the owner signed in through SSO in this session) and says why not.
 */
@Component({
  selector: 'sc-require-sso-card',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatSlideToggleModule, ErrorBannerComponent, SectionCardComponent],
  styles: [':host { display: block; margin-top: 16px; }'],
  template: `
    <sc-section-card heading="Require SSO">
      <p class="muted">
        When on, members sign in only through this organization’s enabled providers. Sign-in links stop working, except
        links for owners printed by the <code>sign-in-link</code> command on the server host (break-glass). API tokens are
        not affected. Turning it on ends sessions that did not start through SSO; it needs a provider whose last test
        sign-in passed, and you must have signed in through SSO yourself. Owners only.
      </p>
      <mat-slide-toggle
        [checked]="settings.value().requireSso"
        [disabled]="settings.isLoading() || saving()"
        (change)="set($event)"
        data-testid="require-sso"
      >
        Require SSO
      </mat-slide-toggle>
      <sc-error-banner [error]="error() ?? settings.error()" />
    </sc-section-card>
  `,
})
export class RequireSsoCardComponent {
  private readonly api = inject(SsoApi);
  readonly orgId = input.required<string>();

  readonly settings = pageResource({
    params: this.orgId,
    load: (orgId) => this.api.settings(orgId),
    initial: { requireSso: false } as SsoSettingsResponse,
  });
  private readonly change = mutation({ report: 'inline' });
  readonly saving = this.change.pending;
  readonly error = this.change.error;

  async set(event: MatSlideToggleChange): Promise<void> {
    const requireSso = event.checked;
    const saved = await this.change.run(true, () => this.api.updateSettings(this.orgId(), requireSso), {
      success: requireSso ? 'SSO is now required.' : 'SSO is no longer required.',
    });
    const held = saved ?? { requireSso: !requireSso };
    this.settings.update(() => held);
    // Refused: the toggle goes back to what the server holds (the bound value did not change, so set it here).
    event.source.checked = held.requireSso;
  }
}
