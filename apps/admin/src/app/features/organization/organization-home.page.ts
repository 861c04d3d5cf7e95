import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { RouterLink } from '@angular/router';
import type { OrganizationResponse } from '@sc/contracts';
import { firstValueFrom } from 'rxjs';
import { ApiError, toApiError } from '../../core/api-error';
import { SessionService } from '../../core/session.service';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { reloadOn } from '../../shared/reload-on';
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

  readonly organization = signal<OrganizationResponse | null>(null);
  readonly loading = signal(true);
  readonly error = signal<ApiError | null>(null);
  readonly me = this.session.me;
  readonly canManage = this.session.canManage;
  readonly origin = window.location.origin;
  readonly greetingName = computed(() => this.me()?.user?.displayName ?? '');

  constructor() {
    reloadOn(this.orgId, () => this.load());
  }

  private async load(): Promise<void> {
    const orgId = this.orgId();
    this.loading.set(true);
    this.error.set(null);
    try {
      const organization = await firstValueFrom(this.api.get(orgId));
      if (orgId === this.orgId()) this.organization.set(organization);
    } catch (error: unknown) {
      this.error.set(toApiError(error));
    } finally {
      this.loading.set(false);
    }
  }
}
