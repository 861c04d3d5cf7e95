import { detectDiagramKind } from '../lib/detect-kind';
import { DiagramIssue, DiagramIssueCode, type DiagramKind, GraphModel } from '../lib/model';
import { frontMatterOf, originalPosition, parsedTextLikeMermaid, positionOf } from '../lib/source-map';
import type { ParsedDiagram } from '../lib/validate-parsed';
import { graphFromDb } from './graph-builders';
import { errorOrigin, watchParser } from './mermaid-error-origin';
import { withMermaid, type MermaidModule } from './mermaid-runtime';

export const DEFAULT_MAX_DIAGRAM_BYTES = 1024 * 1024;

/**
 * What parseMermaid's answer depends on besides the source and the size limit: Mermaid's version with this project's
 * patch, and the adapter (graph model, labels, issues). Caches of parse results key on it; change it whenever the
 * answer for the same source can change.
 */
export const MERMAID_ENGINE_VERSION = 'mermaid 12.3.0 + patches/mermaid+12.3.0.patch; adapter 4';

export interface ParseMermaidOptions {
  /** UTF-8 byte limit of the source; larger input → diagram_too_large. Default 1 MiB. */
  maxBytes?: number;
}

export type ParseMermaidResult = ParsedDiagram;

/** What a jison parser attaches to its parse errors. */
interface JisonErrorHash {
  text?: string;
  token?: string | number;
  loc?: { first_line: number; first_column: number };
  expected?: string[];
}

/**
 * Parses with Mermaid's own parser and reads the graph out of Mermaid's diagram database,
 * so the graph is exactly what Mermaid builds. Parses are serialized (see withMermaid).
 */
export async function parseMermaid(source: string, options: ParseMermaidOptions = {}): Promise<ParseMermaidResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DIAGRAM_BYTES;
  const bytes = new TextEncoder().encode(source).length;
  if (bytes > maxBytes) {
    return {
      ok: false,
      issues: [
        {
          code: DiagramIssueCode.DiagramTooLarge,
          severity: 'error',
          message: `The diagram is ${bytes} bytes; the limit is ${maxBytes} bytes.`,
        },
      ],
    };
  }
  const detected = detectDiagramKind(source);
  if (!detected.ok) return { ok: false, issues: [detected.issue] };
  const { kind } = detected;
  // Only Mermaid's own parse errors become issues; failing to load Mermaid is a server fault and rejects.
  const outcome = await withMermaid(async (mermaid): Promise<{ graph: GraphModel } | { error: unknown }> => {
    await watchKindParser(mermaid, kind);
    let diagram;
    try {
      diagram = await mermaid.mermaidAPI.getDiagramFromText(source);
      // Read the database before releasing the queue: the next parse clears it. Reading it runs some of Mermaid's
      // own checks too (state diagrams build their render model), which throw like a parse does.
      return { graph: graphFromDb(kind, diagram.db) };
    } catch (error) {
      return { error };
    }
  });
  if ('graph' in outcome) return { ok: true, kind, graph: outcome.graph };
  return { ok: false, issues: [mermaidIssue(source, kind, outcome.error)] };
}

/** A small diagram of each kind, parsed once per process to find (and watch) that kind's parser. */
const SAMPLES: Record<DiagramKind, string> = {
  flowchart: 'flowchart LR\n  a --> b\n',
  state: 'stateDiagram-v2\n  [*] --> a\n',
  sequence: 'sequenceDiagram\n  a->>b: m\n',
  c4: 'C4Context\n  Person(a, "A")\n',
};
const watchedKinds = new Set<DiagramKind>();

/** See mermaid-error-origin.ts: Mermaid's parsers are watched so errors that are not syntax errors keep a true position. */
async function watchKindParser(mermaid: MermaidModule, kind: DiagramKind): Promise<void> {
  if (watchedKinds.has(kind)) return;
  const sample = await mermaid.mermaidAPI.getDiagramFromText(SAMPLES[kind]);
  watchParser(sample.parser, { applyStatements: kind === 'sequence' });
  watchedKinds.add(kind);
}

