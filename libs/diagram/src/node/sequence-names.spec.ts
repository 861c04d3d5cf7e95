import type { GraphModel } from '../lib/model';
import type { OverlaidGraph } from '../lib/overlay';
import { withParticipantNames } from '../lib/sequence-names';
import { loadCorpus } from './corpus';
import { parseMermaid } from './parse-mermaid';

async function parse(source: string): Promise<GraphModel> {
  const result = await parseMermaid(source);
  if (!result.ok) throw new Error(`${JSON.stringify(result.issues)}\n${source}`);
  return result.graph;
}

/** The graph with a context name on the given participants. */
function named(graph: GraphModel, names: Record<string, string>): OverlaidGraph {
  return { ...graph, nodes: graph.nodes.map((node) => (names[node.id] ? { ...node, overlay: { name: names[node.id] } } : node)) };
}

const SEQUENCES = loadCorpus().filter((entry) => /^sequence-/.test(entry.name));

describe('withParticipantNames (checked with Mermaid’s own parser)', () => {
  it('has sequence diagrams to check', () => {
    expect(SEQUENCES.length).toBeGreaterThanOrEqual(10);
  });

  const cases = SEQUENCES.flatMap((entry) => [[entry.name, 'every', entry.source] as const, [entry.name, 'every second', entry.source] as const]);
  it.each(cases)('names %s: %s participant, nothing else changes', async (_name, which, source) => {
    const graph = await parse(source);
    // Characters that end a statement (;), start a comment (#) or quote (") must arrive as text.
    const nameable = graph.nodes.filter((node, index) => !/\s/.test(node.id) && (which === 'every' || index % 2 === 1));
    const names = Object.fromEntries(nameable.map((node) => [node.id, `${node.id} service; #1 "main"`]));
    const rewritten = withParticipantNames(source, named(graph, names));
    expect(rewritten.split('\n')).toHaveLength(source.split('\n').length);

    const reparsed = await parse(rewritten);
    // Same participants in the same order, same types and boxes; messages unchanged and in order.
    expect(reparsed.nodes.map(({ id, shape, parent }) => ({ id, shape, parent }))).toEqual(graph.nodes.map(({ id, shape, parent }) => ({ id, shape, parent })));
    expect(reparsed.edges).toEqual(graph.edges);
    expect(reparsed.groups).toEqual(graph.groups);
    expect(Object.fromEntries(reparsed.nodes.map((node) => [node.id, node.label]))).toEqual(
      Object.fromEntries(graph.nodes.map((node) => [node.id, names[node.id] ?? node.label])),
    );
  });

  it('declares a participant first met in a message together with the others that message introduces, in order', async () => {
    const source = 'sequenceDiagram\n  participant W as Web\n  C->>+A: pay\n  A-->>-C: 201 Created\n';
    const graph = await parse(source);
    expect(graph.nodes.map((node) => node.id)).toEqual(['W', 'C', 'A']);
    const rewritten = withParticipantNames(source, named(graph, { A: 'Payments API' }));
    expect(rewritten).toBe('sequenceDiagram\n  participant W as Web\n  participant C; participant A as Payments API; C->>+A: pay\n  A-->>-C: 201 Created\n');
    const reparsed = await parse(rewritten);
    expect(reparsed.nodes.map((node) => [node.id, node.label])).toEqual([
      ['W', 'Web'],
      ['C', 'C'],
      ['A', 'Payments API'],
    ]);
  });

  it('names a participant first met in a note, and one declared only after its first message', async () => {
    const source = 'sequenceDiagram\n  Note over api,db: starts\n  api->>db: SELECT\n  participant db\n';
    const graph = await parse(source);
    const rewritten = withParticipantNames(source, named(graph, { api: 'Payments API', db: 'Ledger' }));
    expect(rewritten).toBe('sequenceDiagram\n  participant api as Payments API; participant db as Ledger; Note over api,db: starts\n  api->>db: SELECT\n  participant db\n');
    expect((await parse(rewritten)).nodes.map((node) => node.label)).toEqual(['Payments API', 'Ledger']);
  });

  it('replaces an alias, keeps metadata, create and wrap, and leaves ids with spaces alone', async () => {
    const source = [
      'sequenceDiagram',
      '  actor U as wrap:User',
      '  participant Db@{ "type" : "database" }',
      '  participant Alice Smith',
      '  U->>Db: read',
      '  create participant Q as Queue',
      '  Db->>Q: event',
      '  Alice Smith->>U: hi',
    ].join('\n');
    const graph = await parse(source);
    const rewritten = withParticipantNames(source, named(graph, { U: 'Customer', Db: 'Orders DB', Q: 'Events', 'Alice Smith': 'Alice' }));
    expect(rewritten.split('\n').slice(1, 6)).toEqual([
      '  actor U as wrap:Customer',
      '  participant Db@{ "type" : "database" } as Orders DB',
      '  participant Alice Smith',
      '  U->>Db: read',
      '  create participant Q as Events',
    ]);
    const reparsed = await parse(rewritten);
    expect(reparsed.nodes.map(({ id, label, shape }) => ({ id, label, shape }))).toEqual([
      { id: 'U', label: 'Customer', shape: 'actor' },
      { id: 'Db', label: 'Orders DB', shape: 'database' },
      { id: 'Alice Smith', label: 'Alice Smith', shape: 'participant' },
      { id: 'Q', label: 'Events', shape: 'participant' },
    ]);
  });

  it('returns the source unchanged when no participant has a context name', () => {
    const source = '---\ntitle: x\n---\nsequenceDiagram\n  A->>B: hi\n';
    expect(withParticipantNames(source, { nodes: [{ id: 'A', label: 'A' }, { id: 'B', label: 'B', overlay: { type: 'shape' } }] })).toBe(source);
  });
});
