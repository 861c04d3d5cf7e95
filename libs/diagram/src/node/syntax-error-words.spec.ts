import { DiagramIssueCode, type DiagramIssue } from '../lib/model';
import { parseMermaid } from './parse-mermaid';

/**
 * The common Mermaid mistakes, each parsed by the real Mermaid 12.3 (patched, as installed): the issue must say
 * what is wrong in words, at the place to fix, with the source line and a caret, and carry Mermaid's own token
 * list once, in `detail` only.
 */
async function onlyIssue(source: string): Promise<DiagramIssue> {
  const result = await parseMermaid(source);
  if (result.ok) throw new Error('expected a syntax error');
  expect(result.issues).toHaveLength(1);
  return result.issues[0];
}

/** The excerpt as printed: the numbered line, then a caret under `column`. */
function excerpt(line: number, text: string, column: number): string {
  const number = String(line);
  return `${number} | ${text}\n${' '.repeat(number.length)} | ${' '.repeat(column - 1)}^`;
}

describe('Mermaid syntax errors in plain words', () => {
  it.each([
    ['[', ']', 'flowchart LR\n  A --> B\n  B --> C[Cache\n  C --> D\n', 3, '  B --> C[Cache', 10],
    ['(', ')', 'flowchart LR\n  A(Start --> B\n', 2, '  A(Start --> B', 4],
    ['{', '}', 'flowchart LR\n  A{Decide --> B\n', 2, '  A{Decide --> B', 4],
    ['[(', ')]', 'flowchart LR\n  db[(Orders --> api\n', 2, '  db[(Orders --> api', 5],
  ])('an unclosed node label opened with %s names the bracket and the one that closes it', async (opener, closer, source, line, text, column) => {
    const issue = await onlyIssue(source);
    expect(issue).toMatchObject({ code: DiagramIssueCode.MermaidSyntaxError, line, column });
    expect(issue.message).toBe(`line ${line}, column ${column}: the node label opened with \`${opener}\` is not closed (expected \`${closer}\`).`);
    expect(issue.excerpt).toBe(excerpt(line, text, column));
  });

  it('keeps the parser detail once, apart from the message, with every expected token listed once', async () => {
    const issue = await onlyIssue('flowchart LR\n  A --> B[Label\n');
    expect(issue.message).not.toMatch(/SQE|expected one of/);
    expect(issue.detail).toMatch(/^Mermaid's parser at line 2, column \d+: found end of file, expected one of SQE, /);
    const tokens = (issue.detail ?? '').replace(/^.*expected one of /, '').replace(/\.$/, '').split(', ');
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('an unclosed quote', async () => {
    const issue = await onlyIssue('flowchart LR\n  A["Label] --> B\n');
    expect(issue.message).toBe('line 2, column 5: the text opened with `"` is not closed (expected `"`).');
    expect(issue.excerpt).toBe(excerpt(2, '  A["Label] --> B', 5));
  });

  it('an unclosed link text', async () => {
    const issue = await onlyIssue('flowchart LR\n  A -->|calls B\n');
    expect(issue.message).toBe('line 2, column 8: the link text opened with `|` is not closed (expected `|`, as in `A -->|text| B`).');
  });

  it.each([
    ['->', 'flowchart LR\n  A -> B\n', 2, 5, '`->` is not a flowchart link; write `-->` (arrow), `---` (line), `-.->` (dotted) or `==>` (thick)'],
    ['=> (a lexical error)', 'flowchart LR\n  A => B\n', 2, 5, '`=>` is not a flowchart link; write `-->` (arrow), `---` (line), `-.->` (dotted) or `==>` (thick)'],
    ['->>', 'flowchart LR\n  A ->> B\n', 2, 5, '`->>` is not a flowchart link; write `-->` (arrow), `---` (line), `-.->` (dotted) or `==>` (thick)'],
    ['-> in a state diagram', 'stateDiagram-v2\n  A -> B\n', 2, 5, '`->` is not a state transition; write `-->`'],
    ['=> in a sequence diagram', 'sequenceDiagram\n  A->>B: hi\n  A=>B: hi\n', 3, 4, '`=>` is not a sequence message arrow; write `->>` (solid), `-->>` (dotted), `->` or `-->` (no arrowhead), `-x` (cross) or `-)` (async)'],
  ])('an arrow typo: %s', async (_name, source, line, column, words) => {
    const issue = await onlyIssue(source);
    expect(issue.message).toBe(`line ${line}, column ${column}: ${words}.`);
    expect(issue).toMatchObject({ line, column });
    expect(issue.excerpt).toBe(excerpt(line, source.split('\n')[line - 1], column));
  });

  it('a link opened for text but never finished', async () => {
    const issue = await onlyIssue('flowchart LR\n  A --< B\n');
    expect(issue.message).toBe('line 2, column 5: the link opened with `--` is not finished: write `-->`, or `A -- text --> B` for a link with text.');
  });

  it.each([
    ['a flowchart subgraph', 'flowchart LR\n  subgraph core [Core]\n    A --> B\n  C --> D\n', 'line 2, column 3: the `subgraph` block `subgraph core [Core]` is not closed (expected `end` after its last line).'],
    ['a sequence loop', 'sequenceDiagram\n  loop every minute\n    A->>B: ping\n', 'line 2, column 3: the `loop` block `loop every minute` is not closed (expected `end` after its last line).'],
    ['a composite state', 'stateDiagram-v2\n  state Busy {\n    A --> B\n', 'line 2, column 3: `state Busy {` is not closed (expected `}` after its last line).'],
  ])('`end` missing: %s', async (_name, source, message) => {
    const issue = await onlyIssue(source);
    expect(issue.message).toBe(message);
    expect(issue.excerpt?.split('\n')[1]).toBe('  |   ^');
  });

  it('an unknown diagram keyword suggests the nearest one', async () => {
    const issue = await onlyIssue('%% topology\nflowchat LR\n  A --> B\n');
    expect(issue).toMatchObject({ code: DiagramIssueCode.UnsupportedDiagramKind, line: 2, column: 1, hint: 'did you mean `flowchart`?' });
    expect(issue.message).toMatch(/^line 2, column 1: "flowchat" diagrams are not supported; did you mean `flowchart`\? Use flowchart, /);
    expect(issue.excerpt).toBe(excerpt(2, 'flowchat LR', 1));
    const pie = await onlyIssue('pie title Pets\n "Dogs" : 386\n');
    expect(pie.message).toMatch(/^line 1, column 1: "pie" diagrams are not supported\. Use /);
    expect(pie.hint).toBeUndefined();
  });

  it('a sequence message without text (no raw newline in the message)', async () => {
    const issue = await onlyIssue('sequenceDiagram\n  A->>B\n  B-->>A: ok\n');
    expect(issue.message).toBe('line 2, column 8: the message has no text (expected `:` and the text after it, as in `A->>B: what is sent`).');
    expect(issue.message).not.toContain('\n');
    expect(issue.excerpt).toBe(excerpt(2, '  A->>B', 8));
    expect(issue.detail).toBe(`Mermaid's parser at line 2, column 7: found "\\n", expected one of TXT.`);
  });

  it('anything else is said generically, the expected tokens in words', async () => {
    const issue = await onlyIssue('flowchart LR\n  A --- > B\n');
    expect(issue.message).toBe('line 2, column 4: Mermaid did not expect `>` here (it expected `:`, `|` or a node id).');
  });
});

describe('Mermaid syntax errors in plain words: a link without its target', () => {
  it('names the link and where it starts', async () => {
    const issue = await onlyIssue('flowchart LR\n  a --> b\n  b -->\n');
    expect(issue.message).toBe('line 3, column 5: the link `-->` has no node after it (expected a node id, as in `a --> b`).');
    expect(issue.excerpt).toBe(excerpt(3, '  b -->', 5));
  });
});
