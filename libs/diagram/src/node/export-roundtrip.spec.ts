import * as fc from 'fast-check';
import { applyContext } from '../lib/apply-context';
import type { ContextNode } from '../lib/context/context-types';
import { DiagramExportError, exportToMermaid, flowchartShapeName } from '../lib/export-mermaid';
import type { GraphModel } from '../lib/model';
import type { OverlaidGraph } from '../lib/overlay';
import { buildGraph } from '../testing/build-graph';
import { loadCorpus } from './corpus';
import { parseMermaid } from './parse-mermaid';

async function parse(source: string): Promise<GraphModel> {
  const result = await parseMermaid(source);
  if (!result.ok) throw new Error(`${JSON.stringify(result.issues)}\n${source}`);
  return result.graph;
}

/** Exports two nodes (id: label) joined by a labelled link, parses the Mermaid back and answers the labels read. */
async function labelsThroughMermaid(nodes: Record<string, string>, edgeLabel: string) {
  const [source, target] = Object.keys(nodes);
  const graph = buildGraph({ nodes, edges: [{ source, target, label: edgeLabel, type: 'arrow_point', stroke: 'normal' }] });
  const reparsed = await parse(exportToMermaid(graph).mermaid);
  return { nodes: reparsed.nodes.map((n) => n.label), edges: reparsed.edges.map((e) => e.label) };
}

/** What the round trip must keep: node ids, the edge multiset with labels, groups with their members. */
function shape(graph: OverlaidGraph) {
  const mermaidGroups = graph.groups.filter((g) => g.origin !== 'context');
  return {
    nodes: graph.nodes.map((n) => n.id).sort(),
    edges: graph.edges.map((e) => `${e.source}>${e.target}|${e.label ?? ''}|${e.id ?? ''}`).sort(),
    groups: mermaidGroups.map((g) => `${g.id}:${g.parent ?? ''}:${[...g.nodes].sort().join(',')}`).sort(),
  };
}

