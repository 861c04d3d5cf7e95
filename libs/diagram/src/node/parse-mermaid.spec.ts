import { DiagramIssueCode } from '../lib/model';
import { parseMermaid } from './parse-mermaid';

describe('parseMermaid', () => {
  it('carries flowchart classDef and style declarations, linkStyle, and C4 descriptions and technology', async () => {
    const flowchart = await parseMermaid(
      'flowchart LR\n  classDef hot fill:#f96,stroke:#333\n  a[A]:::hot --> b\n  style a stroke-width:4px\n  style b fill:#bbf\n  linkStyle 0 stroke:#ff3\n',
    );
    if (!flowchart.ok) throw new Error(JSON.stringify(flowchart.issues));
    expect(flowchart.graph.nodes.map((n) => [n.id, n.styles])).toEqual([
      ['a', ['fill:#f96', 'stroke:#333', 'stroke-width:4px']],
      ['b', ['fill:#bbf']],
    ]);
    expect(flowchart.graph.edges[0].styles).toContain('stroke:#ff3');

    const c4 = await parseMermaid('C4Container\n  ContainerDb(db, "Ledger", "PostgreSQL", "Stores entries")\n  Person(p, "Clerk", "Books payments")\n  BiRel(p, db, "Reads", "SQL")\n');
    if (!c4.ok) throw new Error(JSON.stringify(c4.issues));
    expect(c4.graph.nodes).toEqual([
      { id: 'db', label: 'Ledger', shape: 'container_db', description: 'Stores entries', technology: 'PostgreSQL' },
      { id: 'p', label: 'Clerk', shape: 'person', description: 'Books payments' },
    ]);
    expect(c4.graph.edges).toEqual([{ source: 'p', target: 'db', label: 'Reads', type: 'birel', technology: 'SQL' }]);
  });

  it('reports a syntax error with the line, column and tokens Mermaid expected, counted in the original file', async () => {
    const source = '---\ntitle: t\n---\n%%{init: {"theme":"dark"}}%%\n%% comment\nflowchart TD\n  A --> B\n  B --> C -->\n  C ---> ((\n';
    const result = await parseMermaid(source);
    expect(result).toEqual({
      ok: false,
      issues: [
        expect.objectContaining({
          code: DiagramIssueCode.MermaidSyntaxError,
          severity: 'error',
          line: 9,
          column: 4,
          expected: expect.arrayContaining(['NODE_STRING', 'PIPE']),
        }),
      ],
    });
  });

  it('reports syntax errors of the other kinds too', async () => {
    const state = await parseMermaid('stateDiagram-v2\n  A --> B\n  state X {\n  A -->\n');
    expect(state).toEqual({ ok: false, issues: [expect.objectContaining({ line: 4, expected: ['ID', 'EDGE_STATE'] })] });
    const sequence = await parseMermaid('sequenceDiagram\n  A->>B: hi\n  A-->>>\n');
    expect(sequence).toEqual({ ok: false, issues: [expect.objectContaining({ line: 3, expected: expect.arrayContaining(['ACTOR']) })] });
  });

  it('refuses input over the size limit before parsing', async () => {
    const result = await parseMermaid(`flowchart LR\n${'  A --> B\n'.repeat(20)}`, { maxBytes: 100 });
    expect(result).toEqual({ ok: false, issues: [expect.objectContaining({ code: DiagramIssueCode.DiagramTooLarge, message: 'The diagram is 213 bytes; the limit is 100 bytes.' })] });
  });

  it('refuses unsupported kinds naming the keyword', async () => {
    const result = await parseMermaid('pie title Pets\n "Dogs" : 386\n');
    expect(result).toEqual({ ok: false, issues: [expect.objectContaining({ code: DiagramIssueCode.UnsupportedDiagramKind, message: expect.stringContaining('"pie"') })] });
  });

  it('parses more than 500 edges (maxEdges is raised)', async () => {
    const lines = Array.from({ length: 700 }, (_, i) => `  n${i} --> n${i + 1}`);
    const result = await parseMermaid(`flowchart LR\n${lines.join('\n')}\n`);
    expect(result.ok && result.graph.edges.length).toBe(700);
  });

  it('serializes concurrent parses so module-global databases never mix', async () => {
    const sources = [
      'flowchart LR\n  a1 --> a2',
      'stateDiagram-v2\n  [*] --> s1\n  s1 --> s2',
      'sequenceDiagram\n  p1->>p2: m',
      'C4Context\n  Person(c1, "C1")\n  System(c2, "C2")\n  Rel(c1, c2, "r")',
      'flowchart TD\n  b1 --> b2 --> b3',
    ];
    const results = await Promise.all(sources.map((source) => parseMermaid(source)));
    expect(results.map((r) => (r.ok ? r.graph.nodes.map((n) => n.id) : r.issues))).toEqual([
      ['a1', 'a2'],
      ['s1', 's2'],
      ['p1', 'p2'],
      ['c1', 'c2'],
      ['b1', 'b2', 'b3'],
    ]);
  });

  it('keeps [*] out of the nodes: transitions to and from it become start/end marks', async () => {
    const result = await parseMermaid('stateDiagram-v2\n  [*] --> A\n  A --> B : go\n  B --> [*]\n  state C {\n    [*] --> c1\n  }\n');
    expect(result).toEqual({
      ok: true,
      kind: 'state',
      graph: {
        kind: 'state',
        nodes: [
          { id: 'A', label: 'A' },
          { id: 'B', label: 'B' },
          { id: 'c1', label: 'c1', parent: 'C' },
        ],
        edges: [{ source: 'A', target: 'B', label: 'go' }],
        groups: [{ id: 'C', label: 'C', nodes: ['c1'] }],
        start: [{ state: 'A' }, { state: 'c1', scope: 'C' }],
        end: [{ state: 'B' }],
      },
    });
  });
});

describe('parseMermaid in the jsdom shim behaves like Mermaid in a browser', () => {
  it('reads a leading colour of a sequence box as its colour, not its title (CSS.supports)', async () => {
    const result = await parseMermaid('sequenceDiagram\n  box Purple Alice & John\n    participant A\n  end\n  box rgb(33, 66, 99) Backend\n    participant B\n  end\n  box Another Group\n    participant C\n  end\n  A->>B: hi\n');
    expect(result.ok && result.graph.groups.map((g) => g.label)).toEqual(['Alice & John', 'Backend', 'Another Group']);
  });
});
