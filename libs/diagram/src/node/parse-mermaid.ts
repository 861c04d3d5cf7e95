import { detectDiagramKind } from '../lib/detect-kind';
import { DiagramIssue, DiagramIssueCode, GraphModel } from '../lib/model';
import { cleanLikeMermaid, originalPosition } from '../lib/source-map';
import type { ParsedDiagram } from '../lib/validate-parsed';
import { graphFromDb } from './graph-builders';
import { withMermaid } from './mermaid-runtime';

export const DEFAULT_MAX_DIAGRAM_BYTES = 1024 * 1024;

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
    let diagram;
    try {
      diagram = await mermaid.mermaidAPI.getDiagramFromText(source);
    } catch (error) {
      return { error };
    }
    // Read the database before releasing the queue: the next parse clears it.
    return { graph: graphFromDb(kind, diagram.db) };
  });
  if ('graph' in outcome) return { ok: true, kind, graph: outcome.graph };
  return { ok: false, issues: [syntaxIssue(source, outcome.error)] };
}

function syntaxIssue(source: string, error: unknown): DiagramIssue {
  const hash = (error as { hash?: JisonErrorHash }).hash;
  const rawMessage = error instanceof Error ? error.message : String(error);
  if (!hash?.loc) {
    return { code: DiagramIssueCode.MermaidSyntaxError, severity: 'error', message: `Mermaid could not parse the diagram: ${firstLine(rawMessage)}` };
  }
  const { line, column } = originalPosition(source, cleanLikeMermaid(source), hash.loc.first_line, hash.loc.first_column);
  const expected = (hash.expected ?? []).map((token) => token.replace(/^'|'$/g, ''));
  const found = hash.token === 1 || hash.token === 'EOF' ? 'the end of the file' : `"${hash.text ?? String(hash.token)}"`;
  return {
    code: DiagramIssueCode.MermaidSyntaxError,
    severity: 'error',
    message: `Syntax error on line ${line}, column ${column}: found ${found}${expected.length ? `, expected one of ${expected.join(', ')}` : ''}.`,
    line,
    column,
    expected,
  };
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
