import type { DiagramKind } from './model';

/**
 * Mermaid's syntax errors in words a person knows. Mermaid's jison parsers say which token they found and list
 * every token they would have taken (`found "[(", expected one of SQE, DOUBLECIRCLEEND, PE, …`): grammar names, not
 * advice. This module looks at the author's source around the position Mermaid reports and names the common
 * mistakes (an unclosed bracket or quote, an arrow Mermaid does not know, a block without its `end`, a sequence
 * message without text); anything else is said generically, with the expected tokens put in words. Pure and
 * browser-safe: the server, the CLI and the admin all show the same sentence. The raw parser detail is kept apart
 * (`detail`) for a verbose view.
 */

/** What Mermaid's parser reported, already mapped to the author's file (1-based line and column). */
export interface RawMermaidSyntaxError {
  line: number;
  column: number;
  /** The text of the token found; undefined at the end of the file. */
  found?: string;
  /** Token names the parser would have accepted (empty for lexical errors). */
  expected: readonly string[];
}

export interface MermaidSyntaxWords {
  /** Where the mistake is, which may differ from where Mermaid noticed it (e.g. the opening bracket). */
  line: number;
  column: number;
  /** The sentence without the position, e.g. "the node label opened with `[` is not closed (expected `]`)". */
  words: string;
}

/** "line 4, column 12: the node label …" — the one way every printer starts a positioned Mermaid problem. */
export function atPosition(line: number, column: number, words: string): string {
  return `line ${line}, column ${column}: ${words}`;
}

/**
 * The source line with a caret under the column, for a monospaced display:
 * ```
 *   4 |   B --> C[Cache
 *     |          ^
 * ```
 * Tabs are shown as one space so the caret stays under its character. Undefined when the line does not exist.
 */
export function sourceExcerpt(source: string, line: number, column: number): string | undefined {
  const text = source.split(/\r\n|\r|\n/)[line - 1];
  if (text === undefined) return undefined;
  const number = String(line);
  const shown = text.replace(/\t/g, ' ');
  const caretAt = Math.max(0, Math.min(column - 1, shown.length));
  return `${number} | ${shown}\n${' '.repeat(number.length)} | ${' '.repeat(caretAt)}^`;
}

/** The parser's own words, given at most once (in a details part): what it found and the tokens it expected. */
export function rawParserDetail(raw: RawMermaidSyntaxError): string {
  const found = raw.found === undefined ? 'end of file' : JSON.stringify(raw.found);
  return `Mermaid's parser at line ${raw.line}, column ${raw.column}: found ${found}${raw.expected.length ? `, expected one of ${raw.expected.join(', ')}` : ''}.`;
}

/** The sentence for one syntax error of a diagram of `kind`. */
export function explainMermaidSyntaxError(source: string, kind: DiagramKind, raw: RawMermaidSyntaxError): MermaidSyntaxWords {
  const lines = source.split(/\r\n|\r|\n/);
  const expected = new Set(raw.expected);
  const atEnd = raw.found === undefined || raw.found === '' || /^\s+$/.test(raw.found);
  const explain = [unclosedBlock, unclosedText, wrongArrow, messageWithoutText, unfinishedLinkText, linkWithoutTarget];
  for (const rule of explain) {
    const words = rule({ lines, kind, raw, expected, atEnd });
    if (words) return words;
  }
  return { line: raw.line, column: raw.column, words: generic(raw, atEnd) };
}

interface Situation {
  lines: string[];
  kind: DiagramKind;
  raw: RawMermaidSyntaxError;
  expected: ReadonlySet<string>;
  atEnd: boolean;
}
type Rule = (situation: Situation) => MermaidSyntaxWords | undefined;

/** Tokens of the flowchart grammar that close a node's label; expecting one means a label is still open. */
const LABEL_CLOSERS = ['SQE', 'PE', 'DIAMOND_STOP', 'CYLINDEREND', 'STADIUMEND', 'SUBROUTINEEND', 'DOUBLECIRCLEEND', 'TAGEND', 'TRAPEND', 'INVTRAPEND'];
const CLOSER_OF: Record<string, string> = { '[': ']', '(': ')', '{': '}' };

const isComment = (line: string) => line.trim().startsWith('%%');

/** An opening bracket or quote left open on a line: its column (1-based), what opened it and what closes it. */
interface OpenText {
  column: number;
  opener: string;
  closer: string;
  what: 'label' | 'quote' | 'link text';
}

/**
 * Scans one flowchart line for a node label (`[`, `(`, `{` and their doubles such as `[(`), a quoted text or a link
 * text (`|…|`) that is not closed. Quotes hide brackets (an open quote comes first); the outermost unclosed opener is reported, with the
 * brackets written right after it (`[(` is one opener, closed by `)]`).
 */
