import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import type { ServiceListItem } from '@sc/contracts';
import { cursorPages } from '../../core/cursor-pages';
import { LoadMoreComponent } from '../../shared/load-more.component';
import { ServicesApi } from './services.api';
import { ListStateComponent } from '../../shared/list-state.component';
import { DATA_TABLE } from '../../shared/data-table.component';

@Component({
  selector: 'sc-services-list-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [DatePipe, RouterLink, MatButtonModule, MatCardModule, MatIconModule, DATA_TABLE, ListStateComponent, LoadMoreComponent],
  template: `
    <div class="page">
      <div class="page-header"><h1>Services</h1></div>
      <p class="page-intro">
        Services appear here when CI runs <code>service-cli sync</code> in their repository. Each sync stores a new
        revision of the diagrams, flows, schemas and notes listed in the repository's <code>.service.yaml</code>.
      </p>
      <mat-card appearance="outlined">
        <sc-list-state [loading]="services.isLoading()" loadingLabel="Loading services" [error]="services.error()" (retry)="services.reload()" [empty]="services.value().length === 0"
          emptyIcon="account_tree" emptyHeading="No services synced yet" emptyTestId="services-empty">Create an API token with the sync scope and run <code>service-cli sync</code> in a repository.</sc-list-state>
        @if (!services.error() && services.value().length > 0) {
          <sc-data-table [rows]="services.value()" label="Services">
            <ng-template scColumn="name" header="Service" let-service>
              <a [routerLink]="[service.name]" class="name">{{ service.name }}</a>
              @if (service.description) {
                <div class="muted small">{{ service.description }}</div>
              }
            </ng-template>
            <ng-template scColumn="artifacts" header="Artifacts" let-service>{{ service.artifactCount }}</ng-template>
            <ng-template scColumn="revision" header="Revision" let-service>{{ service.currentRevision }}</ng-template>
            <ng-template scColumn="synced" header="Last sync" let-service>
              {{ service.lastSyncedAt ? (service.lastSyncedAt | date: 'medium') : 'Never' }}
            </ng-template>
          </sc-data-table>
          <sc-load-more [pages]="services" label="Load more services" testId="services-more" />
        }
      </mat-card>
    </div>
  `,
  styles: `
    .name {
      font-weight: 500;
    }
    .small {
      font-size: 12px;
    }
  `,
})
export class ServicesListPage {
  private readonly api = inject(ServicesApi);

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();

  /** By name, as the API pages them; "Load more" appends the next page. */
  readonly services = cursorPages<string, ServiceListItem>({ params: this.orgId, load: (orgId, cursor) => this.api.page(orgId, cursor) });
}
