import type { DatabaseView, DiagramLayout, DiagramView, ErrorBody } from '@sc/contracts';
import ELK from 'elkjs/lib/elk.bundled.js';
import { LAYOUT_ENGINE_VERSION, LayoutCache, defaultViewLayoutInput, layoutDiagram, layoutFingerprint, replayLayout, type OverlaidGraph } from '@sc/diagram';
import { generatedTopology } from '@sc/diagram/testing';
import { authHeaders, bearer, call, createTestApp, expectErrors, createToken, readCallers, seedReaders, setupOrganization, type SessionCredentials, type TestApp, useSeeded, useTestApp } from '../support';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts, syncFile } from './bundles';

/**
 * The default view's layout (issue 10): computed by the server after a sync, in the background, with the
 * dashboard's own model and layout code, and served beside the diagram under the same access rules; 404
 * diagram_layout_not_found while there is none, so the page lays the diagram out itself.
 */
const SEQUENCE = 'sequenceDiagram\n  participant web as Web\n  participant api as API\n  web->>api: POST /orders\n';
const artifacts = () => [
  ...sampleArtifacts(),
  { kind: 'architecture-diagram' as const, name: 'calls', file: syncFile('.service/diagrams/calls.mmd', SEQUENCE) },
];
const LAYOUT_WAIT_MS = 45_000;

async function until<T>(probe: () => Promise<T | null>, what: string, timeoutMs = LAYOUT_WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('default-view layout of synced diagrams', () => {
  const t = useTestApp({ env: COLD_WORKER_TIMEOUT });
  const readers = useSeeded(() => seedReaders(t));
  const base = '/api/v1/orgs/acme/services/orders';
  const get = <T>(path: string, as: SessionCredentials | string = readers.readToken, headers: Record<string, string> = {}) =>
    call<T>(t.baseUrl, 'GET', `${base}${path}`, { headers: { ...authHeaders(as), ...headers } });

  beforeAll(async () => {
    const synced = await postSync(t.baseUrl, readers.syncToken, bundle(artifacts()));
    if (synced.status !== 201) throw new Error(`The sync was refused: ${JSON.stringify(synced.body)}`);
  });

  const storedLayout = () => until(async () => {
    const answer = await get<DiagramLayout>('/diagrams/topology/layout');
    return answer.status === 200 ? answer : null;
  }, 'the layout of topology');

  it('lays out a synced diagram after the sync and serves the layout the dashboard would compute, with an ETag', async () => {
    const layout = await storedLayout();
    const view = (await get<DiagramView<OverlaidGraph>>('/diagrams/topology')).body;
    const database = (await get<DatabaseView>('/databases/orders-db')).body;
    // What the diagram page builds from the diagram and the database its data-source node names.
    const input = defaultViewLayoutInput(view.graph, new Map([['orders-db', { tables: database.tables, collections: database.collections }]]));
    expect(layout.body.engine).toBe(LAYOUT_ENGINE_VERSION);
    expect(layout.body.fingerprint).toBe(layoutFingerprint(input));
    // Replayed as the page does, it is the layout ELK gives the same input here (to the stored 1/100 px).
    const replayed = await replayLayout(layout.body, input, new LayoutCache());
    const own = await layoutDiagram(new ELK(), input, new LayoutCache());
    expect(Object.keys(replayed.boxes).sort()).toEqual(Object.keys(own.boxes).sort());
    for (const [id, box] of Object.entries(own.boxes)) {
      for (const side of ['x', 'y', 'width', 'height'] as const) expect([id, side, Math.abs(replayed.boxes[id][side] - box[side]) < 0.02]).toEqual([id, side, true]);
    }
    expect(Object.keys(replayed.edges).sort()).toEqual(Object.keys(own.edges).sort());

    const etag = layout.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"/);
    expect((await get('/diagrams/topology/layout', readers.readToken, { 'if-none-match': etag })).status).toBe(304);
    expect((await get('/diagrams/topology/layout?revision=1')).status).toBe(200);
  }, LAYOUT_WAIT_MS + 15_000);

  it('answers every caller exactly as the diagram read does: members and read tokens, not other organizations or sync tokens', async () => {
    await storedLayout();
    for (const [who, as, allowed] of readCallers(readers, readers.outsider)) {
      const headers = as === null ? {} : authHeaders(as);
      const diagram = await call(t.baseUrl, 'GET', `${base}/diagrams/topology`, { headers });
      const layout = await call(t.baseUrl, 'GET', `${base}/diagrams/topology/layout`, { headers });
      expect([who, layout.status]).toEqual([who, diagram.status]);
      expect([who, layout.status === 200]).toEqual([who, allowed]);
    }
  });

  it('answers diagram_layout_not_found when there is no layout, and the diagram read errors for unknown diagrams and revisions', async () => {
    await expectErrors((path) => get<ErrorBody>(path), [
      ['/diagrams/calls/layout', 404, 'diagram_layout_not_found'],
      ['/diagrams/nope/layout', 404, 'artifact_not_found'],
      ['/diagrams/topology/layout?revision=7', 404, 'revision_not_found'],
      ['/diagrams/topology/layout?revision=x', 400, 'invalid_revision'],
    ]);
  });
});

describe('default-view layout that fails', () => {
  let t: TestApp;
  const logLines: string[] = [];
  afterAll(() => t?.close());

  it('never fails the sync: a layout over SERVICE_LAYOUT_TIMEOUT is dropped and the page is told to lay the diagram out', async () => {
    t = await createTestApp({ env: { ...COLD_WORKER_TIMEOUT, SERVICE_LAYOUT_TIMEOUT: '100ms', SERVICE_LOG_LEVEL: 'info' }, logLines });
    const acme = await setupOrganization(t, { orgId: 'acme' });
    const syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    const readToken = (await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;

    // The timeout counts from when a ready thread takes the job, so the job itself must outlast 100 ms on any
    // machine: ELK lays 400 nodes out in seconds of CPU (a small diagram fit in 100 ms on a fast machine).
    const large = generatedTopology(400, 520, 8, 0);
    const synced = await postSync<{ status: string; revision: number }>(
      t.baseUrl,
      syncToken,
      bundle([{ kind: 'architecture-diagram', name: 'large', file: syncFile('.service/diagrams/large.mmd', large.mermaid) }]),
    );
    expect([synced.status, synced.body.status, synced.body.revision]).toEqual([201, 'created', 1]);
    await until(async () => (logLines.some((line) => line.includes('"diagram layout failed"') && line.includes('SERVICE_LAYOUT_TIMEOUT')) ? true : null), 'the failed layout');
    const diagram = await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders/diagrams/large', { headers: bearer(readToken) });
    expect(diagram.status).toBe(200);
    const layout = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders/diagrams/large/layout', { headers: bearer(readToken) });
    expect([layout.status, layout.body.error.code]).toEqual([404, 'diagram_layout_not_found']);
  }, LAYOUT_WAIT_MS + 15_000);
});
