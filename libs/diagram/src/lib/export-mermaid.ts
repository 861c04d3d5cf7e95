import type { DiagramContext } from './context/context-types';
import type { DiagramIssue } from './model';
import type { OverlaidGraph } from './overlay';

export interface ExportResult {
  mermaid: string;
  context: DiagramContext;
}

/** Thrown when the graph holds something Mermaid cannot express (an id it cannot parse). */
export class DiagramExportError extends Error {
  constructor(readonly issues: DiagramIssue[]) {
    super(issues.map((issue) => issue.message).join(' '));
    this.name = 'DiagramExportError';
  }
}

export function exportToMermaid(graph: OverlaidGraph): ExportResult {
  void graph;
  throw new Error('exportToMermaid: not implemented yet');
}
