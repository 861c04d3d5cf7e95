import type { DiagramIssue, DiagramKind, GraphModel } from '../lib/model';

export const DEFAULT_MAX_DIAGRAM_BYTES = 1024 * 1024;

export interface ParseMermaidOptions {
  /** UTF-8 byte limit of the source; larger input → diagram_too_large. Default 1 MiB. */
  maxBytes?: number;
}

export type ParseMermaidResult =
  | { ok: true; kind: DiagramKind; graph: GraphModel }
  | { ok: false; issues: DiagramIssue[] };

/** Parses with Mermaid's own parser and reads the graph out of Mermaid's diagram database. */
export async function parseMermaid(source: string, options: ParseMermaidOptions = {}): Promise<ParseMermaidResult> {
  void source; void options;
  throw new Error('parseMermaid: not implemented yet');
}