function openTextOnLine(line: string, quotesOnly: boolean): OpenText | undefined {
  const stack: { column: number; char: string }[] = [];
  let quote: number | undefined;
  let pipe: number | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote !== undefined) {
      if (char === '"') quote = undefined;
      continue;
    }
    if (char === '"') quote = i;
    else if (quotesOnly) continue;
    else if (char === '|' && stack.length === 0) pipe = pipe === undefined ? i : undefined;
    else if (char in CLOSER_OF) stack.push({ column: i, char });
    else if ((char === ']' || char === ')' || char === '}') && stack.length > 0 && CLOSER_OF[stack[stack.length - 1].char] === char) stack.pop();
  }
  // An open quote hides the brackets after it, so it is the mistake to fix first.
  if (quote !== undefined) return { column: quote + 1, opener: '"', closer: '"', what: 'quote' };
  if (stack.length > 0) {
    const first = stack[0];
    let opener = first.char;
    for (let j = 1; j < stack.length && stack[j].column === first.column + j; j++) opener += stack[j].char;
    const closer = [...opener].reverse().map((char) => CLOSER_OF[char]).join('');
    return { column: first.column + 1, opener, closer, what: 'label' };
  }
  if (pipe !== undefined) return { column: pipe + 1, opener: '|', closer: '|', what: 'link text' };
  return undefined;
}

/** An unclosed label, quote or link text, looked for on Mermaid's line and, for a label, the lines before it (labels may span lines). */
const unclosedText: Rule = ({ lines, kind, raw, expected, atEnd }) => {
  if (kind !== 'flowchart' && kind !== 'state') return undefined;
  // PIPE alone is no sign: a link may always be followed by `|text|`; at the end of the file it is.
  const expectsCloser = LABEL_CLOSERS.some((token) => expected.has(token)) || (atEnd && expected.has('PIPE'));
  if (!expectsCloser && !atEnd && !expected.has('STR')) return undefined;
  const quotesOnly = kind === 'state';
  for (let index = raw.line - 1; index >= 0 && (index === raw.line - 1 || expectsCloser); index--) {
    const line = lines[index];
    if (line === undefined || isComment(line)) continue;
    const open = openTextOnLine(line, quotesOnly);
    if (!open) continue;
    const words =
      open.what === 'quote'
        ? 'the text opened with `"` is not closed (expected `"`)'
        : open.what === 'link text'
          ? 'the link text opened with `|` is not closed (expected `|`, as in `A -->|text| B`)'
          : `the node label opened with \`${open.opener}\` is not closed (expected \`${open.closer}\`)`;
    return { line: index + 1, column: open.column, words };
  }
  return undefined;
};

/** A block still open at the end of the file: a `subgraph` (or sequence `loop`, `alt`…) without `end`, a state's `{` without `}`. */
const unclosedBlock: Rule = ({ lines, kind, expected, atEnd }) => {
  if (!atEnd || !(expected.has('end') || expected.has('STRUCT_STOP'))) return undefined;
  const opens: { line: number; column: number; text: string }[] = [];
  const starts = kind === 'sequence' ? /^(loop|alt|opt|par|par_over|critical|break|rect|box)\b/ : kind === 'flowchart' ? /^subgraph\b/ : undefined;
  lines.forEach((line, index) => {
    if (isComment(line)) return;
    const trimmed = line.trim();
    const column = line.length - line.trimStart().length + 1;
    if (kind === 'state') {
      const brace = line.indexOf('{');
      if (brace >= 0 && /^state\b/.test(trimmed)) opens.push({ line: index + 1, column, text: trimmed.slice(0, trimmed.indexOf('{')).trim() });
      if (trimmed === '}') opens.pop();
    } else if (starts?.test(trimmed)) opens.push({ line: index + 1, column, text: trimmed });
    else if (/^end\b/.test(trimmed)) opens.pop();
  });
  const open = opens[opens.length - 1];
  if (!open) return undefined;
  if (kind === 'state') return { line: open.line, column: open.column, words: `\`${open.text} {\` is not closed (expected \`}\` after its last line)` };
  const block = open.text.split(/\s+/)[0];
  return { line: open.line, column: open.column, words: `the \`${block}\` block \`${open.text}\` is not closed (expected \`end\` after its last line)` };
};

const ARROWS: Record<DiagramKind, string> = {
  flowchart: '`-->` (arrow), `---` (line), `-.->` (dotted) or `==>` (thick)',
  state: '`-->`',
  sequence: '`->>` (solid), `-->>` (dotted), `->` or `-->` (no arrowhead), `-x` (cross) or `-)` (async)',
  c4: '`Rel(from, to, "label")`',
};

/** The run of arrow characters at or after the column on that line, e.g. `->` or `=>`. */
function arrowAt(lines: readonly string[], line: number, column: number): { text: string; column: number } | undefined {
  const text = lines[line - 1] ?? '';
  const match = /[-=.<>]+/g;
  match.lastIndex = Math.max(0, column - 1);
  const found = match.exec(text);
  return found && /[-=<>]/.test(found[0]) && found[0] !== '.' ? { text: found[0], column: found.index + 1 } : undefined;
}

