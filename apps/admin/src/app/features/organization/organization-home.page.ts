import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { RouterLink } from '@angular/router';
import type { DraftSummary, OrganizationResponse, ServiceListItem } from '@sc/contracts';
import { pageResource } from '../../core/page-resource';
import { SessionService } from '../../core/session.service';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { RelativeTimeComponent } from '../../shared/relative-time.component';
import type { CursorPage } from '../../core/cursor-pages';
import { DraftsApi } from '../drafts/drafts.api';
import { ServicesApi } from '../services/services.api';
import { CliInstallComponent } from '../tokens/cli-install.component';
import { OrganizationApi } from './organization.api';
import { OverviewListCardComponent } from './overview-list-card.component';

/** How many drafts the Overview lists; the Drafts page has them all. */
const RECENT_DRAFTS = 5;

/** The organization's home: its services with their last sync, its recent drafts, and how to install service-cli. */
@Component({
  selector: 'sc-organization-home-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    DatePipe,
    RouterLink,
    MatButtonModule,
    MatCardModule,
    MatIconModule,
    MatProgressBarModule,
    ErrorBannerComponent,
    OverviewListCardComponent,
    RelativeTimeComponent,
    CliInstallComponent,
  ],
  templateUrl: './organization-home.page.html',
  styleUrl: './organization-home.page.scss',
})
export class OrganizationHomePage {
  private readonly api = inject(OrganizationApi);
  private readonly session = inject(SessionService);
  private readonly servicesApi = inject(ServicesApi);
  private readonly draftsApi = inject(DraftsApi);

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
  /** The first page of services (by name, up to 100), each with its last sync. */
  readonly services = pageResource({
    params: this.orgId,
    load: (orgId) => this.servicesApi.list(orgId),
    initial: null as ServiceListItem[] | null,
  });
  /** The drafts saved last (the drafts list is most recent first). */
  readonly drafts = pageResource({
    params: this.orgId,
    load: (orgId) => this.draftsApi.list(orgId, { limit: RECENT_DRAFTS }),
    initial: null as CursorPage<DraftSummary> | null,
  });
  readonly me = this.session.me;
  readonly canManage = this.session.canManage;
  readonly origin = window.location.origin;
  readonly greetingName = computed(() => this.me()?.user?.displayName ?? '');
  readonly serviceName = (service: ServiceListItem): string => service.name;
  readonly draftId = (draft: DraftSummary): string => draft.id;
}
