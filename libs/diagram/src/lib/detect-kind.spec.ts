import { detectDiagramKind } from './detect-kind';
import { DiagramIssueCode } from './model';

describe('detectDiagramKind', () => {
  it.each([
    ['flowchart LR\n A-->B', 'flowchart', 'flowchart'],
    ['graph TD;\n A-->B', 'flowchart', 'graph'],
    ['stateDiagram-v2\n [*]-->A', 'state', 'stateDiagram-v2'],
    ['stateDiagram\n [*]-->A', 'state', 'stateDiagram'],
    ['sequenceDiagram\n A->>B: hi', 'sequence', 'sequenceDiagram'],
    ['C4Context\n Person(a, "A")', 'c4', 'C4Context'],
    ['C4Container', 'c4', 'C4Container'],
    ['C4Component', 'c4', 'C4Component'],
    ['C4Dynamic', 'c4', 'C4Dynamic'],
    ['C4Deployment', 'c4', 'C4Deployment'],
  ])('reads %j as %s', (source, kind, keyword) => {
    expect(detectDiagramKind(source)).toEqual({ ok: true, kind, keyword, line: 1 });
  });

  it('skips frontmatter, %%{init}%% directives, comments and blank lines, reporting the real line', () => {
    const source = '---\ntitle: x\nconfig:\n  theme: dark\n---\n%%{init: {"theme": "forest"}}%%\n\n%% a comment\n  sequenceDiagram\n  A->>B: hi\n';
    expect(detectDiagramKind(source)).toEqual({ ok: true, kind: 'sequence', keyword: 'sequenceDiagram', line: 9 });
  });

  it('names the keyword of an unsupported kind', () => {
    const result = detectDiagramKind('%% comment\nclassDiagram\n  A <|-- B');
    expect(result).toEqual({
      ok: false,
      issue: expect.objectContaining({ code: DiagramIssueCode.UnsupportedDiagramKind, line: 2, column: 1, message: expect.stringContaining('"classDiagram" diagrams are not supported') }),
    });
  });

  it('reports an empty file', () => {
    expect(detectDiagramKind('%% only a comment\n\n')).toEqual({ ok: false, issue: expect.objectContaining({ code: DiagramIssueCode.EmptyDiagram }) });
  });
});
