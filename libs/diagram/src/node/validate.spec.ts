import { DiagramIssueCode } from '../lib/model';
import { validateDiagramWithContext } from './validate';

const files = { diagram: '.service/diagrams/topology.mmd', context: '.service/diagrams/topology.context.json' };
const diagram = 'flowchart LR\n  API --> db[(DB)]\n';

describe('validateDiagramWithContext', () => {
  it('returns the overlaid graph and report for a valid pair', async () => {
    const context = JSON.stringify({ name: 'Topology', nodes: { db: { type: 'data-source', dbConfig: { serviceName: 's', databaseName: 'orders', tableName: '' } } } });
    const result = await validateDiagramWithContext(diagram, context, { fileNames: files, databaseNames: ['orders'] });
    expect(result.ok).toBe(true);
    expect(result.kind).toBe('flowchart');
    expect(result.graph?.nodes.find((n) => n.id === 'db')?.overlay?.type).toBe('data-source');
    expect(result.report?.applied).toEqual(['$.nodes.db']);
    expect(result.errors).toEqual([]);
  });

  it('tags every issue with its file, line and JSON path', async () => {
    const context = '{\n  "nodes": {\n    "Api": {"type": "box"},\n    "db": {"type": "db-table", "dbConfig": {"serviceName": "s", "databaseName": "nope", "tableName": "t"}}\n  }\n}';
    const invalid = await validateDiagramWithContext(diagram, context, { fileNames: files, databaseNames: ['orders'] });
    expect(invalid.ok).toBe(false);
    expect(invalid.errors).toEqual([expect.objectContaining({ file: files.context, path: '$.nodes.Api.type', line: 3, column: 21 })]);

    const fixed = context.replace('"box"', '"shape"');
    const result = await validateDiagramWithContext(diagram, fixed, { fileNames: files, databaseNames: ['orders'] });
    expect(result.errors).toEqual([
      expect.objectContaining({ file: files.context, code: DiagramIssueCode.ContextUnknownDatabase, path: '$.nodes.db.dbConfig.databaseName', line: 4, column: 81 }),
    ]);
    expect(result.warnings).toEqual([expect.objectContaining({ file: files.context, path: '$.nodes.Api', hint: 'did you mean API?', line: 3, column: 12 })]);
  });

  it('reports Mermaid and context problems together', async () => {
    const result = await validateDiagramWithContext('flowchart LR\n  A -->\n', '{"nodes": {},}', { fileNames: files });
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => [e.file, e.code])).toEqual([
      [files.diagram, DiagramIssueCode.MermaidSyntaxError],
      [files.context, DiagramIssueCode.ContextInvalidJson],
    ]);
  });

  it('works without a context file', async () => {
    const result = await validateDiagramWithContext(diagram, undefined, { fileNames: { diagram: files.diagram } });
    expect(result).toMatchObject({ ok: true, kind: 'flowchart', errors: [], warnings: [] });
    expect(result.report).toBeUndefined();
  });
});
