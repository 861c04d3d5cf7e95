import { ChangeDetectionStrategy, Component, computed, inject, input, linkedSignal, output } from '@angular/core';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import type { DbConfig } from '@sc/diagram';
import { map } from 'rxjs/operators';
import { pageResource } from '../../../../core/page-resource';
import { ServicesApi } from '../../../services/services.api';
import { ChoiceFieldComponent } from './panel-parts.component';

/**
 * dbConfig of a `data-source` or `db-table` node, picked from what the organization synced: a service, one of its
 * databases (schema artifacts of the current revision) and a table (SQL tables, or DynamoDB/MongoDB collections).
 * Emits only a complete config (all three fields; a data source may leave the table empty, the spec's
 * "topology-level usage"). A config naming things no longer synced is kept and shown as such.
 * Test hooks: `db-service`, `db-database`, `db-table` (mat-selects), `db-error`.
 */
@Component({
  selector: 'sc-db-config-picker',
  changeDetection: ChangeDetectionStrategy.OnPush,
  styleUrl: './fields.scss',
  imports: [MatProgressBarModule, ChoiceFieldComponent],
  template: `
    @if (services.isLoading() || databases.isLoading() || tables.isLoading()) {
      <mat-progress-bar mode="indeterminate" aria-label="Loading synced databases" />
    }
    @if (services.error() || databases.error() || tables.error(); as failure) {
      <p class="error-text" role="alert" data-testid="db-error">Could not load the synced databases: {{ failure.message }}</p>
    }
    <sc-choice-field label="Service" testId="db-service" [options]="serviceNames()" [value]="service()" (picked)="pickService($event)" />
    <sc-choice-field label="Database" testId="db-database" [options]="databaseNames()" [value]="database()" [disabled]="!service()" [hint]="noDatabase() ? 'This service has synced no database schema.' : ''" (picked)="pickDatabase($event)" />
    <sc-choice-field label="Table" testId="db-table" [options]="tableNames()" [value]="table()" [disabled]="!database()" [none]="needsTable() ? null : '(the whole database)'" (picked)="pickTable($event)" />
  `,
  styles: `
    :host {
      display: flex;
      flex-direction: column;
      gap: 12px;
    }
  `,
})
export class DbConfigPickerComponent {
  private readonly api = inject(ServicesApi);
  readonly orgId = input.required<string>();
  readonly config = input.required<DbConfig | undefined>();
  /** db-table nodes need a table; data-source nodes may name the whole database (tableName ""). */
  readonly needsTable = input.required<boolean>();
  readonly configChange = output<DbConfig>();

  readonly service = linkedSignal(() => this.config()?.serviceName ?? '');
  readonly database = linkedSignal(() => this.config()?.databaseName ?? '');
  readonly table = linkedSignal(() => this.config()?.tableName ?? '');

  readonly services = pageResource({
    params: () => this.orgId(),
    load: (orgId) => this.api.serviceNames(orgId),
    initial: [] as string[],
  });
  readonly databases = pageResource({
    params: () => (this.service() ? { orgId: this.orgId(), service: this.service() } : undefined),
    load: ({ orgId, service }) => this.api.artifactsOfKind(orgId, service, 'database-schema').pipe(map((schemas) => schemas.map((schema) => schema.name))),
    initial: [] as string[],
  });
  readonly tables = pageResource({
    params: () => (this.service() && this.database() ? { orgId: this.orgId(), service: this.service(), database: this.database() } : undefined),
    load: ({ orgId, service, database }) => this.api.database(orgId, service, database).pipe(map((view) => [...view.tables.map((t) => t.name), ...view.collections])),
    initial: [] as string[],
  });

  /** The loaded names, plus the saved one when it is not (or no longer) among them, so a select can show it. */
  readonly serviceNames = computed(() => withCurrent(this.services.value(), this.service()));
  readonly databaseNames = computed(() => withCurrent(this.databases.value(), this.database()));
  readonly tableNames = computed(() => withCurrent(this.tables.value(), this.table()));

  readonly noDatabase = computed(() => this.service() !== '' && !this.databases.isLoading() && this.databaseNames().length === 0);

  pickService(name: string): void {
    this.service.set(name);
    this.database.set('');
    this.table.set('');
  }

  pickDatabase(name: string): void {
    this.database.set(name);
    this.table.set('');
    if (!this.needsTable()) this.emit();
  }

  pickTable(name: string): void {
    this.table.set(name);
    this.emit();
  }

  private emit(): void {
    if (!this.service() || !this.database() || (this.needsTable() && !this.table())) return;
    this.configChange.emit({ serviceName: this.service(), databaseName: this.database(), tableName: this.table() });
  }
}

function withCurrent(names: string[], current: string): string[] {
  return current === '' || names.includes(current) ? names : [...names, current];
}
