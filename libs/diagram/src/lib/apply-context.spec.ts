import { applyContext } from './apply-context';
import type { DiagramContext } from './context/context-types';
import { DiagramIssueCode, GraphModel } from './model';
import { buildGraph } from '../testing/build-graph';

const graph: GraphModel = buildGraph({
  direction: 'LR',
  nodes: { API: 'API', db: 'DB', 'api-gateway': 'Gateway', api: 'lower api', gateway: 'gw', 'api-gateway-x': 'x' },
  edges: ['API -> db: SQL', 'api-gateway -> API', 'api -> gateway-x', 'api-gateway -> x'],
  groups: { core: { label: 'Core', nodes: ['API', 'db'] } },
});

describe('applyContext', () => {
  it('applies node overlays only on an exact, case-sensitive id and hints the case-insensitive match', () => {
    const { graph: out, report } = applyContext(graph, { nodes: { API: { type: 'shape', shape: 'hexagon' }, Db: { name: 'x' } } });
    expect(out.nodes.find((n) => n.id === 'API')?.overlay).toEqual({ type: 'shape', shape: 'hexagon' });
    expect(out.nodes.find((n) => n.id === 'db')?.overlay).toBeUndefined();
    expect(report.applied).toEqual(['$.nodes.API']);
    expect(report.unmatched).toEqual([{ key: 'nodes.Db', path: '$.nodes.Db', reason: expect.stringMatching(/case-sensitive/), hint: 'did you mean db?' }]);
    expect(report.warnings[0]).toMatchObject({ code: DiagramIssueCode.ContextUnmatchedKey, path: '$.nodes.Db' });
    expect(report.errors).toEqual([]);
  });

  it('applies edge overlays only in the Mermaid direction and hints the reversed edge', () => {
    const { graph: out, report } = applyContext(graph, { edges: { 'API-db': { label: 'reads' }, 'db-API': { label: 'wrong way' } } });
    expect(out.edges[0].overlay).toEqual({ label: 'reads' });
    expect(out.edges.filter((e) => e.overlay)).toHaveLength(1);
    expect(report.unmatched).toEqual([
      { key: 'edges.db-API', path: '$.edges["db-API"]', reason: 'there is no edge from db to API.', hint: 'db-API does not exist; API-db does (edge keys follow the Mermaid direction).' },
    ]);
  });

  it('resolves edge keys whose ids contain "-" against the real node ids', () => {
    const { graph: out, report } = applyContext(graph, { edges: { 'api-gateway-API': { label: 'routes' } } });
    expect(report.errors).toEqual([]);
    expect(out.edges[1]).toMatchObject({ source: 'api-gateway', target: 'API', overlay: { label: 'routes' } });
  });

  it('reports an ambiguous edge key as an error and applies nothing', () => {
    // "api-gateway-x" reads as api → gateway-x and as api-gateway → x; both edges exist.
    const { graph: out, report } = applyContext(graph, { edges: { 'api-gateway-x': { label: '?' } } });
    expect(out.edges.some((e) => e.overlay)).toBe(false);
    expect(report.errors).toEqual([expect.objectContaining({ code: DiagramIssueCode.ContextAmbiguousKey, path: '$.edges["api-gateway-x"]' })]);
    expect(report.errors[0].message).toContain('api → gateway-x');
    expect(report.errors[0].message).toContain('api-gateway → x');
  });

  it('hints [*] keys: markers are not nodes', () => {
    const { report } = applyContext(graph, { nodes: { '[*]': {} }, edges: { '[*]-API': {} } });
    expect(report.unmatched.map((u) => u.hint)).toEqual([expect.stringMatching(/\[\*\] is a start\/end marker/), expect.stringMatching(/\[\*\] is a start\/end marker/)]);
  });

  it('checks group members: a non-node entry is an error with a hint; a new group is created from the context', () => {
    const context: DiagramContext = { groups: { core: { name: 'Core services', nodes: ['API'] }, edge: { name: 'Edge', nodes: ['api-gateway', 'Gateway', 'nope'] } } };
    const { graph: out, report } = applyContext(graph, context);
    expect(out.groups).toEqual([
      { id: 'core', label: 'Core', nodes: ['API', 'db'], overlay: { name: 'Core services', nodes: ['API'] } },
      { id: 'edge', label: 'Edge', nodes: ['api-gateway'], overlay: context.groups?.['edge'], origin: 'context' },
    ]);
    expect(report.errors.map((e) => e.path)).toEqual(['$.groups.edge.nodes[1]', '$.groups.edge.nodes[2]']);
    expect(report.unmatched.map((u) => [u.key, u.hint])).toEqual([
      ['groups.edge.nodes[1]', 'did you mean gateway?'],
      ['groups.edge.nodes[2]', undefined],
    ]);
  });

  it('checks dbConfig.databaseName against the synced databases when they are given', () => {
    const node = { type: 'db-table' as const, dbConfig: { serviceName: 's', databaseName: 'Orders', tableName: 't' } };
    expect(applyContext(graph, { nodes: { db: node } }).report.errors).toEqual([]);
    expect(applyContext(graph, { nodes: { db: node } }, { databaseNames: ['Orders'] }).report.errors).toEqual([]);
    const { report } = applyContext(graph, { nodes: { db: node } }, { databaseNames: ['orders', 'users'] });
    expect(report.errors).toEqual([
      expect.objectContaining({ code: DiagramIssueCode.ContextUnknownDatabase, path: '$.nodes.db.dbConfig.databaseName', hint: 'did you mean orders?' }),
    ]);
  });

  it('refuses a context group whose id is a node id', () => {
    const { graph: out, report } = applyContext(graph, { groups: { db: { name: 'x', nodes: ['API'] } } });
    expect(out.groups.map((g) => g.id)).toEqual(['core']);
    expect(report.errors).toEqual([expect.objectContaining({ path: '$.groups.db', message: expect.stringContaining('already a node id') })]);
  });

  it('points a node key that names a group to groups.<id>', () => {
    const { report } = applyContext(graph, { nodes: { core: {} } });
    expect(report.unmatched[0]).toMatchObject({ reason: 'core is a group, not a node.', hint: 'put it under groups.core.' });
  });

  it('does not modify its input graph', () => {
    const before = JSON.stringify(graph);
    applyContext(graph, { nodes: { API: { name: 'x' } }, groups: { core: { nodes: ['api'] } } });
    expect(JSON.stringify(graph)).toBe(before);
  });
});
