import type { AuditEntry, PreviewListItem, PreviewView, ServiceDetail, ServiceRevisionItem, SyncArtifact, SyncResult } from '@sc/contracts';
import { RetentionService } from '../../src/modules/artifacts/retention/retention.service';
import { bearer, call, createOrganization, createToken, expectError, memberWithSession, sessionHeaders, type SeededOrganization, useSeededApp } from '../support';
import { COLD_WORKER_TIMEOUT, TOPOLOGY, TOPOLOGY_CONTEXT, bundle, postSync, sampleArtifacts, syncFile } from './bundles';

/**
 * Previews (`service-cli sync --preview`, `POST /gateway/sync?preview=<label>`) over HTTP on a real database (PGlite,
 * or PostgreSQL with TEST_DATABASE_URL): a preview never changes the current revision, is compared with it per
 * diagram, is replaced by a push of the same label, expires by the injected clock, stays in its organization, needs
 * the sync scope to push and editor to delete, and is audited like a sync.
 */
const DAY_MS = 86_400_000;

function diagram(name: string, mermaid: string, context?: string): SyncArtifact {
  return {
    kind: 'architecture-diagram',
    name,
    file: syncFile(`.service/diagrams/${name}.mmd`, mermaid),
    ...(context ? { context: syncFile(`.service/diagrams/${name}.context.json`, context) } : {}),
  };
}

const doc = (content: string): SyncArtifact => ({ kind: 'doc', name: 'runbook', file: syncFile('docs/runbook.md', content) });
const STABLE = 'flowchart LR\n  a[A] --> b[B]\n';
/** The topology with a node renamed (web), one removed (queue) and one added (cache) with its edge. */
const TOPOLOGY_NEXT = TOPOLOGY.replace('web[Web]', 'web[Web shop]').replace('api --> queue>Events]', 'api --> cache[(Cache)]');

/** The database the topology's context names (a context's data source must name one of the bundle). */
const database = (): SyncArtifact => sampleArtifacts().find((artifact) => artifact.name === 'orders-db') as SyncArtifact;
/** The synced revision, with the runbook's content given. */
const base = (runbook = '# Runbook\n'): SyncArtifact[] => [
  diagram('topology', TOPOLOGY, TOPOLOGY_CONTEXT),
  diagram('stable', STABLE),
  diagram('legacy', 'flowchart LR\n  old[Old] --> gone[Gone]\n'),
  database(),
  doc(runbook),
];
const proposed = (): SyncArtifact[] => [
  diagram('topology', TOPOLOGY_NEXT, TOPOLOGY_CONTEXT),
  diagram('stable', STABLE),
  diagram('added', 'flowchart LR\n  n1[New] --> n2[Newer]\n'),
  database(),
  doc('# Runbook, preview\n'),
];

