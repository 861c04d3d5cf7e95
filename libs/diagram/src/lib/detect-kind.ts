import { DiagramIssue, DiagramKind } from './model';

export type DetectKindResult =
  | { ok: true; kind: DiagramKind; keyword: string; line: number }
  | { ok: false; issue: DiagramIssue };

/** Reads the first diagram keyword after frontmatter, `%%{init}%%` directives and comments. */
export function detectDiagramKind(source: string): DetectKindResult {
  void source;
  throw new Error('detectDiagramKind: not implemented yet');
}
