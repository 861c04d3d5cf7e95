import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import type { DbConfig } from '@sc/diagram';
import { PanelDriver } from '../../../../../testing/properties-kit';
import { DbConfigPickerComponent } from './db-config-picker.component';

function picker(config: DbConfig | undefined, needsTable: boolean): PanelDriver<DbConfigPickerComponent, DbConfig> {
  return new PanelDriver(DbConfigPickerComponent, { orgId: 'acme', config, needsTable }, (c) => c.configChange, (next) => ['config', next]);
}
const http = () => TestBed.inject(HttpTestingController);

describe('DbConfigPickerComponent', () => {
  it('a data source may name the whole database (tableName "")', async () => {
    const driver = picker(undefined, false);
    http().expectOne('/api/v1/orgs/acme/services').flush([{ name: 'payments' }]);
    await driver.settle();
    driver.pickNow('db-service', 'payments');
    http().expectOne('/api/v1/orgs/acme/services/payments').flush({ artifacts: [{ kind: 'database-schema', name: 'ledger' }] });
    await driver.settle();
    driver.pickNow('db-database', 'ledger');
    http().expectOne('/api/v1/orgs/acme/services/payments/databases/ledger').flush({ tables: [], collections: ['events'] });
    await driver.settle();
    expect(driver.emitted).toEqual([{ serviceName: 'payments', databaseName: 'ledger', tableName: '' }]);
    // DynamoDB / MongoDB collections are offered as tables.
    expect(driver.optionsNow('db-table')).toEqual(['(the whole database)', 'events']);
  });

  it('keeps showing a saved config that is no longer synced, and says when loading failed', async () => {
    const driver = picker({ serviceName: 'gone', databaseName: 'old', tableName: 't' }, true);
    http().expectOne('/api/v1/orgs/acme/services').flush({ error: { code: 'internal', message: 'Database unavailable' } }, { status: 503, statusText: 'Unavailable' });
    http().expectOne('/api/v1/orgs/acme/services/gone').flush({ error: { code: 'service_not_found', message: 'No service "gone"' } }, { status: 404, statusText: 'Not Found' });
    http().expectOne('/api/v1/orgs/acme/services/gone/databases/old').flush({ error: { code: 'service_not_found', message: 'No service "gone"' } }, { status: 404, statusText: 'Not Found' });
    await driver.settle();
    expect(driver.text('db-error')).toContain('Could not load the synced databases');
    expect(driver.optionsNow('db-service')).toEqual(['gone']);
    expect(driver.optionsNow('db-table')).toEqual(['t']);
    expect(driver.emitted).toEqual([]);
  });
});
