import type { SearchAnswer, SyncResult } from '@sc/contracts';
import { SearchBackfillService } from '../src/modules/artifacts/sync/search-backfill.service';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts } from './artifacts/bundles';
import { createOrganization, createToken, call, sessionHeaders, type SeededOrganization, useSeededApp } from './support';

/**
 * Services synced before the search index existed have no entry at all; SearchBackfillService (run at every start, and
 * by runOnce) indexes them from their stored current revision, once, in their own organization.
 */
jest.setTimeout(180_000);

describe('search index backfill', () => {
  // The SQL schema's parser thread starts cold under Jest too (a busy machine took over 30 s).
  const { t, org: acme } = useSeededApp({ orgId: 'acme' }, { env: { ...COLD_WORKER_TIMEOUT, SERVICE_SQL_PARSE_TIMEOUT: '120s' } });
  let globex: SeededOrganization;
  const search = (q: string, as: SeededOrganization) =>
    call<SearchAnswer>(t.baseUrl, 'GET', `/api/v1/orgs/${as.organizationId}/search?q=${encodeURIComponent(q)}&limit=50`, { headers: sessionHeaders(as.owner) });
  const entriesOf = async (service: string): Promise<Array<{ element: string }>> =>
    t.dataSource.query(
      `SELECT coalesce(e.artifact_name, '-') || '/' || e.element_kind || ':' || e.element_id || ' = ' || e.title || ' | ' || e.text AS element FROM search_entries e JOIN services s ON s.id = e.service_id WHERE s.name = $1 ORDER BY 1`,
      [service],
    );

  beforeAll(async () => {
    globex = await createOrganization(t, acme, { orgId: 'globex' });
    const acmeSync = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    const globexSync = (await createToken(t, globex.owner, 'globex', { name: 'ci', scopes: ['sync'] })).token;
    for (const [token, service] of [[acmeSync, 'orders'], [globexSync, 'billing']]) {
      const answer = await postSync<SyncResult>(t.baseUrl, token, bundle(sampleArtifacts(), service));
      expect({ status: answer.status, refusal: answer.status === 201 ? null : answer.body }).toEqual({ status: 201, refusal: null });
    }
  });

  it('indexes a service that has no entries exactly as its sync did, once, and in its own organization', async () => {
    const synced = await entriesOf('orders');
    expect(synced.map((row) => row.element.split(' = ')[0])).toEqual(
      expect.arrayContaining(['-/service:orders', 'topology/node:api', 'orders-db/table:orders', 'checkout/heading:Checkout', 'summary/heading:Orders']),
    );
    // As before the index existed: the service has no entry at all.
    await t.dataSource.query(`DELETE FROM search_entries WHERE service_id = (SELECT id FROM services WHERE name = 'orders')`);
    expect((await search('Orders API', acme)).body.hits).toEqual([]);

    const backfill = t.app.get(SearchBackfillService);
    expect(await backfill.runOnce()).toBe(1);
    expect(await entriesOf('orders')).toEqual(synced);
    expect((await search('Orders API', acme)).body.hits.map((hit) => `${hit.service}/${hit.element.id}`)).toContain('orders/api');
    expect((await search('Orders API', globex)).body.hits.every((hit) => hit.service === 'billing')).toBe(true);

    // Nothing left to do: a second pass indexes nothing and changes nothing.
    expect(await backfill.runOnce()).toBe(0);
    expect(await entriesOf('orders')).toEqual(synced);
  });
});
