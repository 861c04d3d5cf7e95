import type { DatabaseView, DiagramDiff, DiagramView, ErrorBody, FlowView, JobsView, ServiceDetail, ServiceListItem, ServiceRevisionItem, SummaryView, SyncResult, TextArtifactView } from '@sc/contracts';
import { gzipSync } from 'node:zlib';
import { bearer, call, createOrganization, createToken, expectErrors, sessionHeaders, type SeededOrganization, useSeededApp } from '../support';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts, syncFile, withContent, TOPOLOGY } from './bundles';

/**
 * The gateway and the read API over HTTP on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL),
 * with bundles built in the test. The CLI end to end is in cli-sync.e2e.spec.ts.
 */
describe('artifact sync gateway and read API', () => {
  const { t, org: acme } = useSeededApp({ orgId: 'acme' }, { env: { ...COLD_WORKER_TIMEOUT, SERVICE_BODY_LIMIT: '128kb', SERVICE_SYNC_MAX_BYTES: '256kb', SERVICE_SYNC_MAX_FILE_BYTES: '64kb', SERVICE_SYNC_MAX_ARTIFACTS: '20' } });
  let syncToken: string;
  let readToken: string;
  const read = <T>(path: string, token = readToken) => call<T>(t.baseUrl, 'GET', `/api/v1/orgs/acme/services${path}`, { headers: bearer(token) });

  beforeAll(async () => {
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    readToken = (await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
  });

  it('stores a first sync as revision 1 and serves every artifact kind back', async () => {
    const synced = await postSync<SyncResult>(t.baseUrl, syncToken, bundle(sampleArtifacts()));
    expect(synced.status).toBe(201);
    expect(synced.body).toMatchObject({ organizationId: 'acme', service: 'orders', revision: 1, status: 'created', updated: [], unchanged: [], removed: [] });
    expect(synced.body.created).toHaveLength(9);
    // The dashboard page of the service, from SERVICE_PUBLIC_URL (the test app's real address).
    expect(synced.body.serviceUrl).toBe(`${t.baseUrl}/orgs/acme/services/orders`);

    const services = await read<ServiceListItem[]>('');
    expect(services.body).toEqual([
      expect.objectContaining({ name: 'orders', description: 'Takes orders', repositoryUrl: 'https://git.example/orders', currentRevision: 1, artifactCount: 9 }),
    ]);
    const detail = await read<ServiceDetail>('/orders', acme.adminToken);
    expect(detail.body.artifacts.map((artifact) => `${artifact.kind}/${artifact.name}`).sort()).toEqual(
      synced.body.created.map((ref) => `${ref.kind}/${ref.name}`).sort(),
    );

    const diagram = await read<DiagramView<{ nodes: Array<{ id: string; overlay?: { type?: string } }>; groups: Array<{ id: string }> }, { applied: string[] }>>('/orders/diagrams/topology');
    expect(diagram.status).toBe(200);
    expect(diagram.body).toMatchObject({ name: 'topology', kind: 'flowchart', revision: 1, mermaid: TOPOLOGY, context: { name: 'Orders topology' } });
    expect(diagram.body.graph.nodes.map((node) => node.id).sort()).toEqual(['api', 'db', 'queue', 'web']);
    expect(diagram.body.graph.nodes.find((node) => node.id === 'db')?.overlay?.type).toBe('data-source');
    expect(diagram.body.report?.applied.length).toBeGreaterThan(0);

    const flow = await read<FlowView<{ nodes: Array<{ id: string }>; edges: unknown[] }>>('/orders/flows/checkout');
    expect(flow.body).toMatchObject({ kind: 'sequence', notes: '# Checkout\nIdempotent by order key.\n' });
    expect(flow.body.graph.nodes.map((node) => node.id)).toEqual(['web', 'api']);
    expect(flow.body.graph.edges).toHaveLength(2);

    const orders = await read<DatabaseView>('/orders/databases/orders-db');
    expect(orders.body.tables).toEqual([
      {
        name: 'orders',
        primaryKey: ['id'],
        columns: [
          { name: 'id', type: 'uuid', nullable: false, primaryKey: true, unique: false, default: null, references: null },
          { name: 'total', type: 'numeric(10, 2)', nullable: false, primaryKey: false, unique: false, default: null, references: null },
        ],
      },
    ]);
    const sessions = await read<DatabaseView>('/orders/databases/sessions');
    expect(sessions.body).toMatchObject({ engine: 'dynamodb', collections: ['Sessions'], document: { TableName: 'Sessions' }, tables: [] });
    expect((await read<unknown[]>('/orders/databases')).body).toHaveLength(2);

    const jobs = await read<JobsView<{ edges: unknown[] }>>('/orders/jobs');
    expect(jobs.body.notes).toBe('# Jobs\n- nightly-report\n');
    expect(jobs.body.dependencies?.graph.edges).toHaveLength(1);
    expect((await read<SummaryView>('/orders/summary')).body.markdown).toBe('# Orders\nTakes orders.\n');
    expect((await read<TextArtifactView>('/orders/docs/runbook')).body.content).toBe('# Runbook\n');
    expect((await read<TextArtifactView>('/orders/api-specs/public-api')).body).toMatchObject({ format: 'openapi', path: 'api/openapi.yaml' });
  });

  it('answers "unchanged" without a new revision when the same bundle arrives again', async () => {
    const before = (await read<ServiceDetail>('/orders')).body;
    t.clock.advance(60_000);
    const again = await postSync<SyncResult>(t.baseUrl, syncToken, bundle(sampleArtifacts()));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ revision: 1, status: 'unchanged', created: [], updated: [], removed: [] });
    expect(again.body.unchanged).toHaveLength(9);
    const after = (await read<ServiceDetail>('/orders')).body;
    expect(after.currentRevision).toBe(1);
    expect(Date.parse(after.lastSyncedAt ?? '')).toBeGreaterThan(Date.parse(before.lastSyncedAt ?? ''));
    expect((await read<ServiceRevisionItem[]>('/orders/revisions')).body).toHaveLength(1);
  });

  it('changes only the edited artifact, keeps the old version readable and diffs the two', async () => {
    const edited = withContent(sampleArtifacts(), 'topology', TOPOLOGY.replace('api --> queue>Events]', 'api --> cache[(Cache)]'));
    const synced = await postSync<SyncResult>(t.baseUrl, syncToken, bundle(edited));
    expect(synced.status).toBe(201);
    expect(synced.body).toMatchObject({ revision: 2, created: [], removed: [], updated: [{ kind: 'architecture-diagram', name: 'topology' }] });
    expect(synced.body.unchanged).toHaveLength(8);

    const detail = (await read<ServiceDetail>('/orders')).body;
    const since = Object.fromEntries(detail.artifacts.map((artifact) => [artifact.name, artifact.sinceRevision]));
    expect(since).toMatchObject({ topology: 2, checkout: 1, 'orders-db': 1 });
    expect((await read<DiagramView>('/orders/diagrams/topology?revision=1')).body.mermaid).toBe(TOPOLOGY);

    const diff = await read<DiagramDiff<{ id: string }, { source: string; target: string }>>('/orders/diagrams/topology/diff?from=1&to=2');
    expect(diff.body).toMatchObject({ name: 'topology', from: 1, to: 2, changed: true });
    expect(diff.body.nodes.added.map((node) => node.id)).toEqual(['cache']);
    expect(diff.body.nodes.removed.map((node) => node.id)).toEqual(['queue']);
    expect(diff.body.edges.added.map((edge) => `${edge.source}->${edge.target}`)).toEqual(['api->cache']);
    expect(diff.body.edges.removed.map((edge) => `${edge.source}->${edge.target}`)).toEqual(['api->queue']);
    expect((await read<DiagramDiff>('/orders/diagrams/topology/diff?from=2&to=2')).body.changed).toBe(false);
  });

  it('drops a removed artifact from the current view and keeps it in history', async () => {
    const withoutRunbook = withContent(sampleArtifacts(), 'topology', TOPOLOGY.replace('api --> queue>Events]', 'api --> cache[(Cache)]')).filter(
      (artifact) => artifact.name !== 'runbook',
    );
    const synced = await postSync<SyncResult>(t.baseUrl, syncToken, bundle(withoutRunbook));
    expect(synced.body).toMatchObject({ revision: 3, status: 'created', created: [], updated: [], removed: [{ kind: 'doc', name: 'runbook' }] });

    const missing = await read<ErrorBody>('/orders/docs/runbook');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('artifact_not_found');
    expect((await read<unknown[]>('/orders/docs')).body).toEqual([]);
    expect((await read<TextArtifactView>('/orders/docs/runbook?revision=2')).body.content).toBe('# Runbook\n');
    const revisions = (await read<ServiceRevisionItem[]>('/orders/revisions')).body;
    expect(revisions.map((revision) => [revision.number, revision.artifactCount])).toEqual([[3, 8], [2, 9], [1, 9]]);
    expect(revisions[0].removed).toEqual([{ kind: 'doc', name: 'runbook' }]);
  });

  it('answers clear errors for unknown services, artifacts and revisions', async () => {
    const responses = await expectErrors(read, [
      ['/nope', 404, 'service_not_found'],
      ['/orders/diagrams/nope', 404, 'artifact_not_found'],
      ['/orders/diagrams/topology?revision=99', 404, 'revision_not_found'],
      ['/orders/diagrams/topology?revision=latest', 400, 'invalid_revision'],
      ['/orders/diagrams/topology/diff?from=1', 400, 'invalid_revision'],
      ['/orders/diagrams/nope/diff?from=1&to=2', 404, 'artifact_not_found'],
    ]);
    for (const response of responses) expect(response.body.error.message).toMatch(/\.$/);
  });

  it('refuses an invalid bundle with every problem listed per artifact and stores nothing', async () => {
    const artifacts = sampleArtifacts().map((artifact) => {
      if (artifact.name === 'topology') {
        const context = JSON.stringify({ nodes: { api: { type: 'blob' }, web: { type: 'shape', shape: 'star' } } });
        return { ...artifact, context: syncFile('.service/diagrams/topology.context.json', context) };
      }
      if (artifact.name === 'checkout') return { ...artifact, file: syncFile(artifact.file.path, 'sequenceDiagram\n  web->>\n') };
      if (artifact.name === 'orders-db') return { ...artifact, file: syncFile(artifact.file.path, 'CREATE TABLE broken (id int,,);') };
      return artifact;
    });
    const refused = await postSync<ErrorBody>(t.baseUrl, syncToken, bundle(artifacts, 'orders'));
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('sync_validation_failed');
    const details = refused.body.error.details as unknown as Array<{ code: string; artifact: { name: string }; file: string; path?: string; line?: number }>;
    expect(details.filter((detail) => detail.artifact.name === 'topology').map((detail) => detail.path)).toEqual(['$.nodes.api.type', '$.nodes.web.shape']);
    expect(details.find((detail) => detail.artifact.name === 'checkout')).toMatchObject({ code: 'mermaid_syntax_error', file: '.service/flows/checkout.mmd' });
    expect(details.find((detail) => detail.artifact.name === 'orders-db')).toMatchObject({ code: 'sql_syntax_error', line: 1 });
    expect((await read<ServiceDetail>('/orders')).body.currentRevision).toBe(3);

    const newService = await postSync<ErrorBody>(t.baseUrl, syncToken, bundle(artifacts, 'payments'));
    expect(newService.status).toBe(422);
    expect((await read<ErrorBody>('/payments')).status).toBe(404);
  });

  it('refuses a context whose dbConfig names a database missing from the sync', async () => {
    const withoutDatabase = sampleArtifacts().filter((artifact) => artifact.name !== 'orders-db');
    const refused = await postSync<ErrorBody>(t.baseUrl, syncToken, bundle(withoutDatabase, 'inventory'));
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ code: 'context_unknown_database', file: '.service/diagrams/topology.context.json' })]);
  });

  it('checks the hashes the CLI sent against the content', async () => {
    const [first, ...rest] = sampleArtifacts();
    const tampered = { ...first, file: { ...first.file, content: `${first.file.content}  api --> evil\n` } };
    const refused = await postSync<ErrorBody>(t.baseUrl, syncToken, bundle([tampered, ...rest], 'tampered'));
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ code: 'sha256_mismatch', file: '.service/diagrams/topology.mmd' })]);
  });

  it('answers 400 with JSON paths for a malformed bundle', async () => {
    const refused = await postSync<ErrorBody>(t.baseUrl, syncToken, { version: 1, service: {}, artifacts: [{ kind: 'video' }] }, { gzip: false });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_bundle');
    expect(refused.body.error.details.map((detail) => detail.path)).toEqual(
      expect.arrayContaining(['$.service.name', '$.artifacts[0].kind', '$.artifacts[0].file']),
    );
  });

  describe('authentication and organizations', () => {
    let globex: SeededOrganization;
    let globexSync: string;

    beforeAll(async () => {
      globex = await createOrganization(t, acme, { orgId: 'globex' });
      globexSync = (await createToken(t, globex.owner, 'globex', { name: 'ci', scopes: ['sync'] })).token;
    });

    it('refuses requests without a token, with a session, or with a token lacking the sync scope', async () => {
      expect((await postSync(t.baseUrl, undefined, bundle(sampleArtifacts()))).status).toBe(401);
      expect((await postSync(t.baseUrl, 'sct_not-a-real-token', bundle(sampleArtifacts()))).status).toBe(401);
      for (const token of [readToken, acme.adminToken]) {
        const refused = await postSync<ErrorBody>(t.baseUrl, token, bundle(sampleArtifacts()));
        expect([refused.status, refused.body.error.code]).toEqual([403, 'insufficient_scope']);
      }
      const session = await fetch(`${t.baseUrl}/api/v1/gateway/sync`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...sessionHeaders(acme.owner) },
        body: JSON.stringify(bundle(sampleArtifacts())),
      });
      expect(session.status).toBe(403);
    });

    it("writes into the token's own organization only, and other organizations cannot read it", async () => {
      const synced = await postSync<SyncResult>(t.baseUrl, globexSync, bundle(sampleArtifacts(), 'orders'));
      expect(synced.body).toMatchObject({ organizationId: 'globex', revision: 1, status: 'created' });
      // acme's service of the same name is untouched.
      expect((await read<ServiceDetail>('/orders')).body.currentRevision).toBe(3);
      const crossRead = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/globex/services/orders', { headers: bearer(readToken) });
      expect([crossRead.status, crossRead.body.error.code]).toEqual([404, 'organization_not_found']);
      const crossSession = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services', { headers: sessionHeaders(globex.owner) });
      expect(crossSession.status).toBe(404);
      expect((await call<ServiceListItem[]>(t.baseUrl, 'GET', '/api/v1/orgs/globex/services', { headers: sessionHeaders(globex.owner) })).body).toHaveLength(1);
    });

    it('lets a viewer session read, but not a sync-only token', async () => {
      expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders', { headers: sessionHeaders(acme.owner) })).status).toBe(200);
      const syncRead = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services', { headers: bearer(syncToken) });
      expect(syncRead.status).toBe(403);
    });
  });

  describe('limits', () => {
    it('answers 413 naming the per-file limit', async () => {
      const big = withContent(sampleArtifacts(), 'runbook', `# Big\n${'x'.repeat(70 * 1024)}`);
      const refused = await postSync<ErrorBody>(t.baseUrl, syncToken, bundle(big, 'big-file'));
      expect([refused.status, refused.body.error.code]).toEqual([413, 'sync_file_too_large']);
      expect(refused.body.error.message).toContain('SERVICE_SYNC_MAX_FILE_BYTES');
      expect(refused.body.error.details[0]).toMatchObject({ file: 'docs/runbook.md' });
    });

    it('answers 413 naming the per-sync limit', async () => {
      const docs = Array.from({ length: 5 }, (_, index) => ({ kind: 'doc' as const, name: `doc-${index}`, file: syncFile(`docs/${index}.md`, 'y'.repeat(60 * 1024)) }));
      const refused = await postSync<ErrorBody>(t.baseUrl, syncToken, bundle(docs, 'big-sync'));
      expect(refused.status).toBe(413);
      expect(refused.body.error.message).toContain('SERVICE_SYNC_MAX_BYTES');
    });

    it('applies the sync limit, not the general request body limit, to the gateway', async () => {
      const docs = Array.from({ length: 3 }, (_, index) => ({ kind: 'doc' as const, name: `doc-${index}`, file: syncFile(`docs/${index}.md`, 'z'.repeat(60 * 1024)) }));
      const accepted = await postSync<SyncResult>(t.baseUrl, syncToken, bundle(docs, 'over-body-limit'));
      expect(accepted.status).toBe(201);
      expect(accepted.body.status).toBe('created');
    });

    it('answers 413 naming the artifact-count limit', async () => {
      const docs = Array.from({ length: 21 }, (_, index) => ({ kind: 'doc' as const, name: `doc-${index}`, file: syncFile(`docs/${index}.md`, `# ${index}`) }));
      const refused = await postSync<ErrorBody>(t.baseUrl, syncToken, bundle(docs, 'many'));
      expect([refused.status, refused.body.error.code]).toEqual([413, 'sync_too_many_artifacts']);
    });

    it('answers 413 to a gzip bomb without inflating it', async () => {
      const bomb = gzipSync(Buffer.from(`{"version":1,"pad":"${'0'.repeat(64 * 1024 * 1024)}"}`));
      expect(bomb.length).toBeLessThan(256 * 1024);
      const refused = await postSync<ErrorBody>(t.baseUrl, syncToken, undefined, { raw: bomb });
      expect(refused.status).toBe(413);
      expect((await read<ErrorBody>('/big-sync')).status).toBe(404);
    });
  });

  describe('concurrency', () => {
    it('serializes parallel syncs of one service: consecutive revisions, none lost, no duplicates', async () => {
      const variants = Array.from({ length: 6 }, (_, index) => withContent(sampleArtifacts(), 'runbook', `# Runbook v${index}\n`));
      const results = await Promise.all(variants.map((artifacts) => postSync<SyncResult>(t.baseUrl, syncToken, bundle(artifacts, 'parallel'))));
      expect(results.map((result) => result.status)).toEqual(Array(6).fill(201));
      expect(results.map((result) => result.body.revision).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
      const revisions = (await read<ServiceRevisionItem[]>('/parallel/revisions')).body;
      expect(revisions.map((revision) => revision.number)).toEqual([6, 5, 4, 3, 2, 1]);
      // Each revision after the first changed exactly the runbook relative to the one before it.
      expect(revisions.slice(0, 5).every((revision) => revision.updated.length === 1 && revision.updated[0].name === 'runbook')).toBe(true);
      const last = results.find((result) => result.body.revision === 6);
      const current = await read<TextArtifactView>('/parallel/docs/runbook');
      const lastIndex = results.indexOf(last as (typeof results)[number]);
      expect(current.body.content).toBe(`# Runbook v${lastIndex}\n`);
    });

    it('creates exactly one revision when identical bundles race for a new service', async () => {
      const results = await Promise.all(Array.from({ length: 5 }, () => postSync<SyncResult>(t.baseUrl, syncToken, bundle(sampleArtifacts(), 'racing'))));
      expect(results.map((result) => result.body.status).sort()).toEqual(['created', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
      expect(results.every((result) => result.body.revision === 1)).toBe(true);
      expect((await read<ServiceRevisionItem[]>('/racing/revisions')).body).toHaveLength(1);
      expect((await read<ServiceListItem[]>('')).body.filter((service) => service.name === 'racing')).toHaveLength(1);
    });
  });

  it("serves a node's data fields in the context file's order (the drawing shows the first three), not sorted by the database", async () => {
    const data = { Owner: { type: 'Text Input', value: 'team' }, Runbook: { type: 'URL Input', value: 'https://wiki.example/runbook' }, Replicas: { type: 'Number Input', value: 3 }, Tier: { type: 'Text Input', value: 'gold' } };
    const context = JSON.stringify({ nodes: { api: { type: 'shape', name: 'API', data } } });
    const artifacts = [{ kind: 'architecture-diagram' as const, name: 'fields', file: syncFile('.service/diagrams/fields.mmd', 'flowchart LR\n  api --> db\n'), context: syncFile('.service/diagrams/fields.context.json', context) }];
    expect((await postSync(t.baseUrl, syncToken, bundle(artifacts, 'ordered'))).status).toBe(201);
    const diagram = await read<DiagramView<{ nodes: Array<{ id: string; overlay?: { data?: Record<string, unknown> } }> }>>('/ordered/diagrams/fields');
    expect(Object.keys(diagram.body.graph.nodes.find((node) => node.id === 'api')?.overlay?.data ?? {})).toEqual(['Owner', 'Runbook', 'Replicas', 'Tier']);
  });
});