describe('exportToMermaid', () => {
  it.each(loadCorpus().map((entry) => [entry.name, entry.source] as const))('round-trips corpus diagram %s', async (_name, source) => {
    const graph = await parse(source);
    const exported = exportToMermaid(graph);
    const reparsed = await parse(exported.mermaid);
    expect(shape(reparsed)).toEqual(shape(graph));
    if (graph.kind === 'state') {
      const sorted = (list: object[] = []) => list.map((m) => JSON.stringify(m)).sort();
      const marks = (g: GraphModel) => ({ start: sorted(g.start), end: sorted(g.end), labels: g.nodes.map((n) => [n.id, n.label, n.shape]).sort(), groups: g.groups.map((x) => [x.id, x.label]).sort() });
      expect(marks(reparsed)).toEqual(marks(graph));
    }
    if (graph.kind === 'sequence') {
      // Participants and messages keep their order, labels and types.
      expect(reparsed.nodes).toEqual(graph.nodes);
      expect(reparsed.edges).toEqual(graph.edges);
      expect(reparsed.groups).toEqual(graph.groups);
    }
    if (graph.kind === 'flowchart') {
      // A plain node and `[…]` both draw Mermaid's default rectangle.
      const drawn = (g: GraphModel) => g.nodes.map((n) => [n.id, n.label, flowchartShapeName(n.shape) ?? 'rect']).sort();
      expect(drawn(reparsed)).toEqual(drawn(graph));
      const links = (g: GraphModel) => g.edges.map((e) => [e.source, e.target, e.type, e.stroke].join(' ')).sort();
      expect(links(reparsed)).toEqual(links(graph));
    }
  });

  it('writes subgraphs, @{ shape } nodes, quoted labels, edge ids and a context with what Mermaid cannot hold', () => {
    const graph: OverlaidGraph = {
      kind: 'flowchart',
      direction: 'LR',
      contextName: 'Topology',
      nodes: [
        { id: 'api', label: 'The "API"', parent: 'core', overlay: { type: 'shape', shape: 'hexagon', style: { fill: '#fff' } } },
        { id: 'db', label: 'DB', shape: 'cyl', parent: 'core' },
        { id: 'user', label: 'User' },
      ],
      edges: [
        { id: 'e1', source: 'user', target: 'api', label: 'calls', overlay: { markerEnd: { type: 'arrow', color: 'red' } } },
        { source: 'api', target: 'db', type: 'arrow_point', stroke: 'dotted' },
      ],
      groups: [
        { id: 'core', label: 'Core', nodes: ['api', 'db'], overlay: { name: 'Core services' } },
        { id: 'people', label: 'People', nodes: ['user'], origin: 'context', overlay: { name: 'People', nodes: ['user'] } },
      ],
    };
    const { mermaid, context } = exportToMermaid(graph);
    expect(mermaid).toBe(
      [
        'flowchart LR',
        '  user["User"]',
        '  subgraph core ["Core"]',
        '    api@{ shape: hex, label: "The #quot;API#quot;" }',
        '    db@{ shape: cyl, label: "DB" }',
        '  end',
        '  user e1@-->|"calls"| api',
        '  api -.-> db',
        '',
      ].join('\n'),
    );
    expect(context).toEqual({
      name: 'Topology',
      nodes: { api: { type: 'shape', shape: 'hexagon', style: { fill: '#fff' } } },
      edges: { 'user-api': { markerEnd: { type: 'arrow', color: 'red' } } },
      groups: { core: { name: 'Core services' }, people: { name: 'People', nodes: ['user'] } },
    });
  });

  it('keeps a state diagram a state diagram: composite states, pseudo-states and [*] marks', () => {
    const graph: OverlaidGraph = {
      kind: 'state',
      direction: 'LR',
      nodes: [
        { id: 'check', label: 'check', shape: 'choice', parent: 'Pay' },
        { id: 'ok', label: 'Approved "fine"', parent: 'Pay' },
        { id: 'Idle', label: 'Idle' },
      ],
      edges: [
        { source: 'Idle', target: 'Pay', label: 'buy' },
        { source: 'check', target: 'ok', label: 'n < 10' },
      ],
      groups: [{ id: 'Pay', label: 'Payment', nodes: ['check', 'ok'] }],
      start: [{ state: 'Idle' }, { state: 'check', scope: 'Pay' }],
      end: [{ state: 'ok', scope: 'Pay' }, { state: 'Pay' }],
    };
    expect(exportToMermaid(graph).mermaid).toBe(
      [
        'stateDiagram-v2',
        '  direction LR',
        '  Idle',
        '  state "Payment" as Pay {',
        '    state check <<choice>>',
        '    check',
        '    state "Approved #quot;fine#quot;" as ok',
        '    [*] --> check',
        '    ok --> [*]',
        '  }',
        '  [*] --> Idle',
        '  Pay --> [*]',
        '  Idle --> Pay : buy',
        '  check --> ok : n < 10',
        '',
      ].join('\n'),
    );
  });

  it('keeps a sequence diagram a sequence diagram: participant order, boxes, participant types and message types', async () => {
    const graph: OverlaidGraph = {
      kind: 'sequence',
      nodes: [
        { id: 'U', label: 'User', shape: 'actor' },
        { id: 'API', label: 'API', shape: 'participant', parent: 'box1' },
        { id: 'DB', label: 'Orders DB', shape: 'database', parent: 'box1' },
      ],
      edges: [
        { source: 'U', target: 'API', label: 'POST /orders', type: 'SOLID' },
        { source: 'API', target: 'DB', label: 'INSERT', type: 'SOLID_POINT' },
        { source: 'DB', target: 'API', type: 'DOTTED' },
      ],
      groups: [{ id: 'box1', label: 'Red team', nodes: ['API', 'DB'] }],
    };
    const { mermaid } = exportToMermaid(graph);
    expect(mermaid).toBe(
      [
        'sequenceDiagram',
        '  actor U as User',
        '  box transparent Red team',
        '    participant API',
        '    participant DB@{ "type": "database", "alias": "Orders DB" }',
        '  end',
        '  U->>API: POST /orders',
        '  API-)DB: INSERT',
        '  DB-->>API:',
        '',
      ].join('\n'),
    );
    expect(await parse(mermaid)).toEqual(graph);
  });

  it('refuses ids in which Mermaid would read a keyword (end-x, øcall, 1style) and keeps ids where it would not', async () => {
    for (const id of ['end-x', 'graph.v2', 'øcall', 'ø1style', '1end', 'subgraphé', 'defaultø']) {
      expect(() => exportToMermaid({ kind: 'flowchart', nodes: [{ id, label: 'x' }], edges: [], groups: [] })).toThrow(/keyword/);
    }
    const fine = ['x-end', 'endx', 'øcallx', 'call_ø', 'a.style', 'ø'];
    const graph: OverlaidGraph = { kind: 'flowchart', nodes: fine.map((id) => ({ id, label: id })), edges: [{ source: 'x-end', target: 'ø' }], groups: [] };
    const reparsed = await parse(exportToMermaid(graph).mermaid);
    expect(reparsed.nodes.map((n) => n.id)).toEqual(fine);
  });

  it('writes labels with backticks so Mermaid does not read a Markdown string', async () => {
    expect(await labelsThroughMermaid({ a: '`code`', b: 'x`' }, '`run`')).toEqual({ nodes: ['`code`', 'x`'], edges: ['`run`'] });
  });

  it('keeps entity codes after a colon on a line that mentions style (Mermaid cuts their ";" there) and "&" as written', async () => {
    expect(await labelsThroughMermaid({ lifestyle: 'say:"hi"', classDefs: 'a&#0 &lt b' }, 'a:`b`')).toEqual({ nodes: ['say:"hi"', 'a&#0 &lt b'], edges: ['a:`b`'] });
  });

  it('refuses ids Mermaid cannot express, naming each', () => {
    const graph: OverlaidGraph = {
      kind: 'flowchart',
      nodes: [
        { id: 'end', label: 'x' },
        { id: 'a b', label: 'x' },
        { id: 'a--b', label: 'x' },
        { id: 'fine', label: 'x' },
      ],
      edges: [],
      groups: [],
    };
    expect(() => exportToMermaid(graph)).toThrow(DiagramExportError);
    try {
      exportToMermaid(graph);
    } catch (error) {
      expect((error as DiagramExportError).issues.map((i) => i.message)).toEqual([
        'The node id "end" cannot be written in Mermaid: "end" is a Mermaid keyword. Rename it.',
        'The node id "a b" cannot be written in Mermaid: use letters, digits and _, optionally joined by single "." or "-".',
        'The node id "a--b" cannot be written in Mermaid: use letters, digits and _, optionally joined by single "." or "-".',
      ]);
    }
  });
});

