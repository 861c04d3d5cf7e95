import * as fc from 'fast-check';
import { collapseGroup, collapseGroups, createView, expandGroup } from './collapse';
import { buildGraph } from '../testing/build-graph';
import type { GraphModel } from './model';
import type { DiagramView } from './view';

// Edge indices matter below: a collapsed edge lists the original edges it stands for (`from`).
const graph: GraphModel = buildGraph({
  nodes: { user: 'User', api: 'API', worker: 'Worker', pg: 'PG', mon: 'Monitoring' },
  edges: [
    'user -> api: HTTPS',
    'api -> worker: jobs',
    'api -> pg: SQL',
    'worker -> pg: SQL',
    'api -> mon: metrics',
    'worker -> mon: logs',
    'user -> core',
  ],
  groups: {
    data: { label: 'Data', nodes: ['pg'] },
    core: { label: 'Core', nodes: ['api', 'worker', 'data'] },
  },
});

describe('collapseGroup / expandGroup', () => {
  it('hides members and nested groups, re-points crossing edges, merges duplicates and hides inner edges', () => {
    const view = collapseGroup(createView(graph), 'core');
    expect(view.visible.nodes.map((n) => n.id)).toEqual(['user', 'mon']);
    expect(view.visible.groups).toEqual([{ id: 'core', label: 'Core', nodes: [], collapsed: true }]);
    expect(view.visible.edges).toEqual([
      // user→api and the original user→core edge merge; their labels disagree, so none is kept.
      { source: 'user', target: 'core', from: [0, 6] },
      // api→mon and worker→mon merge; labels differ.
      { source: 'core', target: 'mon', from: [4, 5] },
    ]);
  });

  it('keeps a label when every merged edge agrees', () => {
    const view = collapseGroup(createView(graph), 'data');
    expect(view.visible.edges.filter((e) => e.target === 'data')).toEqual([
      { source: 'api', target: 'data', label: 'SQL', from: [2] },
      { source: 'worker', target: 'data', label: 'SQL', from: [3] },
    ]);
    const merged = collapseGroup(createView({ ...graph, edges: [graph.edges[2], graph.edges[3]] }), 'core');
    expect(merged.visible.edges).toEqual([]);
  });

  it('gives an edge it leaves alone the same object in every view of the graph, a re-pointed one a new object', () => {
    const view = createView(graph);
    const collapsed = collapseGroup(view, 'data');
    // user→api (0) and api→mon (4) keep their ends; api→pg (2) now ends at the collapsed group.
    expect(collapsed.visible.edges.find((e) => e.from.length === 1 && e.from[0] === 0)).toBe(view.visible.edges[0]);
    expect(collapsed.visible.edges.find((e) => e.from.length === 1 && e.from[0] === 4)).toBe(view.visible.edges[4]);
    expect(collapsed.visible.edges.find((e) => e.from.length === 1 && e.from[0] === 2)).not.toBe(view.visible.edges[2]);
    const expanded = expandGroup(collapsed, 'data');
    expect(expanded.visible.edges.every((edge, i) => edge === view.visible.edges[i])).toBe(true);
  });

  it('restores the view exactly on expand, and rejects unknown groups', () => {
    const view = createView(graph);
    expect(expandGroup(collapseGroup(view, 'core'), 'core')).toEqual(view);
    expect(() => collapseGroup(view, 'nope')).toThrow('The diagram has no group "nope".');
  });

  it('collapses several groups at once exactly as one by one', () => {
    const view = createView(graph);
    expect(collapseGroups(view, ['core', 'data'])).toEqual(collapseGroup(collapseGroup(view, 'data'), 'core'));
    expect(collapseGroups(view, ['data']).collapsed).toEqual(['data']);
    const both = collapseGroups(view, ['data', 'core']);
    expect(collapseGroups(both, ['core'])).toBe(both);
    expect(() => collapseGroups(view, ['core', 'nope'])).toThrow('The diagram has no group "nope".');
  });
});

