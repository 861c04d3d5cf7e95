import type { ServiceRevisionItem, SyncArtifact, SyncResult, TextArtifactView } from '@sc/contracts';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { ArtifactsRepository } from '../../src/modules/artifacts/artifacts.repository';
import { RetentionService } from '../../src/modules/artifacts/retention.service';
import { MetricsService } from '../../src/modules/metrics/metrics.service';
import { bearer, call, createToken, setupOrganization, type SeededOrganization, type TestApp, createTestApp } from '../support';
import { bundle, postSync, syncFile } from './bundles';

/**
 * Revision retention (SERVICE_REVISIONS_KEEP) and blob collection on a real database: PGlite, or PostgreSQL with
 * TEST_DATABASE_URL, where the concurrency cases hold a transaction open on a second real connection.
 */
const onPostgres = Boolean(process.env['TEST_DATABASE_URL']);

function doc(name: string, content: string): SyncArtifact {
  return { kind: 'doc', name, file: syncFile(`docs/${name}.md`, content) };
}

const sha = (content: string) => syncFile('x', content).sha256;

describe('revision retention and blob collection', () => {
  let t: TestApp;
  let acme: SeededOrganization;
  let syncToken: string;
  let retention: RetentionService;
  let repository: ArtifactsRepository;
  let unique = 0;
  /** Content nobody else in this app synced: each test starts from its own blobs. */
  const fresh = (label: string) => `# ${label} ${++unique} ${Math.random()}\n`;

  const sync = async (service: string, artifacts: SyncArtifact[]) => {
    const result = await postSync<SyncResult>(t.baseUrl, syncToken, bundle(artifacts, service));
    if (result.status !== 201 && result.status !== 200) throw new Error(`sync ${service}: ${result.status} ${JSON.stringify(result.body)}`);
    return result.body;
  };
  const blobExists = async (content: string) =>
    ((await t.dataSource.query('SELECT 1 FROM artifact_blobs WHERE sha256 = $1', [sha(content)])) as unknown[]).length === 1;
  const revisions = async (service: string) =>
    (await call<ServiceRevisionItem[]>(t.baseUrl, 'GET', `/api/v1/orgs/acme/services/${service}/revisions`, { headers: bearer(acme.adminToken) })).body.map((item) => item.number);
  /** Backends of this test's database waiting for a lock held by another transaction (PostgreSQL). */
  const lockWaiters = async () =>
    Number(((await t.dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)) as Array<{ n: number }>)[0]?.n);
  const untilWaiting = async () => {
    for (let attempt = 0; attempt < 200; attempt++) {
      if ((await lockWaiters()) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('Nothing started waiting for the lock.');
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { SERVICE_REVISIONS_KEEP: '2' } });
    acme = await setupOrganization(t, { orgId: 'acme' });
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    retention = t.app.get(RetentionService);
    repository = t.app.get(ArtifactsRepository);
  });
  afterAll(() => t?.close());

  it('keeps the newest SERVICE_REVISIONS_KEEP revisions and removes only blobs no remaining version references', async () => {
    await retention.runOnce();
    const [a1, a2, a3, shared, onlyInFirst] = ['a1', 'a2', 'a3', 'shared', 'only-in-first'].map(fresh);
    await sync('orders', [doc('a', a1), doc('shared', shared), doc('old', onlyInFirst)]);
    await sync('orders', [doc('a', a2), doc('shared', shared)]);
    await sync('orders', [doc('a', a3), doc('shared', shared)]);
    // Another service holds a1: a blob shared across services survives the first service's retention.
    await sync('billing', [doc('a', a1)]);

    const metrics = t.app.get(MetricsService);
    const removedBefore = await metrics.registry.getSingleMetricAsString('sc_blobs_removed_total');
    expect(await retention.runOnce()).toEqual({ revisionsRemoved: 1, blobsRemoved: 1 });

    expect(await revisions('orders')).toEqual([3, 2]);
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders?revision=1', { headers: bearer(acme.adminToken) })).status).toBe(404);
    expect(await blobExists(onlyInFirst)).toBe(false);
    for (const kept of [a1, a2, a3, shared]) expect(await blobExists(kept)).toBe(true);
    const billing = await call<TextArtifactView>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/billing/docs/a', { headers: bearer(acme.adminToken) });
    expect(billing.body.content).toBe(a1);
    // The version of a1 in orders went with revision 1; its blob stays for billing.
    expect(
      await t.dataSource.query(`SELECT 1 FROM artifact_versions WHERE service_id = (SELECT id FROM services WHERE name = 'orders') AND sha256 = ANY($1)`, [[sha(a1), sha(onlyInFirst)]]),
    ).toEqual([]);

    // Nothing more to do: a second run removes nothing.
    expect(await retention.runOnce()).toEqual({ revisionsRemoved: 0, blobsRemoved: 0 });
    expect(removedBefore).not.toEqual(await metrics.registry.getSingleMetricAsString('sc_blobs_removed_total'));
    expect(await metrics.registry.getSingleMetricAsString('sc_revisions_removed_total')).toMatch(/sc_revisions_removed_total\{reason="retention"\} [1-9]/);
  });

  it('keeps every blob referenced while syncs re-using them run concurrently with retention', async () => {
    // Each round: orders' oldest revision holds a blob that billing's sync of this round re-uses.
    for (let round = 0; round < 6; round++) {
      const reused = fresh(`reused-${round}`);
      await sync('orders', [doc('a', reused)]);
      await sync('orders', [doc('a', fresh('newer'))]);
      await sync('orders', [doc('a', fresh('newest'))]);
      const [synced] = await Promise.all([sync('billing', [doc('a', reused), doc('n', fresh('n'))]), retention.runOnce()]);
      expect(synced.status).toBe('created');
      expect(await blobExists(reused)).toBe(true);
      const read = await call<TextArtifactView>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/billing/docs/a', { headers: bearer(acme.adminToken) });
      expect(read.body.content).toBe(reused);
    }
    // No version anywhere points at a missing blob (the foreign keys make that impossible; this says it out loud).
    expect(
      await t.dataSource.query(
        `SELECT v.id FROM artifact_versions v WHERE NOT EXISTS (SELECT 1 FROM artifact_blobs b WHERE b.sha256 = v.sha256)`,
      ),
    ).toEqual([]);
  });

  (onPostgres ? describe : describe.skip)('on two PostgreSQL connections', () => {
    /** Open units of work a test did not commit: ended (rolled back) after it. */
    let abandon: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const end of abandon) await end();
      abandon = [];
    });

    /**
     * Runs `first` in a unit of work and holds that transaction open (its locks too) until `commit()`, which runs
     * `rest` in the same transaction and commits it.
     */
    async function heldOpen<T>(first: () => Promise<T>, rest: (value: T) => Promise<void> = async () => undefined): Promise<{ value: T; commit: () => Promise<void> }> {
      let proceed!: (go: boolean) => void;
      const decided = new Promise<boolean>((resolve) => (proceed = resolve));
      let firstDone!: (value: T) => void;
      const started = new Promise<T>((resolve) => (firstDone = resolve));
      const rollback = new Error('rolled back by the test');
      const transaction = t.app.get(UnitOfWork).run(async () => {
        const value = await first();
        firstDone(value);
        if (!(await decided)) throw rollback;
        await rest(value);
      });
      const ended = transaction.catch((error: unknown) => {
        if (error !== rollback) throw error;
      });
      const value = await Promise.race([started, transaction.then(() => Promise.reject(new Error('the unit of work ended early')))]);
      abandon.push(async () => {
        proceed(false);
        await ended.catch(() => undefined);
      });
      return {
        value,
        commit: async () => {
          proceed(true);
          await ended;
        },
      };
    }

    /** What a sync of `service` writes, stopped right after it stored (and locked) its blobs; commit with `finish`. */
    async function syncHeldOpen(service: string, content: string) {
      const now = new Date();
      const held = await heldOpen(async () => {
        const record = await repository.lockService('acme', service, now);
        await repository.insertBlobs([{ sha256: sha(content), content, size: Buffer.byteLength(content) }], now);
        return record;
      }, async (record) => {
        const number = record.currentRevision + 1;
        const ids = await repository.upsertVersions(
          record.id,
          [{ kind: 'doc', name: 'a', fingerprint: sha(`fp ${content}`), path: 'docs/a.md', sha256: sha(content), size: Buffer.byteLength(content), contextPath: null, contextSha256: null, notesPath: null, notesSha256: null, engine: null, format: null, analysis: { type: 'text', version: 1 }, firstRevision: number }],
          now,
        );
        await repository.insertRevision(
          { serviceId: record.id, number, createdAt: now, tokenId: null, artifactCount: 1, changes: { created: [], updated: [], removed: [] }, bundleDigest: null },
          [{ kind: 'doc', name: 'a', versionId: ids.get('doc/a') ?? '' }],
        );
        await repository.recordSync(record.id, { description: null, repositoryUrl: null }, now, number);
      });
      return held.commit;
    }

    it('retention waits for a sync that locked a blob it re-uses, then keeps the blob', async () => {
      const reused = fresh('reused');
      await sync('orders', [doc('a', reused)]);
      await sync('orders', [doc('a', fresh('b'))]);
      await sync('orders', [doc('a', fresh('c'))]);

      // The sync found the blob stored (orders' oldest revision) and locked it; it has not written its version yet.
      const finish = await syncHeldOpen('billing-held', reused);
      const collecting = retention.runOnce();
      await untilWaiting();
      await finish();
      const removed = await collecting;
      expect(removed.revisionsRemoved).toBeGreaterThanOrEqual(1);
      expect(await blobExists(reused)).toBe(true);
      const read = await call<TextArtifactView>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/billing-held/docs/a', { headers: bearer(acme.adminToken) });
      expect(read.body.content).toBe(reused);
    });

    it('a service deletion waits for a sync of another service re-using its blob, then keeps the blob', async () => {
      const reused = fresh('reused-by-delete');
      await sync('doomed', [doc('a', reused)]);
      const finish = await syncHeldOpen('survivor', reused);
      const deleting = call(t.baseUrl, 'DELETE', '/api/v1/orgs/acme/services/doomed', { headers: bearer(acme.adminToken) });
      await untilWaiting();
      await finish();
      expect((await deleting).status).toBe(204);
      expect(await blobExists(reused)).toBe(true);
      expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/doomed', { headers: bearer(acme.adminToken) })).status).toBe(404);
    });

    it('a sync that re-uses a blob a collector already deleted (not yet committed) stores it again', async () => {
      const reused = fresh('collected-first');
      await sync('gone', [doc('a', reused)]);
      const [service] = (await t.dataSource.query(`SELECT id FROM services WHERE name = 'gone'`)) as Array<{ id: string }>;
      const held = await heldOpen(async () => {
        await repository.lockServiceById(service?.id ?? '');
        const { hashes } = await repository.deleteService(service?.id ?? '');
        return repository.deleteUnreferencedBlobs(hashes);
      });
      expect(held.value).toBe(1);

      const syncing = sync('reuser', [doc('a', reused)]);
      await untilWaiting();
      await held.commit();
      expect((await syncing).status).toBe('created');
      expect(await blobExists(reused)).toBe(true);
      const read = await call<TextArtifactView>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/reuser/docs/a', { headers: bearer(acme.adminToken) });
      expect(read.body.content).toBe(reused);
    });
  });
});