const segment = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,5}$/);
const ids = fc
  .uniqueArray(fc.array(segment, { minLength: 1, maxLength: 2 }).map((parts) => parts.join('_')), { minLength: 1, maxLength: 8 })
  .map((list) => list.filter((id) => !['end', 'graph', 'flowchart', 'subgraph', 'style', 'class', 'classDef', 'linkStyle', 'click', 'call', 'href', 'interpolate'].includes(id)))
  .filter((list) => list.length > 0);
const text = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.!?'()&#;"-]{0,12}$/).map((s) => s.trim()).filter((s) => s.length > 0);
const nodeOverlay: fc.Arbitrary<ContextNode> = fc.record(
  {
    type: fc.constantFrom('shape', 'text', 'db-table' as const),
    name: text,
    style: fc.record({ fill: fc.constantFrom('#fff', 'red'), strokeWidth: fc.nat(5) }, { requiredKeys: [] }),
    data: fc.constant({ Owner: { type: 'Text Input' as const, value: 'team' } }),
  },
  { requiredKeys: ['type'] },
);

const drawnGraphs: fc.Arbitrary<OverlaidGraph> = ids.chain((nodeIds) => {
  const groupCount = Math.min(3, nodeIds.length);
  return fc
    .record({
      labels: fc.array(text, { minLength: nodeIds.length, maxLength: nodeIds.length }),
      parents: fc.array(fc.integer({ min: -1, max: groupCount - 1 }), { minLength: nodeIds.length, maxLength: nodeIds.length }),
      groupParents: fc.array(fc.integer({ min: -1, max: groupCount - 1 }), { minLength: groupCount, maxLength: groupCount }),
      overlays: fc.array(fc.option(nodeOverlay, { nil: undefined }), { minLength: nodeIds.length, maxLength: nodeIds.length }),
      edges: fc.array(
        fc.record({ s: fc.nat(nodeIds.length - 1), t: fc.nat(nodeIds.length - 1), label: fc.option(text, { nil: undefined }), styled: fc.boolean() }),
        { maxLength: 10 },
      ),
      contextGroup: fc.boolean(),
    })
    .map(({ labels, parents, groupParents, overlays, edges, contextGroup }) => {
      const groupIds = Array.from({ length: groupCount }, (_, i) => `grp_${i}`);
      const nodes = nodeIds.map((id, i) => ({
        id,
        label: labels[i],
        ...(parents[i] >= 0 ? { parent: groupIds[parents[i]] } : {}),
        ...(overlays[i] ? { overlay: overlays[i] } : {}),
      }));
      const groups: OverlaidGraph['groups'] = groupIds.map((id, i) => ({
        id,
        label: `Group ${i}`,
        nodes: [],
        ...(groupParents[i] >= 0 && groupParents[i] < i ? { parent: groupIds[groupParents[i]] } : {}),
        ...(i === 0 ? { overlay: { name: 'First group' } } : {}),
      }));
      for (const element of [...nodes, ...groups]) if (element.parent) groups.find((g) => g.id === element.parent)?.nodes.push(element.id);
      if (contextGroup) groups.push({ id: 'ctx', label: 'Ctx', nodes: [nodeIds[0]], origin: 'context', overlay: { name: 'Ctx', nodes: [nodeIds[0]] } });
      const seen = new Set<string>();
      const graphEdges = edges
        .map((e) => ({
          source: nodeIds[e.s],
          target: nodeIds[e.t],
          ...(e.label ? { label: e.label } : {}),
          // One overlay per source-target pair: that is all a context file can key.
          ...(e.styled && !seen.has(`${e.s}-${e.t}`) ? { overlay: { style: { strokeStyle: 'dashed' as const } } } : {}),
        }))
        .map((e) => {
          if (e.overlay) seen.add(`${nodeIds.indexOf(e.source)}-${nodeIds.indexOf(e.target)}`);
          return e;
        });
      return { kind: 'flowchart' as const, direction: 'LR', nodes, edges: graphEdges, groups };
    });
});