/** Random graphs: a forest of groups, nodes placed in groups or at the top, edges between any elements. */
const graphs = fc
  .record({ groupCount: fc.integer({ min: 1, max: 5 }), nodeCount: fc.integer({ min: 1, max: 8 }) })
  .chain(({ groupCount, nodeCount }) =>
    fc.record({
      groupParents: fc.array(fc.integer({ min: -1, max: groupCount - 1 }), { minLength: groupCount, maxLength: groupCount }),
      nodeParents: fc.array(fc.integer({ min: -1, max: groupCount - 1 }), { minLength: nodeCount, maxLength: nodeCount }),
      edges: fc.array(
        fc.record({ s: fc.nat(nodeCount + groupCount - 1), t: fc.nat(nodeCount + groupCount - 1), label: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }) }),
        { maxLength: 15 },
      ),
    }),
  )
  .map(({ groupParents, nodeParents, edges }): GraphModel => {
    // Only an earlier group may be a parent, which keeps the group structure a forest.
    const groupParent = groupParents.map((p, i) => (p >= 0 && p < i ? `g${p}` : undefined));
    const groups = groupParents.map((_, i) => ({ id: `g${i}`, label: `G${i}`, nodes: [] as string[], ...(groupParent[i] ? { parent: groupParent[i] } : {}) }));
    const nodes = nodeParents.map((p, i) => ({ id: `n${i}`, label: `N${i}`, ...(p >= 0 ? { parent: `g${p}` } : {}) }));
    for (const element of [...nodes, ...groups]) if (element.parent) groups.find((g) => g.id === element.parent)?.nodes.push(element.id);
    const ids = [...nodes.map((n) => n.id), ...groups.map((g) => g.id)];
    return {
      kind: 'flowchart',
      nodes,
      groups,
      edges: edges.map((e) => ({ source: ids[e.s], target: ids[e.t], ...(e.label ? { label: e.label } : {}) })),
    };
  });

const withGroup = graphs.chain((g) => fc.record({ graph: fc.constant(g), group: fc.constantFrom(...g.groups.map((x) => x.id)) }));
const visibleIds = (view: DiagramView) => new Set([...view.visible.nodes.map((n) => n.id), ...view.visible.groups.map((g) => g.id)]);

describe('collapse properties (fast-check)', () => {
  const runs = { numRuns: 150 };

  it('collapseGroups of any groups equals collapsing them one by one, in any order', () => {
    fc.assert(
      fc.property(
        graphs.chain((g) => fc.record({ graph: fc.constant(g), ids: fc.shuffledSubarray(g.groups.map((x) => x.id)) })),
        ({ graph: g, ids }) => {
          const view = createView(g);
          expect(collapseGroups(view, ids)).toEqual(ids.reduce(collapseGroup, view));
        },
      ),
      runs,
    );
  });

  it('expand(collapse(v, g), g) deep-equals v, also with other groups already collapsed', () => {
    fc.assert(
      fc.property(withGroup, fc.array(fc.nat(), { maxLength: 3 }), ({ graph: g, group }, pre) => {
        let view = createView(g);
        for (const pick of pre) {
          const id = g.groups[pick % g.groups.length].id;
          if (id !== group) view = collapseGroup(view, id);
        }
        expect(expandGroup(collapseGroup(view, group), group)).toEqual(view);
      }),
      runs,
    );
  });

  it('collapsing several groups gives the same view in any order', () => {
    fc.assert(
      fc.property(graphs.chain((g) => fc.record({ graph: fc.constant(g), order: fc.shuffledSubarray(g.groups.map((x) => x.id)) })), ({ graph: g, order }) => {
        const forward = order.reduce(collapseGroup, createView(g));
        const backward = [...order].reverse().reduce(collapseGroup, createView(g));
        expect(forward).toEqual(backward);
      }),
      runs,
    );
  });

  it('hides every member of a collapsed group, keeps edges on visible endpoints and never an edge inside it', () => {
    fc.assert(
      fc.property(withGroup, ({ graph: g, group }) => {
        const view = collapseGroup(createView(g), group);
        const visible = visibleIds(view);
        const members = g.groups.find((x) => x.id === group)?.nodes ?? [];
        for (const member of members) expect(visible.has(member)).toBe(false);
        expect(visible.has(group)).toBe(true);
        for (const edge of view.visible.edges) {
          expect(visible.has(edge.source) && visible.has(edge.target)).toBe(true);
        }
        // Every original edge is shown once or was inside the group; no duplicates among re-pointed edges.
        const shown = view.visible.edges.flatMap((e) => e.from).sort((a, b) => a - b);
        expect(new Set(shown).size).toBe(shown.length);
        const inside = new Set<string>();
        const collect = (id: string) => g.groups.find((x) => x.id === id)?.nodes.forEach((m) => (inside.add(m), collect(m)));
        collect(group);
        const repointed = view.visible.edges.filter((e) => e.from.some((i) => inside.has(g.edges[i].source) || inside.has(g.edges[i].target)));
        const keys = repointed.map((e) => `${e.source}>${e.target}`);
        expect(new Set(keys).size).toBe(keys.length);
        for (const edge of repointed) expect(edge.source === group || edge.target === group).toBe(true);
      }),
      runs,
    );
  });
});
