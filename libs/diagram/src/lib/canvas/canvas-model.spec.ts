import ELK from 'elkjs/lib/elk.bundled.js';
import { fixtureModelInput, fixtureTopology } from '../../testing/diagram-fixture';
import { createView, collapseGroup, expandGroup } from '../collapse';
import type { OverlaidGraph } from '../overlay';
import { buildModel, layoutInput } from './canvas-model';
import { LayoutCache, layoutDiagram, type Box, type Point } from './layout';
import { GROUP_NAME_ROOM, GROUP_TITLE_FONT, groupHeaderExtra } from './node-look';
import { SYMBOL_SIZE } from './shapes';
import { textWidth } from './text-size';
import type { SqlColumn } from '@sc/contracts';

const NO_DATABASES = new Map();
const groupsOf = (graph: OverlaidGraph, collapsed: string[] = []) => {
  let view = createView(graph);
  for (const id of collapsed) view = collapseGroup(view, id);
  return new Map(buildModel({ view, databases: NO_DATABASES }).groups.map((group) => [group.id, group]));
};
const nameWidth = (name: string) => textWidth(name, GROUP_TITLE_FONT);
/** What the header row leaves for the name: the frame less the padding, the gap and the button (see groupBox). */
const nameRoom = (width: number, typeLabel?: string) => width - groupHeaderExtra(typeLabel);

describe('group frames: the header row (name, type, button) decides the least width', () => {
  it('keeps a narrow group’s whole name beside its button, expanded and collapsed', () => {
    // Issue 22: the composite state "Fulfilling" holds two short states; its name showed as "I" under the button.
    const graph: OverlaidGraph = {
      kind: 'state',
      nodes: [
        { id: 'a', label: 'a', parent: 'Fulfilling' },
        { id: 'b', label: 'b', parent: 'Fulfilling' },
      ],
      edges: [{ source: 'a', target: 'b' }],
      groups: [{ id: 'Fulfilling', label: 'Fulfilling', nodes: ['a', 'b'] }],
    };
    const expanded = groupsOf(graph).get('Fulfilling');
    const collapsed = groupsOf(graph, ['Fulfilling']).get('Fulfilling');
    expect(nameRoom(expanded?.width ?? 0)).toBeGreaterThanOrEqual(nameWidth('Fulfilling'));
    // The button's width is that of its wider text, so a toggle does not change the frame's least width.
    expect(collapsed?.width).toBe(expanded?.width);
    expect(collapsed?.height).toBe(44);
  });

  it('shows a C4 boundary’s type as Mermaid draws it, and makes room for it', () => {
    const graph: OverlaidGraph = {
      kind: 'c4',
      nodes: [{ id: 'api', label: 'API', shape: 'container', parent: 'sys' }],
      edges: [],
      groups: [{ id: 'sys', label: 'Clients', type: 'SYSTEM', nodes: ['api'] }],
    };
    const frame = groupsOf(graph).get('sys');
    expect(frame?.typeLabel).toBe('[SYSTEM]');
    expect(nameRoom(frame?.width ?? 0, '[SYSTEM]')).toBeGreaterThanOrEqual(nameWidth('Clients'));
    // Other kinds have no type label, even with a `type`.
    expect(groupsOf({ ...graph, kind: 'flowchart' }).get('sys')?.typeLabel).toBeUndefined();
  });

  it('cuts only a name wider than both the room every name gets and the widest member', () => {
    const long = 'A group name far longer than anything it holds, which would stretch its frame across the page';
    expect(nameWidth(long)).toBeGreaterThan(GROUP_NAME_ROOM + 100);
    const small: OverlaidGraph = { kind: 'flowchart', nodes: [{ id: 'a', label: 'a', parent: 'g' }], edges: [], groups: [{ id: 'g', label: long, nodes: ['a'] }] };
    for (const frame of [groupsOf(small).get('g'), groupsOf(small, ['g']).get('g')]) {
      expect(nameRoom(frame?.width ?? 0)).toBeGreaterThanOrEqual(GROUP_NAME_ROOM);
      expect(nameRoom(frame?.width ?? 0)).toBeLessThan(GROUP_NAME_ROOM + 1);
    }

    // A member wider than the name: the whole name fits.
    const wideLabel = `${'wide '.repeat(20)}member`.trim();
    const wide: OverlaidGraph = { ...small, nodes: [{ id: 'a', label: wideLabel.replace(/ /g, '_'), parent: 'g' }] };
    const member = buildModel({ view: createView(wide), databases: NO_DATABASES }).nodes[0];
    expect(member.width).toBeGreaterThan(nameWidth(long));
    expect(nameRoom(groupsOf(wide).get('g')?.width ?? 0)).toBeGreaterThanOrEqual(nameWidth(long));
  });

  it('counts a nested group among its parent’s members', () => {
    const inner = 'An inner group whose name is rather long';
    const outer = `${'Outer '.repeat(12)}name`;
    const graph: OverlaidGraph = {
      kind: 'flowchart',
      nodes: [{ id: 'a', label: 'a', parent: 'in' }],
      edges: [],
      groups: [
        { id: 'out', label: outer, nodes: ['in'] },
        { id: 'in', label: inner, parent: 'out', nodes: ['a'] },
      ],
    };
    const groups = groupsOf(graph);
    expect(nameWidth(outer)).toBeGreaterThan(GROUP_NAME_ROOM);
    // The outer name gets at least the inner frame's width.
    expect(nameRoom(groups.get('out')?.width ?? 0)).toBeGreaterThanOrEqual(Math.min(nameWidth(outer), groups.get('in')?.width ?? 0) - 1);
    expect(nameRoom(groups.get('out')?.width ?? 0)).toBeGreaterThan(GROUP_NAME_ROOM);
  });
});