/** An arrow Mermaid does not know for this kind (`->` in a flowchart, `=>` anywhere, `->` in a state diagram). */
const wrongArrow: Rule = ({ lines, kind, raw, expected, atEnd }) => {
  const wantsArrow =
    (kind === 'flowchart' && (expected.has('LINK') || expected.has('START_LINK')) && !expected.has('EDGE_TEXT')) ||
    (kind === 'state' && expected.has('-->')) ||
    (kind === 'sequence' && expected.has('SOLID_ARROW'));
  const lexical = raw.expected.length === 0 && raw.found !== undefined && /^[-=<>]/.test(raw.found);
  if ((!wantsArrow || atEnd) && !lexical) return undefined;
  const arrow = arrowAt(lines, raw.line, raw.column);
  if (!arrow) return undefined;
  const name = kind === 'state' ? 'state transition' : kind === 'sequence' ? 'sequence message arrow' : 'flowchart link';
  return { line: raw.line, column: arrow.column, words: `\`${arrow.text}\` is not a ${name}; write ${ARROWS[kind]}` };
};

/** `A->>B` without `: text`: Mermaid requires text after every sequence message. */
const messageWithoutText: Rule = ({ lines, kind, raw, expected, atEnd }) => {
  if (kind !== 'sequence' || !atEnd || !expected.has('TXT') || expected.size !== 1) return undefined;
  const line = lines[raw.line - 1] ?? '';
  const match = /^\s*([^\s:]+?)\s*(<<-->>|<<->>|-->>|->>|-->|->|--x|-x|--\)|-\))\s*[+-]?\s*([^\s:]+)\s*$/.exec(line);
  const end = line.trimEnd().length + 1;
  const example = match ? `\`${match[1]}${match[2]}${match[3]}: what is sent\`` : '`A->>B: what is sent`';
  return { line: raw.line, column: end, words: `the message has no text (expected \`:\` and the text after it, as in ${example})` };
};

/** `A -- B` or `A --< B`: a link opened with `--` (text follows) that never reaches its closing `-->`. */
const unfinishedLinkText: Rule = ({ lines, kind, raw, expected }) => {
  if (kind !== 'flowchart' || !expected.has('EDGE_TEXT')) return undefined;
  const line = lines[raw.line - 1] ?? '';
  const start = /--|==|-\./.exec(line);
  const column = start ? start.index + 1 : raw.column;
  const opener = start?.[0] ?? '--';
  return { line: raw.line, column, words: `the link opened with \`${opener}\` is not finished: write \`${opener === '-.' ? '-.->' : opener === '==' ? '==>' : '-->'}\`, or \`A ${opener} text ${opener === '-.' ? '.->' : opener === '==' ? '==>' : '-->'} B\` for a link with text` };
};

/** `a -->` at the end of a line: a flowchart link with nothing to point to. */
const linkWithoutTarget: Rule = ({ lines, kind, raw, expected, atEnd }) => {
  if (kind !== 'flowchart' || !atEnd || !expected.has('NODE_STRING')) return undefined;
  const line = lines[raw.line - 1] ?? '';
  const link = /(\S*[-=.]{2,}[>ox]?)\s*$/.exec(line);
  if (!link) return undefined;
  return { line: raw.line, column: link.index + 1, words: `the link \`${link[1]}\` has no node after it (expected a node id, as in \`a --> b\`)` };
};

/** Token names of Mermaid's grammars in words (only the ones a person can act on; the others are left out). */
const TOKEN_WORDS: Record<string, string> = {
  NEWLINE: 'the end of the line',
  NL: 'the end of the line',
  SEMI: 'the end of the line',
  EOF: 'the end of the file',
  NODE_STRING: 'a node id',
  LINK: 'a link such as `-->`',
  START_LINK: 'a link such as `-->`',
  SQE: '`]`',
  PE: '`)`',
  DIAMOND_STOP: '`}`',
  PIPE: '`|`',
  TXT: 'message text after `:`',
  ACTOR: 'a participant name',
  ID: 'a state name',
  '-->': '`-->`',
  end: '`end`',
  STRUCT_STOP: '`}`',
  COLON: '`:`',
};

function generic(raw: RawMermaidSyntaxError, atEnd: boolean): string {
  const found = raw.found === undefined ? 'the end of the file' : atEnd ? 'the end of the line' : `\`${raw.found}\``;
  const wanted = [...new Set(raw.expected.map((token) => TOKEN_WORDS[token]).filter((words): words is string => words !== undefined))];
  if (raw.expected.length === 0) return `Mermaid does not recognize ${raw.found ? `\`${raw.found}\`` : 'the end of this line'}`;
  return `Mermaid did not expect ${found} here${wanted.length ? ` (it expected ${joinOr(wanted.slice(0, 4))})` : ''}`;
}

function joinOr(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
