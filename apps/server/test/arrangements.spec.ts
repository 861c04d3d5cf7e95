import type { AuditEntry, DiagramArrangement, ErrorBody, SyncResult } from '@sc/contracts';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts, withContent } from './artifacts/bundles';
import { ArrangementsRepository } from '../src/modules/arrangement-store/arrangements.repository';
import { authHeaders, call, createOrganization, createToken, memberWithSession, type SessionCredentials, useSeeded, useSeededApp } from './support';

/**
 * Arrangements of synced diagrams over HTTP on a real database: GET/PUT/DELETE with If-Match versions, roles,
 * organization isolation, audit entries, and a sync that adds and removes a node (the arrangement survives it and
 * names the new node as placed automatically).
 */

type Who = SessionCredentials | string;
/** Where an image draws a node (its group's translation). */
const placeOf = (svg: string, id: string) => new RegExp(`<g transform="translate\\(([-\\d.]+),([-\\d.]+)\\)" data-node-id="${id}"`).exec(svg)?.slice(1).map(Number);
const PATH = '/services/orders/diagrams/topology/arrangement';

/** Boxes for every node and the group of the sample topology (api and db inside `core`). */
const ARRANGED = {
  groups: [{ id: 'core', x: 400, y: 0, width: 400, height: 200 }],
  nodes: [
    { id: 'api', x: 420, y: 60 },
    { id: 'db', x: 600, y: 60, width: 140, height: 70 },
    { id: 'web', x: 0, y: 60 },
    { id: 'queue', x: 1000, y: 60 },
  ],
  edges: [{ source: 'web', target: 'api', index: 0, points: [{ x: 200, y: 300 }] }],
};