describe('canvas model: state diagrams', () => {
  it('adds the [*] start and end marks of state diagrams, per composite state', () => {
    const graph: OverlaidGraph = {
      kind: 'state',
      nodes: [{ id: 'Created', label: 'Created' }, { id: 'Batched', label: 'Batched', parent: 'Settling' }],
      groups: [{ id: 'Settling', label: 'Settling', nodes: ['Batched'] }],
      edges: [{ source: 'Created', target: 'Settling' }],
      start: [{ state: 'Created' }, { state: 'Batched', scope: 'Settling' }],
      end: [{ state: 'Settling' }],
    };
    const model = buildModel({ view: createView(graph), databases: new Map() });
    expect(model.nodes.filter((n) => n.kind === 'start' || n.kind === 'end').map((n) => [n.id, n.parent ?? null])).toEqual([
      ['[*]start', null],
      ['[*]start:Settling', 'Settling'],
      ['[*]end', null],
    ]);
    expect(model.edges.map((e) => `${e.source}>${e.target}`)).toEqual(['Created>Settling', '[*]start>Created', '[*]start:Settling>Batched', 'Settling>[*]end']);
    // The marks gather their lines (one arrowhead where several end); the states do not.
    expect(layoutInput(model).nodes.filter((n) => n.gather).map((n) => n.id)).toEqual(['[*]start', '[*]start:Settling', '[*]end']);
  });
});

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

/** How long two orthogonal routes run on top of each other (collinear stretches of both), in pixels. */
function sharedLength(a: readonly Point[], b: readonly Point[]): number {
  let shared = 0;
  for (let i = 1; i < a.length; i++) {
    for (let j = 1; j < b.length; j++) {
      const [p, q, r, t] = [a[i - 1], a[i], b[j - 1], b[j]];
      const near = (u: number, v: number) => Math.abs(u - v) < 0.5;
      if (near(p.y, q.y) && near(r.y, t.y) && near(p.y, r.y)) {
        shared += Math.max(0, Math.min(Math.max(p.x, q.x), Math.max(r.x, t.x)) - Math.max(Math.min(p.x, q.x), Math.min(r.x, t.x)));
      } else if (near(p.x, q.x) && near(r.x, t.x) && near(p.x, r.x)) {
        shared += Math.max(0, Math.min(Math.max(p.y, q.y), Math.max(r.y, t.y)) - Math.max(Math.min(p.y, q.y), Math.min(r.y, t.y)));
      }
    }
  }
  return shared;
}

