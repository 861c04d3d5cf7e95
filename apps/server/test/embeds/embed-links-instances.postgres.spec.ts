import { createSeededApp, createTestApp, call, sessionHeaders, withAdminClient, type SeededOrganization, type TestApp } from '../support';
import { COLD_WORKER_TIMEOUT, createLink, publicGet, syncOrders } from './embeds-support';

/**
 * Two instances on one PostgreSQL database (each its own Nest application, connection pool and change listener): a
 * link revoked on A answers 404 on B at once, although B had the link in its cache. Registered only with
 * TEST_DATABASE_URL (jest.integration.cjs), like the multi-instance suite.
 */
describe('embed links on two instances sharing one database', () => {
  let a: TestApp;
  let b: TestApp;
  let org: SeededOrganization;

  beforeAll(async () => {
    ({ t: a, org } = await createSeededApp({ orgId: 'acme' }, { env: COLD_WORKER_TIMEOUT }));
    b = await createTestApp({ env: COLD_WORKER_TIMEOUT, sharedDatabase: a.database });
    await syncOrders(a, org);
  }, 240_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** The answers on `instance` until one is 404 or 2 s pass: how many requests it took (the notification is asynchronous). */
  const untilRefused = async (instance: TestApp, path: string) => {
    const deadline = Date.now() + 2_000;
    for (let requests = 1; ; requests++) {
      const { status } = await publicGet(instance.baseUrl, path);
      if (status === 404 || Date.now() > deadline) return { status, requests };
      await new Promise((wait) => setTimeout(wait, 5));
    }
  };

  it('a link revoked on A is refused on B, whose cache held it', async () => {
    const { id, token } = (await createLink(a, org.owner, 'acme', { service: 'orders', diagram: 'topology' })).body;
    expect((await publicGet(b.baseUrl, `/embed/${token}.svg`)).status).toBe(200);
    // B answers from its cache: a change made with the triggers off (no notification) is not seen there...
    const url = a.database.config.kind === 'postgres' ? a.database.config.url : '';
    await withAdminClient(url, async (client) => {
      await client.query("SET session_replication_role = 'replica'");
      await client.query("UPDATE embed_links SET expires_at = now() - interval '1 day' WHERE id = $1", [id]);
    });
    expect((await publicGet(b.baseUrl, `/embed/${token}.svg`)).status).toBe(200);
    // ...so what refuses the revoked link below is the notification of the revocation.
    const revoked = await call(a.baseUrl, 'DELETE', `/api/v1/orgs/acme/embed-links/${id}`, { headers: sessionHeaders(org.owner) });
    expect(revoked.status).toBe(200);
    // A itself learns of its own change before the DELETE answered.
    expect((await publicGet(a.baseUrl, `/embed/${token}.svg`)).status).toBe(404);
    expect(await untilRefused(b, `/embed/${token}.svg`)).toMatchObject({ status: 404 });
    expect((await publicGet(b.baseUrl, `/embed/${token}`)).status).toBe(404);
  });

  it('a link created on A works on B at once (nothing negative is cached)', async () => {
    expect((await publicGet(b.baseUrl, '/embed/sce_abcdefgh_' + 'A'.repeat(32) + '.svg')).status).toBe(404);
    const { token } = (await createLink(a, org.owner, 'acme', { service: 'orders' })).body;
    expect((await publicGet(b.baseUrl, `/embed/${token}/topology.svg`)).status).toBe(200);
  });
});
