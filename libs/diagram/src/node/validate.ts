import type { DiagramIssue, DiagramKind } from '../lib/model';
import type { ApplyReport, OverlaidGraph } from '../lib/overlay';

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

/** Parses the Mermaid source, then the context (if any), applies it and returns every issue with its file. */
export async function validateDiagramWithContext(
  mermaidSource: string,
  contextText: string | undefined,
  options: ValidateDiagramOptions,
): Promise<ValidateDiagramResult> {
  void mermaidSource; void contextText; void options;
  throw new Error('validateDiagramWithContext: not implemented yet');
}
