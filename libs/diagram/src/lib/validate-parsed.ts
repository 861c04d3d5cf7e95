import { applyContext } from './apply-context';
import { parseContextJson } from './context/parse-context';
import { parseStrictJson } from './context/strict-json';
import type { DiagramIssue, DiagramKind, GraphModel } from './model';
import type { ApplyReport, OverlaidGraph } from './overlay';

/** The outcome of parsing a Mermaid file (what parseMermaid returns). */
export type ParsedDiagram = { ok: true; kind: DiagramKind; graph: GraphModel } | { ok: false; issues: DiagramIssue[] };

export interface ValidateDiagramOptions {
  /** File names put on every issue, e.g. `.service/diagrams/topology.mmd`. */
  fileNames: { diagram: string; context?: string };
  /** Databases synced together with the diagram (dbConfig.databaseName must be one of them). */
  databaseNames?: readonly string[];
  maxBytes?: number;
}

export interface ValidateDiagramResult {
  /** True when there are no errors (warnings allowed). */
  ok: boolean;
  kind?: DiagramKind;
  graph?: OverlaidGraph;
  report?: ApplyReport;
  errors: DiagramIssue[];
  warnings: DiagramIssue[];
}

/**
 * Everything validateDiagramWithContext does after the Mermaid parse: parse and validate the
 * context, apply it, and tag every issue with its file (and line / JSON path). Browser-safe,
 * so a caller that parses elsewhere (the server's worker pool, a cache) reuses it as is.
 */
export function validateParsedDiagram(parsed: ParsedDiagram, contextText: string | undefined, options: ValidateDiagramOptions): ValidateDiagramResult {
  const diagramFile = options.fileNames.diagram;
  const contextFile = options.fileNames.context ?? 'context.json';
  const inFile = (file: string) => (issue: DiagramIssue): DiagramIssue => ({ ...issue, file });

  const context = contextText === undefined ? undefined : parseContextJson(contextText);
  const contextErrors = (context?.errors ?? []).map(inFile(contextFile));
  const contextWarnings = (context?.warnings ?? []).map(inFile(contextFile));

  if (!parsed.ok) {
    const errors = [...parsed.issues.map(inFile(diagramFile)), ...contextErrors];
    return { ok: false, errors, warnings: contextWarnings };
  }
  if (!context?.context) {
    const graph: OverlaidGraph = parsed.graph;
    return { ok: contextErrors.length === 0, kind: parsed.kind, graph, errors: contextErrors, warnings: contextWarnings };
  }
  const applied = applyContext(parsed.graph, context.context, { databaseNames: options.databaseNames });
  // applyContext works on the parsed object; the positions of its JSON paths come from the text.
  const positions = parseStrictJson(contextText ?? '').positions;
  const located = (issue: DiagramIssue): DiagramIssue => {
    const at = issue.path === undefined ? undefined : positions.get(issue.path) ?? positions.get(parentPath(issue.path));
    return { ...issue, file: contextFile, ...(at && issue.line === undefined ? at : {}) };
  };
  const errors = [...contextErrors, ...applied.report.errors.map(located)];
  const warnings = [...contextWarnings, ...applied.report.warnings.map(located)];
  return { ok: errors.length === 0, kind: parsed.kind, graph: applied.graph, report: applied.report, errors, warnings };
}

/** `$.nodes.db.dbConfig.databaseName` → `$.nodes.db.dbConfig` (for a value that has no position of its own). */
function parentPath(path: string): string {
  return path.replace(/(\.[^.[\]]+|\[[^\]]*\])$/, '');
}