describe('exportToMermaid round trip on generated graphs (fast-check)', () => {
  it('sequence graphs come back identical: participants, types, aliases, boxes, messages in order', async () => {
    const reserved = new Set(['participant', 'actor', 'box', 'end', 'loop', 'alt', 'else', 'opt', 'par', 'and', 'rect', 'critical', 'option', 'break', 'note', 'activate', 'deactivate', 'autonumber', 'create', 'destroy', 'title', 'link', 'links', 'properties', 'details', 'as']);
    const slot = fc.record({
      boxed: fc.boolean(),
      size: fc.integer({ min: 1, max: 3 }),
      boxLabel: fc.option(text, { nil: undefined }),
    });
    const sequenceGraphs = fc
      .record({
        ids: fc.uniqueArray(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,6}$/), { minLength: 8, maxLength: 8 }).filter((ids) => ids.every((id) => !reserved.has(id))),
        slots: fc.array(slot, { minLength: 1, maxLength: 4 }),
        labels: fc.array(fc.option(text, { nil: undefined }), { minLength: 8, maxLength: 8 }),
        shapes: fc.array(fc.constantFrom('participant', 'actor', 'database', 'queue'), { minLength: 8, maxLength: 8 }),
        messages: fc.array(fc.record({ s: fc.nat(7), t: fc.nat(7), label: fc.option(text, { nil: undefined }), type: fc.constantFrom('SOLID', 'DOTTED', 'SOLID_OPEN', 'DOTTED_OPEN', 'SOLID_CROSS', 'DOTTED_CROSS', 'SOLID_POINT', 'DOTTED_POINT', 'BIDIRECTIONAL_SOLID', 'BIDIRECTIONAL_DOTTED') }), { maxLength: 8 }),
      })
      .map(({ ids, slots, labels, shapes, messages }): OverlaidGraph => {
        const nodes: OverlaidGraph['nodes'] = [];
        const groups: OverlaidGraph['groups'] = [];
        for (const { boxed, size, boxLabel } of slots) {
          const members = ids.slice(nodes.length, nodes.length + size);
          const box = boxed && members.length > 0 ? { id: `box${groups.length + 1}`, label: boxLabel ?? '', nodes: members } : undefined;
          if (box) groups.push(box);
          for (const id of members) {
            const i = nodes.length;
            nodes.push({ id, label: labels[i] ?? id, shape: shapes[i], ...(box ? { parent: box.id } : {}) });
          }
        }
        const edges = messages
          .filter((m) => m.s < nodes.length && m.t < nodes.length)
          .map((m) => ({ source: nodes[m.s].id, target: nodes[m.t].id, ...(m.label ? { label: m.label } : {}), type: m.type }));
        return { kind: 'sequence', nodes, edges, groups };
      });
    await fc.assert(
      fc.asyncProperty(sequenceGraphs, async (graph) => {
        expect(await parse(exportToMermaid(graph).mermaid)).toEqual(graph);
      }),
      { numRuns: 40 },
    );
  });

  it('state graphs keep states, composite states, transitions and [*] marks', async () => {
    const reserved = new Set(['state', 'note', 'end', 'direction', 'classDef', 'class', 'style', 'click', 'as']);
    const stateGraphs = drawnGraphs
      .filter((g) => g.nodes.every((n) => !reserved.has(n.id)))
      .chain((g) =>
        fc.record({
          graph: fc.constant(g),
          starts: fc.subarray(g.nodes.map((n) => n.id)),
          ends: fc.subarray(g.nodes.map((n) => n.id)),
        }),
      )
      .map(({ graph, starts, ends }): OverlaidGraph => {
        const parent = new Map(graph.nodes.map((n) => [n.id, n.parent]));
        const mark = (state: string) => (parent.get(state) ? { state, scope: parent.get(state) } : { state });
        return { ...graph, kind: 'state', groups: graph.groups.filter((x) => x.origin !== 'context'), start: starts.map(mark), end: ends.map(mark) };
      });
    await fc.assert(
      fc.asyncProperty(stateGraphs, async (graph) => {
        const reparsed = await parse(exportToMermaid(graph).mermaid);
        const normal = (g: GraphModel) => ({
          ...shape(g),
          labels: g.nodes.map((n) => `${n.id}=${n.label}`).sort(),
          start: (g.start ?? []).map((m) => JSON.stringify(m)).sort(),
          end: (g.end ?? []).map((m) => JSON.stringify(m)).sort(),
        });
        expect(normal(reparsed)).toEqual(normal(graph));
      }),
      { numRuns: 40 },
    );
  });

  it('parse(export(g)) keeps ids, edges and groups, and the exported context reproduces the overlays', async () => {
    await fc.assert(
      fc.asyncProperty(drawnGraphs, async (graph) => {
        let exported;
        try {
          exported = exportToMermaid(graph);
        } catch (error) {
          // Only the documented refusal is acceptable: parallel edges or dash-ambiguous keys with different overlays.
          expect(error).toBeInstanceOf(DiagramExportError);
          return;
        }
        const reparsed = await parse(exported.mermaid);
        expect(shape(reparsed)).toEqual(shape(graph));
        expect(reparsed.nodes.map((n) => [n.id, n.label])).toEqual(expect.arrayContaining(graph.nodes.map((n) => [n.id, n.label])));
        const { graph: overlaid, report } = applyContext(reparsed, exported.context);
        expect(report.errors).toEqual([]);
        expect(report.unmatched).toEqual([]);
        const overlayOf = (g: OverlaidGraph) => ({
          nodes: Object.fromEntries(g.nodes.map((n) => [n.id, n.overlay])),
          edges: g.edges.map((e) => `${e.source}>${e.target}:${JSON.stringify(e.overlay ?? null)}`).sort(),
          groups: Object.fromEntries(g.groups.map((x) => [x.id, x.overlay?.name])),
        });
        const expectedEdges = overlayOf(graph).edges.map((line) => line);
        // Every parallel edge receives the pair's overlay after the round trip.
        const pairOverlay = new Map(graph.edges.filter((e) => e.overlay).map((e) => [`${e.source}>${e.target}`, e.overlay]));
        expect(overlayOf(overlaid).edges).toEqual(
          graph.edges.map((e) => `${e.source}>${e.target}:${JSON.stringify(pairOverlay.get(`${e.source}>${e.target}`) ?? null)}`).sort(),
        );
        expect(expectedEdges.length).toBe(graph.edges.length);
        expect(overlayOf(overlaid).nodes).toEqual(overlayOf(graph).nodes);
        expect(overlayOf(overlaid).groups).toEqual(overlayOf(graph).groups);
      }),
      { numRuns: 60 },
    );
  });
});