describe('layout (ELK, per group)', () => {
  const elk = new ELK();
  // ELK runs in this thread: on a busy machine a layout takes several times longer than on a quiet one.
  jest.setTimeout(120_000);

  it('puts every member inside its group frame and routes every edge, collapsed groups as boxes', async () => {
    const view = createView(fixtureTopology());
    const model = buildModel({ ...fixtureModelInput(), view });
    const result = await layoutDiagram(elk, layoutInput(model), new LayoutCache());
    // The context's own group (storage) frames the nodes it lists, as Mermaid's subgraphs frame theirs.
    expect(model.nodes.filter((n) => n.parent === 'storage').map((n) => n.id).sort()).toEqual(['idempotencyKeys', 'ledgerDb', 'ledgerEntries']);
    for (const node of model.nodes) {
      expect([node.id, result.boxes[node.id]?.width]).toEqual([node.id, node.width]);
      if (node.parent) expect([node.id, inside(result.boxes[node.id], result.boxes[node.parent])]).toEqual([node.id, true]);
    }
    for (const edge of model.edges) expect([edge.key, (result.edges[edge.key]?.points.length ?? 0) >= 2]).toEqual([edge.key, true]);
    // Labelled edges get a place for their label.
    expect(result.edges['api->ledgerDb#0'].label).toBeDefined();

    const collapsed = buildModel({ ...fixtureModelInput(), view: collapseGroup(view, 'core') });
    const after = await layoutDiagram(elk, layoutInput(collapsed), new LayoutCache());
    expect(after.boxes['api']).toBeUndefined();
    expect(after.boxes['core'].height).toBe(44);
    // The edge from the queue to the worker now points at the group.
    expect(collapsed.edges.some((e) => e.source === 'events' && e.target === 'core')).toBe(true);
  });

  it('keeps a line drawn differently off the trunk of the others: a removed edge is not hidden under an added one', async () => {
    // The preview of a change that replaced Orders API → Events with Orders API → Cache: both left the Core group
    // through one port on one trunk, and the added line, drawn last, hid the removed one up to the frame.
    const graph: OverlaidGraph = {
      kind: 'flowchart',
      nodes: [{ id: 'web', label: 'Web' }, { id: 'api', label: 'Orders API', parent: 'core' }, { id: 'db', label: 'Orders DB', parent: 'core' }, { id: 'cache', label: 'Cache' }, { id: 'plain', label: 'Plain' }],
      edges: [{ source: 'web', target: 'api' }, { source: 'api', target: 'db' }, { source: 'api', target: 'cache' }, { source: 'api', target: 'plain' }],
      groups: [{ id: 'core', label: 'Core', nodes: ['api', 'db'] }],
    };
    const highlights = {
      nodes: new Map([['cache', 'added' as const]]),
      groups: new Map(),
      edges: new Map([['api->cache#0', 'added' as const]]),
      removedNodes: [{ id: 'queue', label: 'Events' }],
      removedGroups: [],
      removedEdges: [{ source: 'api', target: 'queue' }],
    };
    const model = buildModel({ view: createView(graph), databases: NO_DATABASES, highlights });
    const input = layoutInput(model);
    const removed = model.edges.find((e) => e.status === 'removed')?.key ?? '';
    expect(input.edges.map((e) => [e.key, e.stroke !== undefined])).toEqual([
      ['web->api#0', false],
      ['api->db#0', false],
      ['api->cache#0', true],
      ['api->plain#0', false],
      [removed, true],
    ]);
    const result = await layoutDiagram(elk, input, new LayoutCache());
    const route = (key: string) => result.edges[key].points;
    expect(sharedLength(route(removed), route('api->cache#0'))).toBe(0);
    expect(sharedLength(route(removed), route('api->plain#0'))).toBe(0);
    expect(sharedLength(route('api->cache#0'), route('api->plain#0'))).toBe(0);
  });

  it.each(['TB', 'LR'])('ends every line at a symbol drawn above its label on the symbol’s circle, not beside the label (%s)', async (direction) => {
    // A summing junction with a two-line label: ELK spread the ends along the whole box, and lines stopped beside the
    // label, or in the air beside the circle.
    const graph: OverlaidGraph = {
      kind: 'flowchart',
      direction,
      nodes: [
        { id: 'a', label: 'Orders' },
        { id: 'b', label: 'Refunds' },
        { id: 'c', label: 'Chargebacks' },
        { id: 'join', label: 'Every money movement joined into one ledger stream', shape: 'cross-circ' },
        { id: 'out', label: 'Ledger' },
        { id: 'audit', label: 'Audit' },
      ],
      edges: [{ source: 'a', target: 'join' }, { source: 'b', target: 'join' }, { source: 'c', target: 'join' }, { source: 'join', target: 'out' }, { source: 'join', target: 'audit' }],
      groups: [],
    };
    const model = buildModel({ view: createView(graph), databases: NO_DATABASES });
    const symbol = model.nodes.find((n) => n.id === 'join');
    expect(symbol?.height).toBeGreaterThan(SYMBOL_SIZE + 30);
    const result = await layoutDiagram(elk, layoutInput(model), new LayoutCache());
    const box = result.boxes['join'];
    const centre = { x: box.x + box.width / 2, y: box.y + SYMBOL_SIZE / 2 };
    const ends = model.edges.map((e) => {
      const points = result.edges[e.key].points;
      const end = e.source === 'join' ? points[0] : points[points.length - 1];
      return [e.key, Math.round(Math.abs(Math.hypot(end.x - centre.x, end.y - centre.y) - SYMBOL_SIZE / 2))];
    });
    expect(ends).toEqual(model.edges.map((e) => [e.key, 0]));
  });

  it('draws an expanded group exactly as before it was collapsed', async () => {
    const cache = new LayoutCache();
    const view = createView(fixtureTopology());
    const before = await layoutDiagram(elk, layoutInput(buildModel({ ...fixtureModelInput(), view })), cache);
    await layoutDiagram(elk, layoutInput(buildModel({ ...fixtureModelInput(), view: collapseGroup(view, 'core') })), cache);
    const again = await layoutDiagram(elk, layoutInput(buildModel({ ...fixtureModelInput(), view: expandGroup(collapseGroup(view, 'core'), 'core') })), cache);
    expect(again).toEqual(before);
  });
});