describe('diagram arrangements API', () => {
  const { t, org: acme } = useSeededApp({ orgId: 'acme' }, { env: COLD_WORKER_TIMEOUT });
  const seeded = useSeeded(async () => {
    const other = await createOrganization(t, acme, { orgId: 'other' });
    const viewer = (await memberWithSession(t, acme, 'viewer')).session;
    const editor = (await memberWithSession(t, acme, 'editor', 'editor@acme.example')).session;
    const syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    expect((await postSync<SyncResult>(t.baseUrl, syncToken, bundle(sampleArtifacts()))).status).toBe(201);
    const otherSync = (await createToken(t, other.owner, 'other', { name: 'ci', scopes: ['sync'] })).token;
    expect((await postSync<SyncResult>(t.baseUrl, otherSync, bundle(sampleArtifacts()))).status).toBe(201);
    return { other, viewer, editor, syncToken };
  });

  const request = <T = DiagramArrangement>(who: Who, method: string, headers: Record<string, string> = {}, body?: unknown, org = 'acme') =>
    call<T>(t.baseUrl, method, `/api/v1/orgs/${org}${PATH}`, { headers: { ...authHeaders(who), ...headers }, body });
  const errorOf = (body: unknown) => (body as ErrorBody).error;
  const auditOf = async (action: string) => (await call<AuditEntry[]>(t.baseUrl, 'GET', `/api/v1/orgs/acme/audit?action=${action}`, { headers: authHeaders(acme.owner) })).body;

  it('answers version 0 and empty lists before anyone arranged the diagram', async () => {
    const response = await request(seeded.viewer, 'GET');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ version: 0, nodes: [], groups: [], edges: [], placed: [] });
    expect(response.headers.get('etag')).toBe('"0"');
  });

  it('refuses a viewer, a save without If-Match and an arrangement naming what the diagram does not have', async () => {
    const refused = await request(seeded.viewer, 'PUT', { 'if-match': '"0"' }, ARRANGED);
    expect(refused.status).toBe(403);
    expect(errorOf(refused.body).code).toBe('insufficient_role');
    expect((await request(seeded.viewer, 'DELETE')).status).toBe(403);

    const unversioned = await request(seeded.editor, 'PUT', {}, ARRANGED);
    expect(unversioned.status).toBe(428);
    expect(errorOf(unversioned.body).code).toBe('arrangement_version_required');

    const invalid = await request(seeded.editor, 'PUT', { 'if-match': '"0"' }, {
      nodes: [{ id: 'nope', x: 0, y: 0 }, { id: 'api', x: 'left', y: 0 }],
      groups: [{ id: 'core', x: 0, y: 0 }],
      edges: [{ source: 'web', target: 'api', index: 1, points: [] }, { source: 'api', target: 'db', index: 0, points: [{ x: 1 }] }],
    });
    expect(invalid.status).toBe(422);
    expect(errorOf(invalid.body).code).toBe('arrangement_invalid');
    expect(errorOf(invalid.body).details?.map((d) => d.path)).toEqual(['$.nodes[0].id', '$.nodes[1].x', '$.groups[0]', '$.groups[0]', '$.edges[0]', '$.edges[1].points[0]']);
    expect((await request(seeded.viewer, 'GET')).body.version).toBe(0);
  });

  it('saves with If-Match, answers 409 to a stale version, and audits the save', async () => {
    const saved = await request(seeded.editor, 'PUT', { 'if-match': '"0"' }, ARRANGED);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ version: 1, ...ARRANGED, placed: [] });
    expect(saved.headers.get('etag')).toBe('"1"');
    expect((await request(seeded.viewer, 'GET')).body).toEqual({ version: 1, ...ARRANGED, placed: [] });

    const stale = await request(seeded.editor, 'PUT', { 'if-match': '"0"' }, { ...ARRANGED, nodes: [] });
    expect(stale.status).toBe(409);
    expect(errorOf(stale.body).code).toBe('arrangement_version_conflict');
    expect(errorOf(stale.body).details?.[0]).toMatchObject({ path: 'If-Match', currentVersion: 1 });
    expect((await request(seeded.viewer, 'GET')).body.nodes).toEqual(ARRANGED.nodes);

    const entries = await auditOf('diagram.arranged');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ target: { type: 'diagram', id: 'orders/topology', label: 'topology' }, actor: { email: 'editor@acme.example' }, after: { version: 1, nodes: 4, groups: 1, edges: 1 } });
  });

  it('keeps each organization apart', async () => {
    // `other` synced the same service and diagram names: its diagram has no arrangement.
    expect((await request(seeded.other.owner, 'GET', {}, undefined, 'other')).body).toMatchObject({ version: 0, nodes: [] });
    const foreign = await request(acme.owner, 'GET', {}, undefined, 'other');
    expect(foreign.status).toBe(404);
    expect(errorOf(foreign.body).code).toBe('organization_not_found');
    expect((await request(acme.owner, 'PUT', { 'if-match': '"0"' }, ARRANGED, 'other')).status).toBe(404);
  });

  it('survives a sync that removes one node and adds another, naming the new one as placed', async () => {
    const next = withContent(sampleArtifacts(), 'topology', 'flowchart LR\n  subgraph core[Core]\n    api[Orders API] --> db[(Orders DB)]\n  end\n  web[Web] --> api\n  api --> cache[Cache]\n');
    expect((await postSync<SyncResult>(t.baseUrl, seeded.syncToken, bundle(next))).status).toBe(201);
    const after = await request(seeded.viewer, 'GET');
    expect(after.body.version).toBe(1);
    expect(after.body.placed).toEqual(['cache']);
    // What was saved is still there; the page drops `queue` (gone) when it draws and when it next saves.
    expect(after.body.nodes.filter((n) => n.id !== 'queue')).toEqual(ARRANGED.nodes.filter((n) => n.id !== 'queue'));
    // The next save may not name the removed node.
    const withRemoved = await request(seeded.editor, 'PUT', { 'if-match': '"1"' }, ARRANGED);
    expect(withRemoved.status).toBe(422);
    expect(errorOf(withRemoved.body).details?.map((d) => d.path)).toEqual(['$.nodes[3].id']);
    const resaved = await request(seeded.editor, 'PUT', { 'if-match': '"1"' }, { ...ARRANGED, nodes: [...ARRANGED.nodes.slice(0, 3), { id: 'cache', x: 1000, y: 60 }] });
    expect(resaved.status).toBe(200);
    expect(resaved.body).toMatchObject({ version: 2, placed: [] });
  });

  it('resets to the automatic layout with DELETE (If-Match checked when sent), audited', async () => {
    const stale = await request(seeded.editor, 'DELETE', { 'if-match': '"1"' });
    expect(stale.status).toBe(409);
    const reset = await request(seeded.editor, 'DELETE', { 'if-match': '"2"' });
    expect(reset.status).toBe(204);
    expect((await request(seeded.viewer, 'GET')).body).toEqual({ version: 3, nodes: [], groups: [], edges: [], placed: [] });
    const entries = await auditOf('diagram.arrangement_reset');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ target: { type: 'diagram', id: 'orders/topology' }, before: { version: 2, nodes: 4 }, after: { version: 3 } });
    // A save of the version before the reset conflicts; of the reset's version, saves.
    expect((await request(seeded.editor, 'PUT', { 'if-match': '"2"' }, { nodes: [], groups: [], edges: [] })).status).toBe(409);
  });

  it('draws the image routes through the arrangement, and the automatic layout again after a reset', async () => {
    const image = (who: Who, org = 'acme', query = '') =>
      fetch(`${t.baseUrl}/api/v1/orgs/${org}/services/orders/diagrams/topology/image.svg${query}`, { headers: authHeaders(who) }).then(async (r) => ({ etag: r.headers.get('etag'), svg: await r.text() }));
    const automatic = await image(seeded.viewer);
    expect(placeOf(automatic.svg, 'web')).toBeDefined();
    expect(placeOf(automatic.svg, 'web')).not.toEqual([1500, 700]);

    const saved = await request(seeded.editor, 'PUT', { 'if-match': '"3"' }, { nodes: [{ id: 'web', x: 1500, y: 700 }], groups: [], edges: [{ source: 'web', target: 'api', index: 0, points: [{ x: 1400, y: 900 }] }] });
    expect(saved.status).toBe(200);
    const arranged = await image(seeded.viewer);
    expect(placeOf(arranged.svg, 'web')).toEqual([1500, 700]);
    expect(arranged.etag).not.toBe(automatic.etag);
    // The bend is drawn: the edge's path passes through it.
    expect(/data-edge-source="web" data-edge-target="api"><path d="[^"]*1400[ ,]900/.test(arranged.svg)).toBe(true);
    // A collapsed view is drawn through it too; another organization's diagram of the same name is not.
    expect(placeOf((await image(seeded.viewer, 'acme', '?collapsed=core')).svg, 'web')).toEqual([1500, 700]);
    const foreign = placeOf((await image(seeded.other.owner, 'other')).svg, 'web');
    expect(foreign).toBeDefined();
    expect(foreign).not.toEqual([1500, 700]);

    expect((await request(seeded.editor, 'DELETE', { 'if-match': '"4"' })).status).toBe(204);
    const reset = await image(seeded.viewer);
    expect(placeOf(reset.svg, 'web')).toEqual(placeOf(automatic.svg, 'web'));
    expect(reset.svg).toBe(automatic.svg);
  });

  it('serves a kept image without reading the arrangement again, and a new image after each save', async () => {
    const image = (theme: string) =>
      fetch(`${t.baseUrl}/api/v1/orgs/acme/services/orders/diagrams/topology/image.svg?theme=${theme}`, { headers: authHeaders(seeded.viewer) }).then(async (r) => ({ status: r.status, svg: await r.text() }));
    const save = async (x: number) => {
      const { version } = (await request(seeded.editor, 'GET')).body;
      expect((await request(seeded.editor, 'PUT', { 'if-match': `"${version}"` }, { nodes: [{ id: 'web', x, y: 700 }], groups: [], edges: [] })).status).toBe(200);
    };
    // The real repository of the running app, its calls counted (each still goes to the database).
    const repository = t.app.get(ArrangementsRepository);
    const fullReads = jest.spyOn(repository, 'findOfService');
    const versionReads = jest.spyOn(repository, 'versionOfService');
    try {
      await save(1700);
      const first = await image('dark');
      expect(first.status).toBe(200);
      expect(placeOf(first.svg, 'web')).toEqual([1700, 700]);
      expect(fullReads).toHaveBeenCalledTimes(1);
      // Kept: the same image, after a read of the version only.
      const again = await image('dark');
      expect(again.svg).toBe(first.svg);
      expect(fullReads).toHaveBeenCalledTimes(1);
      expect(versionReads).toHaveBeenCalledTimes(2);
      // A save makes the next read draw the new arrangement (no stale image), read once more.
      await save(1900);
      const moved = await image('dark');
      expect(placeOf(moved.svg, 'web')).toEqual([1900, 700]);
      expect(fullReads).toHaveBeenCalledTimes(2);
      expect((await image('dark')).svg).toBe(moved.svg);
      expect(fullReads).toHaveBeenCalledTimes(2);
    } finally {
      fullReads.mockRestore();
      versionReads.mockRestore();
    }
  });
});
