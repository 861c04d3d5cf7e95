import { DiagramIssueCode } from './model';
import { validateParsedDiagram } from './validate-parsed';

describe('validateParsedDiagram (parse done elsewhere, e.g. in a worker or a cache)', () => {
  const fileNames = { diagram: 'd.mmd', context: 'd.context.json' };

  it('applies the context to an already parsed graph and locates application issues in the context text', () => {
    const parsed = { ok: true as const, kind: 'flowchart' as const, graph: { kind: 'flowchart' as const, nodes: [{ id: 'A', label: 'A' }], edges: [], groups: [] } };
    const result = validateParsedDiagram(parsed, '{\n  "groups": {"g": {"nodes": ["A", "a"]}}\n}', { fileNames });
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([
      expect.objectContaining({ code: DiagramIssueCode.ContextUnmatchedKey, file: 'd.context.json', path: '$.groups.g.nodes[1]', line: 2, column: 35, hint: 'did you mean A?' }),
    ]);
    expect(result.graph?.groups).toEqual([expect.objectContaining({ id: 'g', nodes: ['A'], origin: 'context' })]);
  });

  it('passes parse issues through with the diagram file name', () => {
    const parsed = { ok: false as const, issues: [{ code: DiagramIssueCode.DiagramTooLarge, severity: 'error' as const, message: 'too large' }] };
    expect(validateParsedDiagram(parsed, undefined, { fileNames })).toEqual({ ok: false, errors: [{ ...parsed.issues[0], file: 'd.mmd' }], warnings: [] });
  });
});
