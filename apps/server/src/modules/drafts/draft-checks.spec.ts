import type { OverlaidGraph } from '@sc/diagram';
import { asDraftGraph, exportFiles, layoutProblems, tooDeepPath } from './draft-checks';
import { DraftsConfig } from './drafts.config';

const graph = { nodes: [{ id: 'api' }, { id: 'db' }], groups: [{ id: 'core' }] };

describe('layoutProblems', () => {
  it('accepts positions of existing ids with optional sizes', () => {
    const layout = { nodes: [{ id: 'api', x: 0, y: -10.5 }, { id: 'db', x: 1, y: 2, width: 80, height: 40 }], groups: [{ id: 'core', x: 0, y: 0, width: 300, height: 200 }] };
    expect(layoutProblems(layout, graph)).toEqual([]);
  });

  it('reports every problem with its JSON path', () => {
    const problems = layoutProblems(
      { nodes: [{ id: 'api', x: 'left', y: Infinity }, { id: 'ghost', x: 0, y: 0 }, { id: 'api', x: 0, y: 0 }, 3], groups: [{ id: 'core', x: 0, width: 0, z: 1 }], zoom: 2 },
      graph,
    );
    expect(problems.map((p) => p.path)).toEqual([
      '$.layout.zoom',
      '$.layout.nodes[0].x',
      '$.layout.nodes[0].y',
      '$.layout.nodes[1].id',
      '$.layout.nodes[2].id',
      '$.layout.nodes[3]',
      '$.layout.groups[0].width',
      '$.layout.groups[0].z',
      '$.layout.groups[0]',
    ]);
    expect(problems[2].message).toContain('finite number');
    expect(layoutProblems([], graph).map((p) => p.path)).toEqual(['$.layout']);
    expect(layoutProblems({ nodes: [] }, graph).map((p) => p.message)).toEqual(['$.layout: "groups" is required (an empty array when there are none).']);
    expect(layoutProblems({ nodes: {}, groups: [] }, graph).map((p) => p.path)).toEqual(['$.layout.nodes']);
  });
});

describe('tooDeepPath', () => {
  it('finds the first value nested too deep, without recursion', () => {
    expect(tooDeepPath({ a: [{ b: 1 }] }, '$.graph', 3)).toBeUndefined();
    expect(tooDeepPath({ a: [{ b: { c: 1 } }] }, '$.graph', 3)).toBe('$.graph.a[0].b');
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(tooDeepPath({ nodes: deep }, '$.graph')).toMatch(/^\$\.graph\.nodes(\[0\])+$/);
  });
});

describe('asDraftGraph', () => {
  it("keeps a subgraph's nodes to the elements whose parent it is; the context's extra members stay in the overlay", () => {
    const synced: OverlaidGraph = {
      kind: 'flowchart',
      nodes: [
        { id: 'a', label: 'A', parent: 'core' },
        { id: 'b', label: 'B' },
      ],
      edges: [],
      groups: [
        { id: 'core', label: 'Core', nodes: ['a', 'b'], overlay: { nodes: ['b'] } },
        { id: 'ctx', label: 'Ctx', nodes: ['a', 'b'], origin: 'context', overlay: { nodes: ['a', 'b'] } },
      ],
    };
    expect(asDraftGraph(synced).groups).toEqual([
      { id: 'core', label: 'Core', nodes: ['a'], overlay: { nodes: ['b'] } },
      { id: 'ctx', label: 'Ctx', nodes: ['a', 'b'], origin: 'context', overlay: { nodes: ['a', 'b'] } },
    ]);
  });
});

describe('exportFiles', () => {
  it('names both files after the slug and writes the .service.yaml entry that syncs them', () => {
    expect(exportFiles('orders-topology')).toEqual({
      fileNames: { diagram: 'orders-topology.mmd', context: 'orders-topology.context.json' },
      serviceYaml:
        'architectureDiagrams:\n  - name: orders-topology\n    path: .service/diagrams/orders-topology.mmd\n    contextPath: .service/diagrams/orders-topology.context.json\n',
    });
  });
});

describe('DraftsConfig', () => {
  it('reads the limits and rejects bad values naming the variable', () => {
    expect(DraftsConfig.fromEnv({})).toEqual(new DraftsConfig(2 * 1024 * 1024, 5000, 10_000));
    expect(DraftsConfig.fromEnv({ SERVICE_DRAFT_MAX_BYTES: '64kb', SERVICE_DRAFT_MAX_NODES: '10', SERVICE_DRAFT_MAX_EDGES: '0' })).toEqual(new DraftsConfig(65536, 10, 0));
    expect(() => DraftsConfig.fromEnv({ SERVICE_DRAFT_MAX_NODES: '0', SERVICE_DRAFT_MAX_BYTES: 'lots' })).toThrow(/SERVICE_DRAFT_MAX_BYTES[\s\S]*SERVICE_DRAFT_MAX_NODES/);
  });
});
