import { buildModel, createView } from '@sc/diagram';
import { fixtureTopology } from '../../../testing/diagram-fixture';
import { changeHighlights, describeChanges } from './changes';

describe('change highlights', () => {
  it('highlights added and changed elements and brings back removed ones as ghosts', () => {
    const graph = fixtureTopology();
    const found = <T>(value: T | undefined): T => {
      if (value === undefined) throw new Error('not in the fixture');
      return value;
    };
    const changes = {
      name: 'topology',
      from: 1,
      to: 2,
      changed: true,
      nodes: {
        added: [found(graph.nodes.find((n) => n.id === 'psp'))],
        removed: [{ id: 'fraud', label: 'Fraud check', parent: 'core' }],
        changed: [{ key: 'api', before: graph.nodes[2], after: graph.nodes[2], fields: ['overlay'] }],
      },
      edges: { added: [found(graph.edges.find((e) => e.target === 'psp'))], removed: [{ source: 'api', target: 'fraud' }], changed: [] },
      groups: { added: [], removed: [], changed: [] },
    };
    const model = buildModel({ view: createView(graph), databases: new Map(), highlights: changeHighlights(changes, graph) });
    expect(model.nodes.find((n) => n.id === 'psp')?.status).toBe('added');
    expect(model.nodes.find((n) => n.id === 'api')?.status).toBe('changed');
    expect(model.nodes.find((n) => n.id === 'fraud')).toMatchObject({ status: 'removed', parent: 'core' });
    expect(model.edges.find((e) => e.key === 'api->psp#0')?.status).toBe('added');
    expect(model.edges.find((e) => e.source === 'api' && e.target === 'fraud')?.status).toBe('removed');
    expect(describeChanges(changes).map((c) => `${c.status} ${c.element} ${c.id}`)).toEqual([
      'added node psp',
      'added edge api → psp',
      'changed node api',
      'removed node fraud',
      'removed edge api → fraud',
    ]);
  });
});
