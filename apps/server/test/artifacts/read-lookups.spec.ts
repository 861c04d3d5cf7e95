import type { ErrorBody, TextArtifactView } from '@sc/contracts';
import { RetentionService } from '../../src/modules/artifacts/retention/retention.service';
import { bearer, call, createToken, useSeededApp } from '../support';
import { bundle, postSync } from './bundles';
import { doc } from './retention-fixture';

/**
 * The lookups in front of every artifact read (service by name, revision, version) are kept in memory; every change
 * that moves or removes what they point at (a sync, retention, a deleted or renamed service) is seen by the next read.
 */
describe('artifact read lookups', () => {
  const { t, org: acme } = useSeededApp({ orgId: 'acme' }, { env: { SERVICE_REVISIONS_KEEP: '1', SERVICE_RETENTION_INTERVAL: '1h' } });
  let syncToken: string;
  const read = (path: string) => call<TextArtifactView & ErrorBody>(t.baseUrl, 'GET', `/api/v1/orgs/acme/services/${path}`, { headers: bearer(acme.adminToken) });
  const sync = async (content: string) => expect((await postSync(t.baseUrl, syncToken, bundle([doc('runbook', content)], 'orders'))).status).toBe(201);

  beforeAll(async () => {
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
  });

  it('a read after a sync, retention, a rename or a deletion sees the change', async () => {
    await sync('# one\n');
    for (let i = 0; i < 2; i++) expect((await read('orders/docs/runbook')).body).toMatchObject({ revision: 1, content: '# one\n' });
    expect((await read('orders/docs/runbook?revision=1')).status).toBe(200);

    await sync('# two\n');
    expect((await read('orders/docs/runbook')).body).toMatchObject({ revision: 2, content: '# two\n' });
    expect((await read('orders/docs/runbook?revision=1')).status).toBe(200);

    await t.app.get(RetentionService).runOnce();
    expect((await read('orders/docs/runbook?revision=1')).body.error.code).toBe('revision_not_found');
    expect((await read('orders/docs/runbook')).body).toMatchObject({ revision: 2, content: '# two\n' });

    await t.dataSource.query(`UPDATE services SET name = 'billing' WHERE name = 'orders'`);
    expect((await read('orders/docs/runbook')).body.error.code).toBe('service_not_found');
    expect((await read('billing/docs/runbook')).body).toMatchObject({ revision: 2, content: '# two\n' });

    expect((await call(t.baseUrl, 'DELETE', '/api/v1/orgs/acme/services/billing', { headers: bearer(acme.adminToken) })).status).toBe(204);
    expect((await read('billing/docs/runbook')).body.error.code).toBe('service_not_found');
  });
});
