import { DiagramIssueCode } from '../lib/model';
import { MERMAID_MAX_EDGES } from './mermaid-runtime';
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

  it('carries each C4 boundary’s type as Mermaid’s renderer writes it under the name', async () => {
    const c4 = await parseMermaid(
      [
        'C4Deployment',
        '  Enterprise_Boundary(ent, "Acme") {',
        '    System_Boundary(sys, "Payments") {',
        '      Container_Boundary(con, "API") {',
        '        Component(c, "Router")',
        '      }',
        '    }',
        '    Boundary(plain, "Plain")  {',
        '      System(s, "S")',
        '    }',
        '    Boundary(typed, "Typed", "Cluster")  {',
        '      System(t, "T")',
        '    }',
        '    Deployment_Node(dn, "Host") {',
        '      Container(k, "K")',
        '    }',
        '  }',
        '',
      ].join('\n'),
    );
    if (!c4.ok) throw new Error(JSON.stringify(c4.issues));
    expect(c4.graph.groups.map((group) => [group.id, group.type])).toEqual([
      ['ent', 'ENTERPRISE'],
      ['sys', 'SYSTEM'],
      ['con', 'CONTAINER'],
      ['plain', 'system'],
      ['typed', 'Cluster'],
      ['dn', 'node'],
    ]);
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

/**
 * Errors Mermaid raises while building a diagram rather than while parsing it (issue 14 §2): its own message is
 * kept, and the position is the statement Mermaid was handling — never a placeholder. Audit of Mermaid 12.3's
 * parse-time errors for the four kinds (`throw new Error` / `error.hash` in their databases, parsers and lexers):
 * one case per error below. C4's database raises none (its remaining throws are in the renderer).
 */
describe('parseMermaid: errors that are not syntax errors', () => {
  /** The single issue of a refused parse. */
  async function issueOf(source: string) {
    const result = await parseMermaid(source);
    if (result.ok) throw new Error('The diagram was accepted.');
    expect(result.issues).toHaveLength(1);
    return result.issues[0];
  }

  it('sequence: deactivating an inactive participant keeps Mermaid\'s message and its real line (not "line 1, ->>-")', async () => {
    const source = [
      '---',
      'title: Checkout',
      '---',
      'sequenceDiagram',
      '  %% the client asks, the server answers',
      '  participant Client',
      '  participant Server',
      '  Client->>+Server: POST /orders',
      '  alt paid',
      '    Server-->>Client: 201',
      '  else declined',
      '    Server-->>-Client: 402',
      '  end',
      '  Server-->>-Client: done',
      '',
    ].join('\n');
    expect(await issueOf(source)).toEqual({
      code: DiagramIssueCode.MermaidSyntaxError,
      severity: 'error',
      message: 'Mermaid refused line 14: Trying to inactivate an inactive participant (Server).',
      line: 14,
      column: 3,
      excerpt: '14 |   Server-->>-Client: done\n   |   ^',
    });
  });

  it('sequence: a deactivate statement of an inactive participant', async () => {
    expect(await issueOf('sequenceDiagram\n  A->>B: hi\n\n  deactivate B\n')).toMatchObject({ line: 4, message: expect.stringContaining('inactive participant (B)') });
  });

  it('sequence: a created participant without its creating message (named, not "undefined")', async () => {
    expect(await issueOf('sequenceDiagram\n  A->>B: hi\n  create participant C\n  A->>B: not C\n')).toMatchObject({
      line: 4,
      message: 'Mermaid refused line 4: The created participant C does not have an associated creating message after its declaration. Please check the sequence diagram.',
    });
  });

  it('sequence: a destroyed participant without its destroying message', async () => {
    expect(await issueOf('sequenceDiagram\n  A->>B: hi\n  destroy B\n  A->>C: not B\n')).toMatchObject({
      line: 4,
      message: expect.stringContaining('The destroyed participant B does not have an associated destroying message'),
    });
  });

  it('sequence: a participant in two boxes', async () => {
    expect(await issueOf('sequenceDiagram\n  box Front\n    participant A\n  end\n  box Back\n    participant A\n  end\n')).toMatchObject({
      line: 6,
      message: expect.stringContaining("A same participant should only be defined in one Box: A can't be in 'Front' and in 'Back'"),
    });
  });

  it('sequence: creating a participant that already exists', async () => {
    expect(await issueOf('sequenceDiagram\n  A->>B: hi\n  create participant B\n  A->>B: again\n')).toMatchObject({
      line: 3,
      message: expect.stringContaining('It is not possible to have actors with the same id'),
    });
  });

  it('sequence and flowchart: invalid YAML in @{ } metadata is reported at its statement, without js-yaml\'s snippet position', async () => {
    const sequence = await issueOf('sequenceDiagram\n  participant A@{ "type": [ }\n  A->>A: x\n');
    expect(sequence).toMatchObject({ line: 2, message: 'Mermaid refused line 2: missed comma between flow collection entries (YAML)' });
    const flowchart = await issueOf('flowchart LR\n  A --> B\n  C@{ shape: [ }\n');
    expect(flowchart).toMatchObject({ line: 3, column: 3, message: expect.stringContaining('(YAML)') });
    expect(flowchart.message).not.toMatch(/\(\d+:\d+\)/);
  });

  it('flowchart: unknown and mis-cased shape names', async () => {
    expect(await issueOf('flowchart LR\n  A --> B\n  C@{ shape: Rect }\n')).toMatchObject({ line: 3, column: 3, message: 'Mermaid refused line 3: No such shape: Rect. Shape names should be lowercase.' });
    expect(await issueOf('flowchart LR\n  A --> B\n\n  C@{ shape: nope }\n')).toMatchObject({ line: 4, message: 'Mermaid refused line 4: No such shape: nope.' });
  });

  it('flowchart: a linkStyle index past the last link', async () => {
    expect(await issueOf('flowchart LR\n  A --> B\n  linkStyle 3 stroke:red\n')).toMatchObject({ line: 3, column: 3 });
  });

  it('flowchart: the edge limit (MERMAID_MAX_EDGES), at the link that goes over it', async () => {
    const source = `flowchart LR\n${'a-->b\n'.repeat(MERMAID_MAX_EDGES)}  x --> y\n`;
    expect(await issueOf(source)).toEqual({
      code: DiagramIssueCode.MermaidSyntaxError,
      severity: 'error',
      message: `Mermaid refused line ${MERMAID_MAX_EDGES + 2}: Edge limit exceeded. ${MERMAID_MAX_EDGES} edges found, but the limit is ${MERMAID_MAX_EDGES}.`,
      line: MERMAID_MAX_EDGES + 2,
      column: 3,
      excerpt: `${MERMAID_MAX_EDGES + 2} |   x --> y\n       |   ^`,
    });
  });

  it('state: a state name of two words before {, thrown by the lexer', async () => {
    expect(await issueOf('stateDiagram-v2\n  [*] --> X\n  state foo bar {\n    X\n  }\n')).toMatchObject({
      line: 3,
      message: 'Mermaid refused line 3: State name must be a single word. Found: "foo bar {".',
    });
  });

  it('state: a composite state with descriptions has no single line to blame, so none is given', async () => {
    const issue = await issueOf('stateDiagram-v2\n  A: one\n  A: two\n  state A {\n    B\n  }\n');
    expect(issue).toEqual({
      code: DiagramIssueCode.MermaidSyntaxError,
      severity: 'error',
      message: 'Mermaid refused the diagram: Group nodes can only have label. Remove the additional description for node [A].',
    });
  });

  it('lexical errors: the position where the unrecognized text starts', async () => {
    expect(await issueOf('C4Context\n  %% people\n  Person(a, "A")\n  Rel(a, b, "x") ~~~ ¤\n')).toMatchObject({
      line: 4,
      column: 18,
      message: 'line 4, column 18: Mermaid does not recognize `~~~ ¤`.',
    });
  });

  it('frontmatter YAML errors: the line in the file, not in the YAML snippet', async () => {
    expect(await issueOf('---\n\ntitle: x\nconfig: [\n---\nflowchart LR\n  A --> B\n')).toMatchObject({
      line: 5,
      message: 'The frontmatter is not valid YAML (line 5): unexpected end of the stream within a flow collection (YAML)',
    });
  });

  it('syntax errors after blank lines that follow a } (the flowchart parser drops them) and after entity codes', async () => {
    expect(await issueOf('flowchart LR\n  A@{ shape: rect }\n\n\n  B --> C\n  C --> ((\n')).toMatchObject({ line: 6, column: 4 });
    expect(await issueOf('flowchart LR\n  A["#quot;x#quot;"] --> ((\n')).toMatchObject({ line: 2, column: 21 });
  });
});

describe('parseMermaid in the jsdom shim behaves like Mermaid in a browser', () => {
  it('reads a leading colour of a sequence box as its colour, not its title (CSS.supports)', async () => {
    const result = await parseMermaid('sequenceDiagram\n  box Purple Alice & John\n    participant A\n  end\n  box rgb(33, 66, 99) Backend\n    participant B\n  end\n  box Another Group\n    participant C\n  end\n  A->>B: hi\n');
    expect(result.ok && result.graph.groups.map((g) => g.label)).toEqual(['Alice & John', 'Backend', 'Another Group']);
  });
});
