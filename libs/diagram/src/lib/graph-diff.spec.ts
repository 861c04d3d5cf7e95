import { diffGraphs } from './graph-diff';

interface N { id: string; label: string; parent?: string; overlay?: unknown }
interface E { source: string; target: string; label?: string }
interface G { id: string; label: string; nodes: string[] }

const base = {
  nodes: [
    { id: 'api', label: 'API' },
    { id: 'db', label: 'DB', parent: 'core' },
    { id: 'queue', label: 'Queue' },
  ] as N[],
  edges: [
    { source: 'api', target: 'db', label: 'reads' },
    { source: 'api', target: 'db', label: 'writes' },
    { source: 'api', target: 'queue' },
  ] as E[],
  groups: [{ id: 'core', label: 'Core', nodes: ['db'] }] as G[],
};

describe('diffGraphs', () => {
  it('reports nothing for identical graphs, even when the objects are copies', () => {
    const diff = diffGraphs(base, structuredClone(base));
    expect(diff.changed).toBe(false);
    expect(diff.nodes).toEqual({ added: [], removed: [], changed: [] });
    expect(diff.edges).toEqual({ added: [], removed: [], changed: [] });
  });

  it('reports added, removed and changed nodes, edges and groups with the differing fields', () => {
    // The base with edits (copies of the unchanged elements, as a second parse would give): api relabelled and
    // overlaid, queue replaced by cache in core, the second api->db edge relabelled, a new empty group.
    const [api, db] = base.nodes;
    const [reads, writes] = base.edges;
    const after = {
      nodes: [{ ...api, label: 'Public API', overlay: { type: 'shape' } }, { ...db }, { id: 'cache', label: 'Cache', parent: 'core' }] as N[],
      edges: [{ ...reads }, { ...writes, label: 'writes many' }, { source: 'api', target: 'cache' }] as E[],
      groups: [{ ...base.groups[0], nodes: ['db', 'cache'] }, { id: 'edge', label: 'Edge', nodes: [] }] as G[],
    };
    const diff = diffGraphs(base, after);
    expect(diff.changed).toBe(true);
    expect(diff.nodes.added).toEqual([{ id: 'cache', label: 'Cache', parent: 'core' }]);
    expect(diff.nodes.removed).toEqual([{ id: 'queue', label: 'Queue' }]);
    expect(diff.nodes.changed).toEqual([
      { key: 'api', before: { id: 'api', label: 'API' }, after: after.nodes[0], fields: ['label', 'overlay'] },
    ]);
    expect(diff.edges.added).toEqual([{ source: 'api', target: 'cache' }]);
    expect(diff.edges.removed).toEqual([{ source: 'api', target: 'queue' }]);
    expect(diff.edges.changed.map((change) => [change.key, change.fields])).toEqual([['api->db#1', ['label']]]);
    expect(diff.groups.added.map((group) => group.id)).toEqual(['edge']);
    expect(diff.groups.changed.map((change) => [change.key, change.fields])).toEqual([['core', ['nodes']]]);
  });

  it('matches parallel edges by occurrence, so removing the first one shows as a relabel plus a removal', () => {
    const after = { ...base, edges: [base.edges[0], base.edges[2]] };
    const diff = diffGraphs(base, after);
    expect(diff.edges.removed).toEqual([{ source: 'api', target: 'db', label: 'writes' }]);
    expect(diff.edges.changed).toEqual([]);
    const fewer = diffGraphs(base, { ...base, edges: [base.edges[1], base.edges[2]] });
    expect(fewer.edges.removed).toEqual([{ source: 'api', target: 'db', label: 'writes' }]);
    expect(fewer.edges.changed.map((change) => change.fields)).toEqual([['label']]);
  });
});
