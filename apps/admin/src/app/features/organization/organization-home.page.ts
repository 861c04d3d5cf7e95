import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { RouterLink } from '@angular/router';
import type { OrganizationResponse } from '@sc/contracts';
import { pageResource } from '../../core/page-resource';
import { SessionService } from '../../core/session.service';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { OrganizationApi } from './organization.api';

@Component({
  selector: 'sc-organization-home-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [DatePipe, RouterLink, MatButtonModule, MatCardModule, MatIconModule, MatProgressBarModule, ErrorBannerComponent],
  templateUrl: './organization-home.page.html',
  styleUrl: './organization-home.page.scss',
})
export class OrganizationHomePage {
  private readonly api = inject(OrganizationApi);
  private readonly session = inject(SessionService);

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();
  /** Set by the auth guard when a link pointed at another organization than the session's. */
  readonly from = input<string | undefined>();

  readonly loaded = pageResource({
    params: this.orgId,
    load: (orgId) => this.api.get(orgId),
    initial: null as OrganizationResponse | null,
  });
  readonly organization = this.loaded.value;
  readonly me = this.session.me;
  readonly canManage = this.session.canManage;
  readonly origin = window.location.origin;
  readonly greetingName = computed(() => this.me()?.user?.displayName ?? '');

}
