import type { Draft, DraftConflictDetail, DraftExport, DraftSummary, ErrorBody, SyncArtifact, SyncResult } from '@sc/contracts';
import { nextCursorFromLink } from '@sc/contracts';
import { applyContext, type DiagramContext, type OverlaidGraph } from '@sc/diagram';
import { parseMermaid } from '@sc/diagram/node';
import * as fc from 'fast-check';
import { createHash } from 'node:crypto';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts, syncFile, TOPOLOGY, TOPOLOGY_CONTEXT } from './artifacts/bundles';
import { authHeaders, call, createOrganization, createToken, memberWithSession, type JsonResponse, type SeededOrganization, type SessionCredentials, useSeededApp } from './support';

/**
 * Diagram drafts over HTTP on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): CRUD, roles and
 * token scopes, organization isolation, If-Match versions, validation with JSON paths, limits, drafts from a
 * synced diagram and from pasted Mermaid, and the export round trip (also on generated drafts, fast-check).
 */

type Who = SessionCredentials | string;
type Graph = OverlaidGraph;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const EMPTY_LAYOUT = { nodes: [], groups: [] };

/** A diagram as the editor would draw it: shapes, a table, a db-table, data fields, a subgraph and a context-only group. */
const DRAWN: Graph = {
  kind: 'flowchart',
  direction: 'LR',
  contextName: 'Orders',
  nodes: [
    {
      id: 'api',
      label: 'Orders API',
      parent: 'core',
      overlay: {
        type: 'shape',
        shape: 'hexagon',
        style: { fill: '#eef', strokeStyle: 'dashed' },
        data: {
          Owner: { type: 'Text Input', value: 'team-a' },
          Tier: { type: 'Number Input', value: 1 },
          Tags: { type: 'Tag Input', value: ['core', 'http'] },
          Docs: { type: 'URL Input', value: 'https://docs.example/orders' },
          Stage: { type: 'Dropdown', value: 'prod', options: ['dev', 'prod'] },
        },
      },
    },
    { id: 'orders_table', label: 'Orders', parent: 'core', overlay: { type: 'table', table: { columns: ['id', 'total'], rows: [['1', '9.99']] } } },
    { id: 'db', label: 'Orders DB', shape: 'cyl', overlay: { type: 'db-table', dbConfig: { serviceName: 'orders', databaseName: 'orders-db', tableName: 'orders' } } },
    { id: 'web', label: 'Web <br> shop' },
  ],
  edges: [
    { source: 'web', target: 'api', label: 'HTTPS: "orders"' },
    { source: 'api', target: 'db', label: 'SQL', overlay: { style: { strokeStyle: 'dashed' }, markerEnd: { type: 'arrow', color: '#333' } } },
    { source: 'api', target: 'core', type: 'arrow_open', stroke: 'dotted' },
  ],
  groups: [
    { id: 'core', label: 'Core', nodes: ['api', 'orders_table'], overlay: { name: 'Core services' } },
    { id: 'people', label: 'People', nodes: ['web'], origin: 'context', overlay: { name: 'People', nodes: ['web'] } },
  ],
};
const DRAWN_LAYOUT = { nodes: [{ id: 'api', x: 10, y: 20 }, { id: 'db', x: 300, y: 20, width: 120, height: 60 }], groups: [{ id: 'core', x: 0, y: 0, width: 400, height: 200 }] };

/** What must survive parse(export) + applyContext: ids, labels, parents, edges with labels and links, groups, overlays. */
function essence(graph: Graph) {
  const json = (value: unknown) => JSON.stringify(value ?? null);
  return {
    nodes: graph.nodes.map((n) => `${n.id}|${n.label}|${n.parent ?? ''}|${json(n.overlay)}`).sort(),
    edges: graph.edges.map((e) => `${e.source}>${e.target}|${e.label ?? ''}|${e.type ?? 'arrow_point'}|${e.stroke ?? 'normal'}|${json(e.overlay)}`).sort(),
    groups: graph.groups.map((g) => `${g.id}|${g.label}|${g.parent ?? ''}|${g.origin ?? 'mermaid'}|${[...g.nodes].sort().join(',')}|${json(g.overlay)}`).sort(),
    name: graph.contextName ?? null,
  };
}

/** Reads an export back the way a sync does: Mermaid's parser, then the context file applied. */
async function reread(exported: DraftExport): Promise<Graph> {
  const parsed = await parseMermaid(exported.mermaid);
  if (!parsed.ok) throw new Error(`The export does not parse: ${JSON.stringify(parsed.issues)}\n${exported.mermaid}`);
  const { graph, report } = applyContext(parsed.graph, JSON.parse(exported.contextText) as DiagramContext);
  expect(report.errors).toEqual([]);
  expect(report.unmatched).toEqual([]);
  return { ...graph, groups: graph.groups.map((g) => (g.origin === 'context' ? g : { ...g, origin: undefined })) };
}

