import leven from 'leven';
import { atPosition } from './mermaid-syntax-words';
import { DiagramIssue, DiagramIssueCode, DiagramKind } from './model';
import { cleanLikeMermaid, originOf, positionOf } from './source-map';

export type DetectKindResult =
  | { ok: true; kind: DiagramKind; keyword: string; line: number }
  | { ok: false; issue: DiagramIssue };

const KIND_BY_KEYWORD: Record<string, DiagramKind> = {
  flowchart: 'flowchart',
  'flowchart-elk': 'flowchart',
  graph: 'flowchart',
  stateDiagram: 'state',
  'stateDiagram-v2': 'state',
  sequenceDiagram: 'sequence',
  C4Context: 'c4',
  C4Container: 'c4',
  C4Component: 'c4',
  C4Dynamic: 'c4',
  C4Deployment: 'c4',
};

export const SUPPORTED_KEYWORDS = Object.keys(KIND_BY_KEYWORD);

/**
 * Reads the first diagram keyword after frontmatter, `%%{init}%%` directives and comments,
 * the same way Mermaid skips them, and reports the line it is on.
 */
export function detectDiagramKind(source: string): DetectKindResult {
  const cleaned = cleanLikeMermaid(source);
  const match = /^[^\s;:{([]+/.exec(cleaned.text);
  if (!match) {
    return refused({
      code: DiagramIssueCode.EmptyDiagram,
      message: 'The file contains no diagram: expected a first line such as "flowchart LR", "stateDiagram-v2", "sequenceDiagram" or "C4Context".',
      line: positionOf(source, source.length).line,
    });
  }
  const keyword = match[0];
  const { line, column } = positionOf(source, originOf(cleaned, 0) ?? 0);
  const kind = KIND_BY_KEYWORD[keyword];
  if (!kind) {
    const suggestion = closestKeyword(keyword);
    return refused({
      code: DiagramIssueCode.UnsupportedDiagramKind,
      message: atPosition(
        line,
        column,
        `"${keyword}" diagrams are not supported${suggestion ? `; did you mean \`${suggestion}\`?` : '.'} Use flowchart, graph, stateDiagram-v2, stateDiagram, sequenceDiagram or a C4 diagram (C4Context, C4Container, C4Component, C4Dynamic, C4Deployment).`,
      ),
      line,
      column,
      expected: SUPPORTED_KEYWORDS,
      ...(suggestion ? { hint: `did you mean \`${suggestion}\`?` } : {}),
    });
  }
  return { ok: true, kind, keyword, line };
}

function refused({ code, ...rest }: Omit<DiagramIssue, 'severity'>): DetectKindResult {
  return { ok: false, issue: { code, severity: 'error', ...rest } };
}

/**
 * The supported keyword a mistyped one was most likely meant to be (`flowchat` → `flowchart`, `sequencediagram` →
 * `sequenceDiagram`): case aside, at most 2 edits and fewer than a third of its letters (so `pie` suggests nothing).
 */
function closestKeyword(keyword: string): string | undefined {
  let best: { keyword: string; distance: number } | undefined;
  for (const candidate of SUPPORTED_KEYWORDS) {
    const distance = leven(keyword.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && distance * 3 < candidate.length && (!best || distance < best.distance)) best = { keyword: candidate, distance };
  }
  return best?.keyword;
}
