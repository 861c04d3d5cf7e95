import type { TextArtifactView } from '@sc/contracts';
import { MetricsService } from '../../src/modules/metrics/metrics.service';
import { bearer, call } from '../support';
import { doc, sha, useRetentionApp } from './retention-fixture';

/**
 * Revision retention (SERVICE_REVISIONS_KEEP) and blob collection on a real database: PGlite, or PostgreSQL with
 * TEST_DATABASE_URL. The cases that hold a transaction open on a second real connection are in
 * retention-concurrency.postgres.spec.ts (registered only with PostgreSQL).
 */
describe('revision retention and blob collection', () => {
  const { app, fresh, sync, blobExists, revisions } = useRetentionApp();

  it('keeps the newest SERVICE_REVISIONS_KEEP revisions and removes only blobs no remaining version references', async () => {
    await app.retention.runOnce();
    const [a1, a2, a3, shared, onlyInFirst] = ['a1', 'a2', 'a3', 'shared', 'only-in-first'].map(fresh);
    await sync('orders', [doc('a', a1), doc('shared', shared), doc('old', onlyInFirst)]);
    await sync('orders', [doc('a', a2), doc('shared', shared)]);
    await sync('orders', [doc('a', a3), doc('shared', shared)]);
    // Another service holds a1: a blob shared across services survives the first service's retention.
    await sync('billing', [doc('a', a1)]);

    const metrics = app.t.app.get(MetricsService);
    const removedBefore = await metrics.registry.getSingleMetricAsString('sc_blobs_removed_total');
    expect(await app.retention.runOnce()).toEqual({ revisionsRemoved: 1, blobsRemoved: 1, previewsRemoved: 0 });

    expect(await revisions('orders')).toEqual([3, 2]);
    expect((await call(app.t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders?revision=1', { headers: bearer(app.acme.adminToken) })).status).toBe(404);
    expect(await blobExists(onlyInFirst)).toBe(false);
    for (const kept of [a1, a2, a3, shared]) expect(await blobExists(kept)).toBe(true);
    const billing = await call<TextArtifactView>(app.t.baseUrl, 'GET', '/api/v1/orgs/acme/services/billing/docs/a', { headers: bearer(app.acme.adminToken) });
    expect(billing.body.content).toBe(a1);
    // The version of a1 in orders went with revision 1; its blob stays for billing.
    expect(
      await app.t.dataSource.query(`SELECT 1 FROM artifact_versions WHERE service_id = (SELECT id FROM services WHERE name = 'orders') AND sha256 = ANY($1)`, [[sha(a1), sha(onlyInFirst)]]),
    ).toEqual([]);

    // Nothing more to do: a second run removes nothing.
    expect(await app.retention.runOnce()).toEqual({ revisionsRemoved: 0, blobsRemoved: 0, previewsRemoved: 0 });
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
      const [synced] = await Promise.all([sync('billing', [doc('a', reused), doc('n', fresh('n'))]), app.retention.runOnce()]);
      expect(synced.status).toBe('created');
      expect(await blobExists(reused)).toBe(true);
      const read = await call<TextArtifactView>(app.t.baseUrl, 'GET', '/api/v1/orgs/acme/services/billing/docs/a', { headers: bearer(app.acme.adminToken) });
      expect(read.body.content).toBe(reused);
    }
    // No version anywhere points at a missing blob (the foreign keys make that impossible; this says it out loud).
    expect(
      await app.t.dataSource.query(
        `SELECT v.id FROM artifact_versions v WHERE NOT EXISTS (SELECT 1 FROM artifact_blobs b WHERE b.sha256 = v.sha256)`,
      ),
    ).toEqual([]);
  });
});