describe('diagram drafts API', () => {
  const { t, org: acme } = useSeededApp({ orgId: 'acme' }, { env: { ...COLD_WORKER_TIMEOUT, SERVICE_DRAFT_MAX_NODES: '40', SERVICE_DRAFT_MAX_EDGES: '60', SERVICE_DRAFT_MAX_BYTES: '256kb' } });
  let other: SeededOrganization;
  let viewer: SessionCredentials;
  let editor: { userId: string; email: string; session: SessionCredentials };
  let secondEditor: { userId: string; email: string; session: SessionCredentials };
  let readToken: string;
  let syncToken: string;

  const request = <T = Draft<Graph>>(who: Who, method: string, path: string, body?: unknown, headers: Record<string, string> = {}, org = 'acme') =>
    call<T>(t.baseUrl, method, `/api/v1/orgs/${org}/drafts${path}`, { headers: { ...authHeaders(who), ...headers }, body });
  const create = (who: Who, body: Record<string, unknown>, org = 'acme') => request(who, 'POST', '', body, {}, org);
  const save = (who: Who, id: string, version: number | string | undefined, body: Record<string, unknown>) =>
    request(who, 'PUT', `/${id}`, body, version === undefined ? {} : { 'if-match': typeof version === 'number' ? `"${version}"` : version });
  const errorOf = (response: JsonResponse<unknown>) => (response.body as ErrorBody).error;

  beforeAll(async () => {
    other = await createOrganization(t, acme, { orgId: 'other' });
    viewer = (await memberWithSession(t, acme, 'viewer')).session;
    editor = await memberWithSession(t, acme, 'editor', 'editor@acme.example');
    secondEditor = await memberWithSession(t, acme, 'editor', 'second@acme.example');
    readToken = (await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
  });

  it('creates, reads, saves, lists and deletes a draft, with the version as ETag', async () => {
    const created = await create(editor.session, { name: '  Orders topology ' });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    expect(created.body).toMatchObject({
      name: 'Orders topology',
      kind: 'flowchart',
      version: 1,
      nodeCount: 0,
      graph: { kind: 'flowchart', nodes: [], edges: [], groups: [] },
      layout: EMPTY_LAYOUT,
      createdBy: { kind: 'user', id: editor.userId, email: 'editor@acme.example' },
      source: null,
      warnings: [],
    });
    const id = created.body.id;

    const read = await request(viewer, 'GET', `/${id}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('"1"');
    expect(read.body).toEqual(created.body);

    const saved = await save(editor.session, id, 1, { name: 'Orders topology', graph: DRAWN, layout: DRAWN_LAYOUT });
    expect(saved.status).toBe(200);
    expect(saved.headers.get('etag')).toBe('"2"');
    expect(saved.body).toMatchObject({ version: 2, nodeCount: 4, edgeCount: 3, graph: DRAWN, layout: DRAWN_LAYOUT });
    expect((await request(viewer, 'GET', `/${id}`)).body).toMatchObject({ version: 2, graph: DRAWN, layout: DRAWN_LAYOUT });

    const list = await request<DraftSummary[]>(viewer, 'GET', '');
    expect(list.status).toBe(200);
    expect(list.body.find((item) => item.id === id)).toMatchObject({ name: 'Orders topology', version: 2, nodeCount: 4, edgeCount: 3 });
    expect(list.body.find((item) => item.id === id)).not.toHaveProperty('graph');

    const deleted = await request(editor.session, 'DELETE', `/${id}`);
    expect(deleted.status).toBe(204);
    const gone = await request(viewer, 'GET', `/${id}`);
    expect(gone.status).toBe(404);
    expect(errorOf(gone).code).toBe('draft_not_found');
    expect((await request(viewer, 'GET', '/not-a-uuid')).status).toBe(404);
  });

  it('pages the list by cursor, newest change first, and refuses a bad limit or an offset', async () => {
    for (const name of ['page 1', 'page 2', 'page 3']) {
      expect((await create(editor.session, { name })).status).toBe(201);
      t.clock.advance(1000);
    }
    const page = await request<DraftSummary[]>(viewer, 'GET', '?limit=2');
    expect(page.body.map((item) => item.name)).toEqual(['page 3', 'page 2']);
    const cursor = nextCursorFromLink(page.headers.get('link'));
    expect(cursor).not.toBeNull();
    const next = await request<DraftSummary[]>(viewer, 'GET', `?limit=2&cursor=${cursor}`);
    expect(next.body[0]?.name).toBe('page 1');
    for (const query of ['?limit=0', '?limit=101', '?offset=2', '?limit=ten']) {
      const refused = await request(viewer, 'GET', query);
      expect([query, refused.status, errorOf(refused).code]).toEqual([query, 400, 'validation_failed']);
    }
    const forged = await request(viewer, 'GET', '?cursor=bm90LWEtY3Vyc29y');
    expect([forged.status, errorOf(forged).code]).toEqual([400, 'invalid_cursor']);
  });

  it('lets viewers and read tokens read and export, editors and admin tokens write, and nobody else', async () => {
    const draft = (await create(editor.session, { name: 'roles', graph: DRAWN, layout: DRAWN_LAYOUT })).body;
    for (const who of [viewer, readToken]) {
      expect((await request(who, 'GET', '')).status).toBe(200);
      expect((await request(who, 'GET', `/${draft.id}`)).status).toBe(200);
      expect((await request(who, 'GET', `/${draft.id}/export`)).status).toBe(200);
    }
    const writes = (who: Who) => [
      create(who, { name: 'nope' }),
      save(who, draft.id, 1, { name: 'nope', graph: DRAWN, layout: DRAWN_LAYOUT }),
      request(who, 'DELETE', `/${draft.id}`),
    ];
    for (const response of await Promise.all(writes(viewer))) expect([response.status, errorOf(response).code]).toEqual([403, 'insufficient_role']);
    for (const response of await Promise.all(writes(readToken))) expect([response.status, errorOf(response).code]).toEqual([403, 'insufficient_scope']);
    for (const response of await Promise.all([request(syncToken, 'GET', ''), ...writes(syncToken)])) expect(response.status).toBe(403);
    expect((await request(viewer, 'GET', `/${draft.id}`)).body.version).toBe(1);

    const byToken = await save(acme.adminToken, draft.id, 1, { name: 'roles', graph: DRAWN, layout: EMPTY_LAYOUT });
    expect(byToken.status).toBe(200);
    expect(byToken.body.updatedBy).toMatchObject({ kind: 'token', name: expect.any(String) });
    expect(byToken.body.createdBy).toMatchObject({ kind: 'user', id: editor.userId });
    expect((await request(acme.owner, 'DELETE', `/${draft.id}`)).status).toBe(204);
  });

  it("keeps one organization's drafts out of another's reach on every draft route", async () => {
    const draft = (await create(editor.session, { name: 'isolated', graph: DRAWN, layout: DRAWN_LAYOUT })).body;
    const routes: [string, string, unknown?][] = [
      ['GET', `/${draft.id}`],
      ['PUT', `/${draft.id}`, { name: 'taken', graph: DRAWN, layout: EMPTY_LAYOUT }],
      ['DELETE', `/${draft.id}`],
      ['GET', `/${draft.id}/export`],
    ];
    for (const who of [other.owner, other.adminToken]) {
      for (const [method, path, body] of routes) {
        // Inside its own organization, org B does not find org A's draft …
        const own = await request(who, method, path, body, { 'if-match': '"1"' }, 'other');
        expect([method, path, own.status, errorOf(own).code]).toEqual([method, path, 404, 'draft_not_found']);
        // … and org A's routes do not exist for it.
        const foreign = await request(who, method, path, body, { 'if-match': '"1"' }, 'acme');
        expect([method, path, foreign.status, errorOf(foreign).code]).toEqual([method, path, 404, 'organization_not_found']);
      }
      const list = await request<DraftSummary[]>(who, 'GET', '', undefined, {}, 'other');
      expect(list.body.map((item) => item.id)).not.toContain(draft.id);
    }
    const untouched = await request(editor.session, 'GET', `/${draft.id}`);
    expect(untouched.body).toMatchObject({ version: 1, name: 'isolated', graph: DRAWN });
  });

  it('needs If-Match to save, refuses a stale version naming who saved last, and loses nothing', async () => {
    const draft = (await create(editor.session, { name: 'contested' })).body;
    const body = (label: string) => ({ name: 'contested', graph: { kind: 'flowchart', nodes: [{ id: 'a', label }], edges: [], groups: [] }, layout: EMPTY_LAYOUT });

    for (const ifMatch of [undefined, '*', '"1", "2"', 'abc']) {
      const refused = await save(editor.session, draft.id, ifMatch, body('x'));
      expect([refused.status, errorOf(refused).code]).toEqual([428, 'draft_version_required']);
    }
    t.clock.advance(60_000);
    const first = await save(secondEditor.session, draft.id, 1, body('second editor'));
    expect(first.status).toBe(200);
    const stale = await save(editor.session, draft.id, 'W/"1"', body('first editor'));
    expect(stale.status).toBe(409);
    const error = errorOf(stale);
    expect(error.code).toBe('draft_version_conflict');
    expect(error.message).toContain('second@acme.example');
    const detail = error.details[0] as DraftConflictDetail;
    expect(detail).toMatchObject({ path: 'If-Match', currentVersion: 2, updatedAt: first.body.updatedAt, updatedBy: { kind: 'user', id: secondEditor.userId } });
    const stored = await request(viewer, 'GET', `/${draft.id}`);
    expect(stored.body).toMatchObject({ version: 2, graph: { nodes: [{ id: 'a', label: 'second editor' }] } });

    // Saves of the same version race: exactly one wins, the others are told who won.
    const racing = await Promise.all([1, 2, 3, 4].map((n) => save(n % 2 ? editor.session : secondEditor.session, draft.id, 2, body(`racer ${n}`))));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const winner = racing.find((r) => r.status === 200);
    expect((await request(viewer, 'GET', `/${draft.id}`)).body).toMatchObject({ version: 3, graph: winner?.body.graph });

    const staleDelete = await request(editor.session, 'DELETE', `/${draft.id}`, undefined, { 'if-match': '"2"' });
    expect([staleDelete.status, errorOf(staleDelete).code]).toEqual([409, 'draft_version_conflict']);
    expect((await request(editor.session, 'DELETE', `/${draft.id}`, undefined, { 'if-match': '"3"' })).status).toBe(204);
  });

  it('refuses an invalid graph or layout with every problem and its JSON path, saving nothing', async () => {
    const draft = (await create(editor.session, { name: 'validated', graph: DRAWN, layout: DRAWN_LAYOUT })).body;
    const broken = {
      kind: 'flowchart',
      nodes: [
        { id: 'api', label: 'API', parent: 'core' },
        { id: 'end', label: 'reserved' },
        { id: 'db', label: 'DB' },
        { id: 'db', label: '', overlay: { type: 'shape', shape: 'blob', style: { fill: 'no colour' } } },
      ],
      edges: [
        { source: 'api', target: 'ghost' },
        { source: 'api', target: 'db', type: 'arrow_sideways' },
      ],
      groups: [{ id: 'core', label: 'Core', nodes: [] }],
    };
    const layout = { nodes: [{ id: 'api', x: 'INFINITE', y: 0 }, { id: 'nobody', x: 0, y: 0 }], groups: [] };
    // JSON has no Infinity, but 1e400 parses to it.
    const raw = JSON.stringify({ name: 'validated', graph: broken, layout }).replace('"INFINITE"', '1e400');
    const refused = await request(editor.session, 'PUT', `/${draft.id}`, raw, { 'if-match': '"1"' });
    expect(refused.status).toBe(422);
    const error = errorOf(refused);
    expect(error.code).toBe('draft_invalid');
    expect(error.message).toContain('Nothing was saved');
    expect(error.details.map((d) => d.path)).toEqual([
      '$.graph.nodes[3].label',
      '$.graph.nodes[1].id',
      '$.graph.nodes[3].id',
      '$.graph.nodes[0].parent',
      '$.graph.edges[0].target',
      '$.graph.edges[1].type',
      '$.graph.nodes[3].overlay.shape',
      '$.graph.nodes[3].overlay.style.fill',
      '$.layout.nodes[0].x',
      '$.layout.nodes[1].id',
    ]);
    expect(error.details[1]).toMatchObject({ code: 'export_unsupported_id' });
    expect((await request(viewer, 'GET', `/${draft.id}`)).body).toMatchObject({ version: 1, graph: DRAWN, layout: DRAWN_LAYOUT });

    const before = (await request<DraftSummary[]>(viewer, 'GET', '')).body.length;
    const badCreate = await create(editor.session, { name: 'never', graph: broken, layout: EMPTY_LAYOUT });
    expect([badCreate.status, errorOf(badCreate).code]).toEqual([422, 'draft_invalid']);
    expect((await request<DraftSummary[]>(viewer, 'GET', '')).body).toHaveLength(before);

    for (const body of [{ name: 'x', graph: DRAWN }, { name: 'x', from: { service: 'orders', diagram: 'topology' }, mermaid: 'flowchart LR' }, { name: 'x', context: '{}' }, { name: '   ' }]) {
      const invalid = await create(editor.session, body);
      expect([invalid.status, errorOf(invalid).code]).toEqual([400, 'invalid_draft_request']);
    }
    const missing = await save(editor.session, draft.id, 1, { name: 'x', graph: DRAWN });
    expect([missing.status, errorOf(missing).code]).toEqual([400, 'validation_failed']);
  });

  it('stores odd text exactly (emoji, U+2028) and places nodes whose ids are JavaScript words (constructor, __proto__)', async () => {
    const graph = {
      kind: 'flowchart',
      nodes: [
        { id: 'constructor', label: 'A 🚀', overlay: { name: 'line\u2028separator', data: { 'é ü': { type: 'Tag Input', value: ['🚀', '\u2028'] } } } },
        { id: '__proto__', label: 'proto' },
      ],
      edges: [{ source: 'constructor', target: '__proto__' }],
      groups: [],
    };
    const layout = { nodes: [{ id: 'constructor', x: 1, y: 2 }, { id: '__proto__', x: 3, y: 4 }], groups: [] };
    const created = await create(editor.session, { name: 'odd text', graph, layout });
    expect(created.status).toBe(201);
    const read = await request(viewer, 'GET', `/${created.body.id}`);
    expect(JSON.stringify(read.body.graph)).toBe(JSON.stringify(graph));
    expect(read.body.layout).toEqual(layout);
    const exported = await request<DraftExport>(viewer, 'GET', `/${created.body.id}/export`);
    expect(essence(await reread(exported.body))).toEqual(essence(graph as Graph));

    // A NUL character is stored exactly or refused with a 4xx that says where; never a 500.
    const nul = await create(editor.session, { name: 'nul', graph: { ...graph, nodes: [{ id: 'a', label: 'A', overlay: { name: 'nul \u0000 here' } }], edges: [] }, layout: EMPTY_LAYOUT });
    expect(nul.status === 201 || (nul.status >= 400 && nul.status < 500)).toBe(true);
    if (nul.status === 201) expect((await request(viewer, 'GET', `/${nul.body.id}`)).body.graph.nodes[0]?.overlay?.name).toBe('nul \u0000 here');
  });

  it('applies the size limits, naming the variable', async () => {
    const nodes = Array.from({ length: 41 }, (_, i) => ({ id: `n${i}`, label: `Node ${i}` }));
    const tooMany = await create(editor.session, { name: 'big', graph: { kind: 'flowchart', nodes, edges: [], groups: [] }, layout: EMPTY_LAYOUT });
    expect([tooMany.status, errorOf(tooMany).code]).toEqual([413, 'draft_too_large']);
    expect(errorOf(tooMany).message).toContain('SERVICE_DRAFT_MAX_NODES');
    const edges = Array.from({ length: 61 }, () => ({ source: 'n0', target: 'n1' }));
    const tooManyEdges = await create(editor.session, { name: 'big', graph: { kind: 'flowchart', nodes: nodes.slice(0, 2), edges, groups: [] }, layout: EMPTY_LAYOUT });
    expect(errorOf(tooManyEdges).message).toContain('SERVICE_DRAFT_MAX_EDGES');
    const heavy = await create(editor.session, { name: 'big', graph: { kind: 'flowchart', nodes: [{ id: 'a', label: 'x'.repeat(300_000) }], edges: [], groups: [] }, layout: EMPTY_LAYOUT });
    expect([heavy.status, errorOf(heavy).code]).toEqual([413, 'draft_too_large']);
    expect(errorOf(heavy).message).toContain('SERVICE_DRAFT_MAX_BYTES');
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = [deep];
    const nested = await create(editor.session, { name: 'deep', graph: { kind: 'flowchart', nodes: [{ id: 'a', label: 'A', overlay: { data: { F: { type: 'Dropdown', options: deep } } } }], edges: [], groups: [] }, layout: EMPTY_LAYOUT });
    expect([nested.status, errorOf(nested).code]).toEqual([422, 'draft_invalid']);
    expect(errorOf(nested).details[0]?.path).toMatch(/^\$\.graph\.nodes\[0\]\.overlay\.data\.F\.options(\[0\])+$/);
  });

  describe('from a synced diagram', () => {
    /** The sample artifacts plus an architecture diagram that is a sequence diagram. */
    const withSequenceDiagram = (artifacts: SyncArtifact[]) => [
      ...artifacts,
      { kind: 'architecture-diagram' as const, name: 'calls', file: syncFile('.service/diagrams/calls.mmd', 'sequenceDiagram\n  web->>api: GET\n') },
    ];

    beforeAll(async () => {
      const synced = await postSync<SyncResult>(t.baseUrl, syncToken, bundle(withSequenceDiagram(sampleArtifacts())));
      expect(synced.status).toBe(201);
    });

    it('copies the graph with its context applied and records the source files, then tells when the repository holds the export', async () => {
      const created = await create(editor.session, { name: 'Orders topology copy', from: { service: 'orders', diagram: 'topology' } });
      expect(created.status).toBe(201);
      const draft = created.body;
      expect(draft.graph.nodes.map((n) => n.id).sort()).toEqual(['api', 'db', 'queue', 'web']);
      expect(draft.graph.nodes.find((n) => n.id === 'api')?.overlay).toMatchObject({ type: 'shape', shape: 'rounded-rect' });
      expect(draft.graph.groups).toEqual([{ id: 'core', label: 'Core', nodes: expect.arrayContaining(['api', 'db']), overlay: { name: 'Core services', nodes: ['api', 'db'] } }]);
      expect(draft.layout).toEqual(EMPTY_LAYOUT);
      expect(draft.source).toEqual({
        service: 'orders',
        diagram: 'topology',
        revision: 1,
        path: '.service/diagrams/topology.mmd',
        sha256: sha256(TOPOLOGY),
        contextPath: '.service/diagrams/topology.context.json',
        contextSha256: sha256(TOPOLOGY_CONTEXT),
      });

      // A copy never saved since it was made draws exactly the synced diagram: its export is the synced files, so
      // committing them changes nothing (issue 23: the export panel says they equal what was synced).
      const fresh = (await request<DraftExport>(viewer, 'GET', `/${draft.id}/export`)).body;
      expect(fresh.mermaid).toBe(TOPOLOGY);
      expect(fresh.contextText).toBe(TOPOLOGY_CONTEXT);
      expect(fresh.digests).toEqual({ diagram: sha256(TOPOLOGY), context: sha256(TOPOLOGY_CONTEXT) });
      expect(fresh.synced).toEqual({ service: 'orders', diagram: 'topology', revision: 1, sha256: sha256(TOPOLOGY), contextSha256: sha256(TOPOLOGY_CONTEXT), equal: true });

      // Once saved (here only moved: the drawing is the same), the files are written from the drawing.
      const moved = await save(editor.session, draft.id, 1, { name: draft.name, graph: draft.graph, layout: { nodes: [{ id: 'api', x: 40, y: 40 }], groups: [] } });
      expect(moved.status).toBe(200);
      const exported = (await request<DraftExport>(viewer, 'GET', `/${draft.id}/export`)).body;
      expect(exported.synced).toEqual({ service: 'orders', diagram: 'topology', revision: 1, sha256: sha256(TOPOLOGY), contextSha256: sha256(TOPOLOGY_CONTEXT), equal: false });
      expect(essence(await reread(exported))).toEqual(essence(draft.graph));

      // Commit the exported files and sync: the export now equals what the repository last synced.
      const committed = sampleArtifacts().map((artifact) =>
        artifact.name === 'topology'
          ? { ...artifact, file: syncFile(artifact.file.path, exported.mermaid), context: syncFile('.service/diagrams/topology.context.json', exported.contextText) }
          : artifact,
      );
      expect((await postSync<SyncResult>(t.baseUrl, syncToken, bundle(withSequenceDiagram(committed)))).status).toBe(201);
      const again = (await request<DraftExport>(viewer, 'GET', `/${draft.id}/export`)).body;
      expect(again.synced).toMatchObject({ revision: 2, equal: true, sha256: exported.digests.diagram, contextSha256: exported.digests.context });

      const older = await create(editor.session, { name: 'first revision', from: { service: 'orders', diagram: 'topology', revision: 1 } });
      expect(older.body.source).toMatchObject({ revision: 1, sha256: sha256(TOPOLOGY) });
    });

    it('an unchanged copy of a diagram synced from an export exports the very same files (overlay key order kept)', async () => {
      // Overlay keys in an order jsonb would change (it puts shorter keys first): "shape" before "type", "zeta" before "a".
      const graph = {
        kind: 'flowchart',
        direction: 'LR',
        // "a" is in a subgraph: Mermaid writes (and reads back) the top-level "b" first.
        nodes: [
          { id: 'a', label: 'A', parent: 'g', overlay: { shape: 'hexagon', type: 'shape', data: { zeta: { value: 'z', type: 'Text Input' }, a: { type: 'Text Input', value: 'x' } } } },
          { id: 'b', label: 'B', overlay: { type: 'comment' } },
        ],
        edges: [{ source: 'a', target: 'b', type: 'arrow_point', stroke: 'normal', overlay: { style: { strokeStyle: 'dashed' }, label: 'reads' } }],
        groups: [{ id: 'g', label: 'G', nodes: ['a'] }],
      };
      const drawn = await create(editor.session, { name: 'ordered', graph, layout: EMPTY_LAYOUT });
      expect(drawn.status).toBe(201);
      const exported = (await request<DraftExport>(viewer, 'GET', `/${drawn.body.id}/export`)).body;
      expect(exported.contextText.indexOf('"shape"')).toBeLessThan(exported.contextText.indexOf('"type"'));
      const artifacts = [
        ...withSequenceDiagram(sampleArtifacts()),
        { kind: 'architecture-diagram' as const, name: 'ordered', file: syncFile('.service/diagrams/ordered.mmd', exported.mermaid), context: syncFile('.service/diagrams/ordered.context.json', exported.contextText) },
      ];
      expect((await postSync<SyncResult>(t.baseUrl, syncToken, bundle(artifacts))).status).toBe(201);

      const copy = await create(editor.session, { name: 'ordered', from: { service: 'orders', diagram: 'ordered' } });
      expect(copy.status).toBe(201);
      const again = (await request<DraftExport>(viewer, 'GET', `/${copy.body.id}/export`)).body;
      expect(again.contextText).toBe(exported.contextText);
      expect(again.synced).toMatchObject({ diagram: 'ordered', equal: true });
    });

    it('refuses diagrams that are not flowcharts, and ones that do not exist', async () => {
      const sequence = await create(editor.session, { name: 'calls', from: { service: 'orders', diagram: 'calls' } });
      expect([sequence.status, errorOf(sequence).code]).toEqual([422, 'draft_kind_unsupported']);
      expect(errorOf(sequence).message).toContain('sequence');
      for (const [from, code] of [
        [{ service: 'orders', diagram: 'nope' }, 'artifact_not_found'],
        [{ service: 'nope', diagram: 'topology' }, 'service_not_found'],
        [{ service: 'orders', diagram: 'topology', revision: 99 }, 'revision_not_found'],
      ] as const) {
        const missing = await create(editor.session, { name: 'x', from });
        expect([missing.status, errorOf(missing).code]).toEqual([404, code]);
      }
      const foreign = await create(other.owner, { name: 'x', from: { service: 'orders', diagram: 'topology' } }, 'other');
      expect([foreign.status, errorOf(foreign).code]).toEqual([404, 'service_not_found']);
    });
  });

  describe('from pasted Mermaid and context', () => {
    it('validates them like a sync and keeps the overlays', async () => {
      const context = JSON.stringify({ nodes: { a: { type: 'shape', shape: 'diamond' }, ghost: { name: 'x' } }, groups: { g: { name: 'Group' } } }, null, 2);
      const created = await create(editor.session, { name: 'Pasted', mermaid: 'flowchart TB\n  subgraph g [G]\n    a{A} -->|yes| b[B]\n  end\n', context });
      expect(created.status).toBe(201);
      expect(created.body.graph).toMatchObject({
        kind: 'flowchart',
        direction: 'TB',
        nodes: [
          { id: 'a', label: 'A', parent: 'g', overlay: { type: 'shape', shape: 'diamond' } },
          { id: 'b', label: 'B', parent: 'g' },
        ],
        edges: [{ source: 'a', target: 'b', label: 'yes' }],
        groups: [{ id: 'g', label: 'G', nodes: expect.arrayContaining(['a', 'b']), overlay: { name: 'Group' } }],
      });
      // The unmatched key is a warning, as in a sync, with its place in the pasted context.
      expect(created.body.warnings).toEqual([expect.objectContaining({ code: 'context_unmatched_key', file: 'pasted.context.json', path: '$.nodes.ghost', line: 7, column: 14 })]);
    });

    it('takes a flowchart styled with classDef, style and linkStyle, and exports the styles back', async () => {
      const mermaid = 'flowchart LR\n  classDef hot fill:#f96,stroke:#333\n  a[A]:::hot --> b[B]\n  style b stroke-dasharray: 5 5\n  linkStyle 0 stroke:#ff3\n';
      const created = await create(editor.session, { name: 'Styled', mermaid });
      expect(created.status).toBe(201);
      expect(created.body.graph.nodes).toEqual([
        { id: 'a', label: 'A', shape: 'square', styles: ['fill:#f96', 'stroke:#333'] },
        { id: 'b', label: 'B', shape: 'square', styles: ['stroke-dasharray: 5 5'] },
      ]);
      const exported = (await request<DraftExport>(viewer, 'GET', `/${created.body.id}/export`)).body;
      expect(exported.mermaid).toContain('  style a fill:#f96,stroke:#333\n  style b stroke-dasharray: 5 5\n  linkStyle 0 stroke:#ff3,fill:none\n');
      // Saved back unchanged, the graph still validates.
      const saved = await save(editor.session, created.body.id, created.body.version, { name: 'Styled', graph: created.body.graph, layout: created.body.layout });
      expect(saved.status).toBe(200);
    });

    it('answers every error with file, line, column and JSON path', async () => {
      const context = '{\n  "nodes": {\n    "a": { "type": "blob", "style": { "fill": "no colour" } }\n  }\n}\n';
      const refused = await create(editor.session, { name: 'Broken paste', mermaid: 'flowchart LR\n  a --> b\n  b -->\n', context });
      expect(refused.status).toBe(422);
      const error = errorOf(refused);
      expect(error.code).toBe('draft_source_invalid');
      expect(error.details).toEqual([
        expect.objectContaining({
          code: 'mermaid_syntax_error',
          file: 'broken-paste.mmd',
          line: 3,
          column: 5,
          message: 'line 3, column 5: the link `-->` has no node after it (expected a node id, as in `a --> b`).',
          excerpt: '3 |   b -->\n  |     ^',
        }),
        expect.objectContaining({ code: 'context_invalid_value', file: 'broken-paste.context.json', path: '$.nodes.a.type', line: 3, column: 20 }),
        expect.objectContaining({ code: 'context_invalid_value', file: 'broken-paste.context.json', path: '$.nodes.a.style.fill', line: 3, column: 47 }),
      ]);
      const badJson = await create(editor.session, { name: 'Broken paste', mermaid: 'flowchart LR\n  a --> b\n', context: '{\n  "nodes": {,}\n}' });
      expect(errorOf(badJson).details).toEqual([expect.objectContaining({ code: 'context_invalid_json', line: 2, column: 13 })]);
      const sequence = await create(editor.session, { name: 'seq', mermaid: 'sequenceDiagram\n  a->>b: hi\n' });
      expect([sequence.status, errorOf(sequence).code]).toEqual([422, 'draft_kind_unsupported']);
      const keyword = await create(editor.session, { name: 'kw', mermaid: 'flowchart LR\n  end-x --> b\n' });
      expect(keyword.status).toBe(422);
    });
  });

  describe('export', () => {
    it('writes the Mermaid and context files, their names, digests and the .service.yaml entry, and reads back as the draft', async () => {
      const draft = (await create(editor.session, { name: 'Orders Topology (v2)', graph: DRAWN, layout: DRAWN_LAYOUT })).body;
      const response = await request<DraftExport>(viewer, 'GET', `/${draft.id}/export`);
      expect(response.status).toBe(200);
      const exported = response.body;
      expect(exported.fileNames).toEqual({ diagram: 'orders-topology-v2.mmd', context: 'orders-topology-v2.context.json' });
      expect(exported.serviceYaml).toBe(
        'architectureDiagrams:\n  - name: orders-topology-v2\n    path: .service/diagrams/orders-topology-v2.mmd\n    contextPath: .service/diagrams/orders-topology-v2.context.json\n',
      );
      expect(exported.digests).toEqual({ diagram: sha256(exported.mermaid), context: sha256(exported.contextText) });
      expect(JSON.parse(exported.contextText)).toEqual(exported.context);
      expect(exported.synced).toBeNull();
      expect(exported.mermaid).toContain('subgraph core ["Core"]');
      expect(exported.mermaid).toContain('api@{ shape: hex, label: "Orders API" }');
      expect(exported.mermaid).toContain('-->|"SQL"|');
      // Positions stay in the draft: the context carries what Mermaid cannot, never the layout.
      expect(exported.contextText).not.toMatch(/"x"|"width"/);
      expect(essence(await reread(exported))).toEqual(essence(draft.graph));
    });

    it('round-trips generated drafts: parse(export(draft)) + applyContext gives the same ids, edges, groups and overlays (fast-check)', async () => {
      const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,5}$/).filter((w) => !['end', 'graph', 'style', 'class', 'click', 'call', 'href', 'subgraph', 'flowchart', 'classDef', 'linkStyle', 'interpolate', 'default'].includes(w));
      const text = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.:;!?'"&#()|-]{0,10}[A-Za-z0-9.!?)]$/);
      const drafts = fc.uniqueArray(word, { minLength: 2, maxLength: 10 }).chain((ids) =>
        fc
          .record({
            labels: fc.array(text, { minLength: ids.length, maxLength: ids.length }),
            inGroup: fc.array(fc.boolean(), { minLength: ids.length, maxLength: ids.length }),
            types: fc.array(fc.constantFrom(undefined, 'shape', 'text', 'table', 'db-table'), { minLength: ids.length, maxLength: ids.length }),
            edges: fc.array(fc.record({ s: fc.nat(ids.length - 1), t: fc.nat(ids.length - 1), label: fc.option(text, { nil: undefined }), dashed: fc.boolean() }), { maxLength: 12 }),
            positions: fc.array(fc.record({ x: fc.double({ min: -1e4, max: 1e4, noNaN: true }), y: fc.integer({ min: -5000, max: 5000 }) }), { minLength: ids.length, maxLength: ids.length }),
          })
          .map(({ labels, inGroup, types, edges, positions }) => {
            const overlayFor = (type: (typeof types)[number], i: number) => {
              if (type === 'shape') return { type, shape: 'cylinder' as const, data: { Notes: { type: 'Text Editor' as const, value: labels[i] } } };
              if (type === 'text') return { type, value: labels[i], style: { fill: '#ffeecc' } };
              if (type === 'table') return { type, table: { columns: ['k', 'v'], rows: [[ids[i], labels[i]]] } };
              if (type === 'db-table') return { type, dbConfig: { serviceName: 'orders', databaseName: 'orders-db', tableName: ids[i] } };
              return undefined;
            };
            const nodes = ids.map((id, i) => ({ id, label: labels[i], ...(inGroup[i] ? { parent: 'grp' } : {}), ...(types[i] ? { overlay: overlayFor(types[i], i) } : {}) }));
            const dashed = new Set(edges.filter((e) => e.dashed).map((e) => `${e.s}>${e.t}`));
            const graph: Graph = {
              kind: 'flowchart',
              direction: 'LR',
              nodes,
              edges: edges.map((e) => ({
                source: ids[e.s],
                target: ids[e.t],
                ...(e.label ? { label: e.label } : {}),
                ...(dashed.has(`${e.s}>${e.t}`) ? { overlay: { style: { strokeStyle: 'dashed' as const } } } : {}),
              })),
              groups: [{ id: 'grp', label: 'Group', nodes: nodes.filter((n) => n.parent).map((n) => n.id), overlay: { name: 'A group' } }],
            };
            const layout = { nodes: ids.map((id, i) => ({ id, ...positions[i] })), groups: [{ id: 'grp', x: 0, y: 0, width: 500, height: 300 }] };
            return { graph, layout };
          }),
      );
      await fc.assert(
        fc.asyncProperty(drafts, async ({ graph, layout }) => {
          const created = await create(editor.session, { name: 'generated', graph, layout });
          expect([created.status, created.body]).toEqual([201, expect.objectContaining({ graph, layout })]);
          const exported = await request<DraftExport>(viewer, 'GET', `/${created.body.id}/export`);
          expect(essence(await reread(exported.body))).toEqual(essence(graph));
          expect((await request(editor.session, 'DELETE', `/${created.body.id}`)).status).toBe(204);
        }),
        { numRuns: 20, seed: 11_2026 },
      );
    });
  });
});