describe('canvas model: data nodes', () => {
  const tables = ['entries', 'accounts', 'balances', 'holds', 'payouts', 'fees', 'audit', 'events', 'outbox'];
  const id: SqlColumn = { name: 'id', type: 'uuid', nullable: false, primaryKey: true, unique: false, default: null, references: null };
  const ledger = { tables: tables.map((name) => ({ name, columns: [id] })), collections: [] };
  const drawn = (databaseName: string, tableName: string) => {
    const graph: OverlaidGraph = {
      kind: 'flowchart',
      nodes: [{ id: 'n', label: 'n', overlay: { type: 'db-table', name: 'Entries', dbConfig: { serviceName: 'payments', databaseName, tableName } } }],
      edges: [],
      groups: [],
    };
    return buildModel({ view: createView(graph), databases: new Map([['ledger', ledger]]) }).nodes[0];
  };

  it('makes room for the whole "Table not found" line under the name of a table the schema lacks, and for no more', () => {
    const withOneColumn = drawn('ledger', 'entries');
    expect(withOneColumn.body.database?.columns?.length).toBe(1);
    // In a database of nine tables, and in a database not synced at all: the name and that one line, as tall as a
    // table of one column, as wide as the sentence.
    for (const missing of [drawn('ledger', 'refunds'), drawn('archive', 'refunds')]) {
      expect(missing.body.database?.columns).toBeNull();
      expect(missing.height).toBe(withOneColumn.height);
      expect(missing.width).toBeGreaterThanOrEqual(textWidth('Table not found in the synced schema.', { size: 12 }) + 24);
    }
  });
});