describe('previews (sync --preview)', () => {
  const { t, org: acme } = useSeededApp({ orgId: 'acme' }, { env: { ...COLD_WORKER_TIMEOUT, SERVICE_PREVIEW_DAYS: '3' } });
  let other: SeededOrganization;
  let syncToken: string;
  const preview = (label: string, artifacts: SyncArtifact[], service = 'orders', token = syncToken) =>
    postSync<SyncResult>(t.baseUrl, token, bundle(artifacts, service), { query: `?preview=${encodeURIComponent(label)}` });
  const get = <T>(path: string, headers: Record<string, string> = bearer(acme.adminToken)) => call<T>(t.baseUrl, 'GET', `/api/v1/orgs/acme/services${path}`, { headers });
  const audit = async (action: string) => (await call<AuditEntry[]>(t.baseUrl, 'GET', `/api/v1/orgs/acme/audit?action=${action}`, { headers: sessionHeaders(acme.owner) })).body;
  const count = async (sql: string, params: unknown[] = []) => Number(((await t.dataSource.query(sql, params)) as Array<{ n: number }>)[0]?.n);
  const blobCount = (content: string) => count('SELECT count(*)::int AS n FROM artifact_blobs WHERE sha256 = $1', [syncFile('x', content).sha256]);

  beforeAll(async () => {
    other = await createOrganization(t, acme, { orgId: 'other' });
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    expect((await postSync(t.baseUrl, syncToken, bundle(base()))).status).toBe(201);
  });

  it('stores the bundle as a preview: the current revision, what readers see and what a sync compares against stay as they were', async () => {
    const before = (await get<ServiceDetail>('/orders')).body;
    const pushed = await preview('feature/cache', proposed());

    expect(pushed.status).toBe(201);
    const expiresAt = new Date(t.clock.now().getTime() + 3 * DAY_MS);
    expect(pushed.body).toMatchObject({ service: 'orders', revision: 1, status: 'unchanged', preview: { label: 'feature/cache' } });
    expect(pushed.body.preview?.url).toBe(`${t.config.publicUrl.replace(/\/+$/, '')}/orgs/acme/services/orders/previews/${pushed.body.preview?.id}`);
    expect(Math.abs(Date.parse(pushed.body.preview?.expiresAt ?? '') - expiresAt.getTime())).toBeLessThan(60_000);
    expect(pushed.body.created).toEqual([{ kind: 'architecture-diagram', name: 'added' }]);
    expect(pushed.body.updated).toEqual([{ kind: 'architecture-diagram', name: 'topology' }, { kind: 'doc', name: 'runbook' }]);
    expect(pushed.body.removed).toEqual([{ kind: 'architecture-diagram', name: 'legacy' }]);

    const after = (await get<ServiceDetail>('/orders')).body;
    expect(after).toEqual(before);
    expect((await get<ServiceRevisionItem[]>('/orders/revisions')).body.map((revision) => revision.number)).toEqual([1]);
    expect((await get<{ content: string }>('/orders/docs/runbook')).body.content).toBe('# Runbook\n');
    // The next sync compares with revision 1, not with the preview: the same bundle again is unchanged.
    const again = await postSync<SyncResult>(t.baseUrl, syncToken, bundle(base()));
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('unchanged');
  });

  it('lists open previews and answers each diagram compared with the current revision', async () => {
    const pushed = await preview('compare-me', proposed());
    const id = pushed.body.preview?.id ?? '';
    const list = await get<PreviewListItem[]>('/orders/previews');
    expect(list.status).toBe(200);
    expect(list.body.map((item) => item.label)).toContain('compare-me');

    const view = await get<PreviewView>(`/orders/previews/${id}`, sessionHeaders((await memberWithSession(t, acme, 'viewer')).session));
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ id, label: 'compare-me', service: 'orders', currentRevision: 1, baseRevision: 1 });
    const byName = new Map(view.body.diagrams.map((item) => [item.name, item]));
    expect([...byName.keys()]).toEqual(['added', 'legacy', 'stable', 'topology']);
    expect(byName.get('stable')).toMatchObject({ status: 'unchanged', diagram: null, changes: null });
    expect(byName.get('legacy')).toMatchObject({ status: 'removed', diagram: null, counts: { added: 0, changed: 0 } });
    expect(byName.get('added')).toMatchObject({ status: 'added', counts: { added: 3, changed: 0, removed: 0 } });
    const topology = byName.get('topology');
    expect(topology?.status).toBe('changed');
    expect(topology?.diagram).toMatchObject({ name: 'topology', mermaid: TOPOLOGY_NEXT });
    const changes = topology?.changes as { nodes: { added: Array<{ id: string }>; removed: Array<{ id: string }>; changed: Array<{ key: string }> } };
    expect(changes.nodes.added.map((node) => node.id)).toEqual(['cache']);
    expect(changes.nodes.removed.map((node) => node.id)).toEqual(['queue']);
    expect(changes.nodes.changed.map((node) => node.key)).toEqual(['web']);
    expect(topology?.counts).toEqual({ added: 2, changed: 1, removed: 2 });
  });

  it('keeps one preview per label: a new push replaces it, and what only the old one held is removed', async () => {
    const first = await preview('feature/replace', base('# only in the first push\n'));
    expect(await blobCount('# only in the first push\n')).toBe(1);
    const second = await preview('feature/replace', proposed());
    expect(second.status).toBe(201);
    expect(second.body.preview?.id).not.toBe(first.body.preview?.id);

    expectError(await get(`/orders/previews/${first.body.preview?.id}`), 404, 'preview_not_found');
    const labels = (await get<PreviewListItem[]>('/orders/previews')).body.map((item) => item.label);
    expect(labels.filter((label) => label === 'feature/replace')).toHaveLength(1);
    expect(await blobCount('# only in the first push\n')).toBe(0);
  });

  it('expires after SERVICE_PREVIEW_DAYS: 404 at once by the clock, removed by the retention job with what only it held', async () => {
    const pushed = await preview('short-lived', base('# short-lived\n'));
    const id = pushed.body.preview?.id ?? '';
    t.clock.advance(3 * DAY_MS + 1000);
    try {
      expectError(await get(`/orders/previews/${id}`), 404, 'preview_not_found');
      expect((await get<PreviewListItem[]>('/orders/previews')).body).toEqual([]);
      // Still stored until the job runs.
      expect(await count('SELECT count(*)::int AS n FROM service_previews WHERE id = $1', [id])).toBe(1);

      const removed = await t.app.get(RetentionService).runOnce();
      expect(removed.previewsRemoved).toBeGreaterThanOrEqual(1);
      expect(removed.revisionsRemoved).toBe(0);
      expect(await count('SELECT count(*)::int AS n FROM service_previews WHERE id = $1', [id])).toBe(0);
      expect(await blobCount('# short-lived\n')).toBe(0);
      // The current revision is whole.
      expect((await get<{ content: string }>('/orders/docs/runbook')).body.content).toBe('# Runbook\n');
      expect((await get('/orders/diagrams/topology')).status).toBe(200);
    } finally {
      t.clock.advance(-(3 * DAY_MS + 1000));
    }
  });

  it('keeps previews in their organization', async () => {
    const pushed = await preview('isolated', proposed());
    const id = pushed.body.preview?.id ?? '';
    // Another organization's admin cannot read or delete it: its route answers 404 organization_not_found.
    expectError(await get(`/orders/previews/${id}`, bearer(other.adminToken)), 404, 'organization_not_found');
    expectError(await call(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/services/orders/previews/${id}`, { headers: bearer(other.adminToken) }), 404, 'organization_not_found');
    // Its sync token pushes into its own organization, which has no service "orders": nothing is created there.
    const otherSync = (await createToken(t, other.owner, 'other', { name: 'ci', scopes: ['sync'] })).token;
    expectError(await preview('isolated', proposed(), 'orders', otherSync), 404, 'service_not_found');
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/other/services/orders', { headers: bearer(other.adminToken) })).status).toBe(404);
    expect((await get(`/orders/previews/${id}`)).status).toBe(200);
    // A preview id of acme read through another service name of acme is not found either.
    await postSync(t.baseUrl, syncToken, bundle([doc('# billing\n')], 'billing'));
    expectError(await get(`/billing/previews/${id}`), 404, 'preview_not_found');
    expectError(await get('/orders/previews/not-a-uuid'), 404, 'preview_not_found');
  });

  it('needs the sync scope to push, any member to read and an editor to delete', async () => {
    const readToken = (await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
    expect((await preview('scoped', proposed(), 'orders', readToken)).status).toBe(403);
    expect((await preview('scoped', proposed(), 'orders', acme.adminToken)).status).toBe(403);
    const pushed = await preview('scoped', proposed());
    const id = pushed.body.preview?.id ?? '';
    expect((await get('/orders/previews', bearer(readToken))).status).toBe(200);
    expect((await get('/orders/previews', bearer(syncToken))).status).toBe(403);

    const remove = (headers: Record<string, string>) => call(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/services/orders/previews/${id}`, { headers });
    const viewer = await memberWithSession(t, acme, 'viewer');
    const editor = await memberWithSession(t, acme, 'editor');
    for (const headers of [sessionHeaders(viewer.session), bearer(readToken), bearer(syncToken)]) expect((await remove(headers)).status).toBe(403);
    expect((await remove(sessionHeaders(editor.session))).status).toBe(204);
    expectError(await get(`/orders/previews/${id}`), 404, 'preview_not_found');
    expectError(await remove(sessionHeaders(editor.session)), 404, 'preview_not_found');
    expect((await audit('service.preview_deleted'))[0]).toMatchObject({ before: { preview: id, label: 'scoped' }, actor: { type: 'user' } });
  });

  it('validates like a sync (nothing stored on a refusal) and audits pushes and refusals', async () => {
    const previewsBefore = await count('SELECT count(*)::int AS n FROM service_previews');
    const invalid = await preview('broken', [diagram('topology', 'flowchart LR\n  a[unclosed --> b\n')]);
    expectError(invalid, 422, 'sync_validation_failed');
    for (const label of ['', 'has space', 'x'.repeat(201), '-leading-dash']) {
      const refused = await preview(label, proposed());
      expectError(refused, 400, 'invalid_preview_label');
    }
    const twice = await postSync(t.baseUrl, syncToken, bundle(proposed()), { query: '?preview=a&preview=b' });
    expectError(twice, 400, 'invalid_preview_label');
    expect(await count('SELECT count(*)::int AS n FROM service_previews')).toBe(previewsBefore);
    // A first preview of a service never synced creates nothing: readers would see the service.
    expectError(await preview('new', proposed(), 'brand-new'), 404, 'service_not_found');
    expect((await get('/brand-new')).status).toBe(404);

    const refusals = await audit('service.sync_refused');
    expect(refusals.find((entry) => (entry.after as { preview?: string } | null)?.preview === 'has space')).toMatchObject({ after: { code: 'invalid_preview_label' } });
    const pushed = await preview('audited', proposed());
    const [entry] = await audit('service.previewed');
    expect(entry).toMatchObject({
      target: { type: 'service', label: 'orders' },
      actor: { type: 'token' },
      after: { preview: pushed.body.preview?.id, label: 'audited', currentRevision: 1, created: 1, updated: 2, removed: 1 },
    });
  });

  it('deletes the previews with their service', async () => {
    await postSync(t.baseUrl, syncToken, bundle(base(), 'doomed'));
    await preview('one', proposed(), 'doomed');
    await preview('two', base('# only in a doomed preview\n'), 'doomed');
    expect((await call(t.baseUrl, 'DELETE', '/api/v1/orgs/acme/services/doomed', { headers: bearer(acme.adminToken) })).status).toBe(204);
    expect(await count(`SELECT count(*)::int AS n FROM service_previews p WHERE NOT EXISTS (SELECT 1 FROM services s WHERE s.id = p.service_id)`)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM service_previews WHERE label IN ('one', 'two')`)).toBe(0);
    expect(await blobCount('# only in a doomed preview\n')).toBe(0);
    expect((await audit('service.deleted'))[0]).toMatchObject({ before: { name: 'doomed', previews: 2 } });
  });

  it('keeps a version a preview holds when retention prunes revisions, and a later sync of it records its first revision', async () => {
    const pushed = await preview('kept', proposed());
    expect(pushed.status).toBe(201);
    // A sync of the previewed bundle re-uses the preview's versions; they now belong to revision 2.
    const synced = await postSync<SyncResult>(t.baseUrl, syncToken, bundle(proposed()));
    expect(synced.body.revision).toBe(2);
    const detail = (await get<ServiceDetail>('/orders')).body;
    expect(detail.artifacts.find((artifact) => artifact.name === 'added')?.sinceRevision).toBe(2);
    expect(detail.artifacts.find((artifact) => artifact.name === 'stable')?.sinceRevision).toBe(1);
  });
});
