import type { TextArtifactView } from '@sc/contracts';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { bearer, call } from '../support';
import { doc, sha, useRetentionApp } from './retention-fixture';

/**
 * Retention and service deletion against a sync running at the same time, on two real PostgreSQL connections: one
 * test holds a transaction (and its locks) open while the other side runs, and checks that it waited and that no
 * blob still referenced was deleted. PGlite has a single connection, so jest.integration.cjs registers
 * *.postgres.spec.ts only with TEST_DATABASE_URL.
 */
describe('revision retention and blob collection on two PostgreSQL connections', () => {
  const { app, fresh, sync, blobExists, untilWaiting } = useRetentionApp();
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
    const transaction = app.t.app.get(UnitOfWork).run(async () => {
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
      const record = await app.repository.lockService('acme', service, now);
      await app.blobs.insertBlobs([{ sha256: sha(content), content, size: Buffer.byteLength(content) }], now);
      return record;
    }, async (record) => {
      const number = record.currentRevision + 1;
      const ids = await app.repository.upsertVersions(
        record.id,
        [{ kind: 'doc', name: 'a', fingerprint: sha(`fp ${content}`), path: 'docs/a.md', sha256: sha(content), size: Buffer.byteLength(content), contextPath: null, contextSha256: null, notesPath: null, notesSha256: null, engine: null, format: null, analysis: { type: 'text', version: 1 }, firstRevision: number }],
        now,
      );
      await app.repository.insertRevision(
        { serviceId: record.id, number, createdAt: now, tokenId: null, artifactCount: 1, changes: { created: [], updated: [], removed: [] }, bundleDigest: null, syncedBy: null, source: null },
        [{ kind: 'doc', name: 'a', versionId: ids.get('doc/a') ?? '' }],
      );
      await app.repository.recordSync(record.id, { description: null, repositoryUrl: null }, now, number);
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
    const collecting = app.retention.runOnce();
    await untilWaiting();
    await finish();
    const removed = await collecting;
    expect(removed.revisionsRemoved).toBeGreaterThanOrEqual(1);
    expect(await blobExists(reused)).toBe(true);
    const read = await call<TextArtifactView>(app.t.baseUrl, 'GET', '/api/v1/orgs/acme/services/billing-held/docs/a', { headers: bearer(app.acme.adminToken) });
    expect(read.body.content).toBe(reused);
  });

  it('a service deletion waits for a sync of another service re-using its blob, then keeps the blob', async () => {
    const reused = fresh('reused-by-delete');
    await sync('doomed', [doc('a', reused)]);
    const finish = await syncHeldOpen('survivor', reused);
    const deleting = call(app.t.baseUrl, 'DELETE', '/api/v1/orgs/acme/services/doomed', { headers: bearer(app.acme.adminToken) });
    await untilWaiting();
    await finish();
    expect((await deleting).status).toBe(204);
    expect(await blobExists(reused)).toBe(true);
    expect((await call(app.t.baseUrl, 'GET', '/api/v1/orgs/acme/services/doomed', { headers: bearer(app.acme.adminToken) })).status).toBe(404);
  });

  it('a sync that re-uses a blob a collector already deleted (not yet committed) stores it again', async () => {
    const reused = fresh('collected-first');
    await sync('gone', [doc('a', reused)]);
    const [service] = (await app.t.dataSource.query(`SELECT id FROM services WHERE name = 'gone'`)) as Array<{ id: string }>;
    const held = await heldOpen(async () => {
      await app.repository.lockServiceById(service?.id ?? '');
      const { hashes } = await app.repository.deleteService(service?.id ?? '');
      return app.blobs.deleteUnreferencedBlobs(hashes);
    });
    expect(held.value).toBe(1);

    const syncing = sync('reuser', [doc('a', reused)]);
    await untilWaiting();
    await held.commit();
    expect((await syncing).status).toBe('created');
    expect(await blobExists(reused)).toBe(true);
    const read = await call<TextArtifactView>(app.t.baseUrl, 'GET', '/api/v1/orgs/acme/services/reuser/docs/a', { headers: bearer(app.acme.adminToken) });
    expect(read.body.content).toBe(reused);
  });
});