/**
 * Turns what Mermaid threw into an issue whose position is never invented:
 * - a jison syntax error: its token's line and column, mapped back to the author's file;
 * - an error Mermaid raised while building the diagram (its databases' checks, lexer actions): Mermaid's own
 *   message, at the statement (or token) it was handling — or without a position when that is unknown. Such
 *   errors may carry a made-up jison hash (line 1), which is ignored;
 * - YAML errors: the frontmatter's line, or the statement's; js-yaml's own "(line:column)" counts lines of the
 *   YAML snippet, not of the file, so it is left out of the message.
 */
function mermaidIssue(source: string, kind: DiagramKind, error: unknown): DiagramIssue {
  const origin = errorOrigin(error);
  const message = mermaidMessage(error);
  const base = { code: DiagramIssueCode.MermaidSyntaxError, severity: 'error' as const };
  if (origin) {
    if (!origin.location) return { ...base, message: `Mermaid refused the diagram: ${message}` };
    const { line, column } = originalPosition(source, parsedTextLikeMermaid(source, kind), origin.location.first_line, origin.location.first_column);
    if (origin.source === 'lexer' && isLexicalError(error)) {
      const text = textAt(source, line, column);
      return { ...base, message: `Syntax error on line ${line}, column ${column}: Mermaid does not recognize ${text ? `the text "${text}"` : 'the end of this line'}.`, line, column };
    }
    return { ...base, message: `Mermaid refused line ${line}: ${message}`, line, column };
  }
  const yamlLine = frontmatterYamlLine(source, error);
  if (yamlLine !== undefined) return { ...base, message: `The frontmatter is not valid YAML (line ${yamlLine.line}): ${message}`, ...yamlLine };
  const hash = (error as { hash?: JisonErrorHash }).hash;
  if (!hash?.loc) return { ...base, message: `Mermaid could not parse the diagram: ${message}` };
  const { line, column } = originalPosition(source, parsedTextLikeMermaid(source, kind), hash.loc.first_line, hash.loc.first_column);
  const expected = (hash.expected ?? []).map((token) => token.replace(/^'|'$/g, ''));
  const found = hash.token === 1 || hash.token === 'EOF' ? 'the end of the file' : `"${hash.text ?? String(hash.token)}"`;
  return {
    ...base,
    message: `Syntax error on line ${line}, column ${column}: found ${found}${expected.length ? `, expected one of ${expected.join(', ')}` : ''}.`,
    line,
    column,
    expected,
  };
}

interface YamlError {
  name?: string;
  reason?: string;
  mark?: { line: number; column: number };
}

/** The first line of Mermaid's message; for js-yaml errors the reason alone (its position counts the YAML snippet's lines). */
function mermaidMessage(error: unknown): string {
  const yaml = error as YamlError;
  if (yaml?.name === 'YAMLException' && yaml.reason) return `${yaml.reason} (YAML)`;
  const raw = error instanceof Error ? error.message : String(error);
  const first = (raw.split('\n')[0] ?? raw).replace(/^Error: /, '');
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/**
 * A js-yaml error thrown outside any statement comes from the frontmatter: its line counts from where Mermaid's
 * frontmatter body starts. Only the line is given (Mermaid strips an indent from every body line first).
 */
function frontmatterYamlLine(source: string, error: unknown): { line: number } | undefined {
  const yaml = error as YamlError;
  if (yaml?.name !== 'YAMLException' || !yaml.mark) return undefined;
  const normalized = source.replace(/\r\n?/g, '\n');
  const frontMatter = frontMatterOf(normalized);
  if (!frontMatter) return undefined;
  return { line: positionOf(normalized, frontMatter.bodyStart).line + yaml.mark.line };
}

function isLexicalError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('Lexical error');
}

/** Up to 20 characters of the author's line from a 1-based column, for naming unrecognized text. */
function textAt(source: string, line: number, column: number): string {
  const text = source.split(/\r\n|\r|\n/)[line - 1] ?? '';
  return text.slice(column - 1, column + 19).trimEnd();
}
