import type { SyncArtifact } from '@sc/contracts';
import type { ArtifactAnalysis } from './artifact-analysis';
import { markdownHeadings, searchEntriesOf } from './search-entries';

const file = (path: string, content = '') => ({ path, content, sha256: '0'.repeat(64) });

describe('searchEntriesOf', () => {
  it('indexes the service, context-named nodes with their data values, groups, tables, columns and headings', () => {
    const diagram: SyncArtifact = { kind: 'flow', name: 'refunds', file: file('f.mmd'), notes: file('f.md', '# Refunds\n```\n# not a heading\n```\n## Retries ##\n') };
    const analysis: ArtifactAnalysis = {
      type: 'diagram',
      version: 4,
      diagramKind: 'flowchart',
      graph: { kind: 'flowchart', nodes: [], edges: [], groups: [] },
      overlaid: {
        kind: 'flowchart',
        nodes: [
          { id: 'api', label: 'API\nserver', overlay: { name: 'Payments API', type: 'shape', data: { Owner: { type: 'Text Input', value: 'payments-team' }, Tags: { type: 'Tag Input', value: ['pci'] } } } },
          { id: 'store', label: 'Store', overlay: { type: 'db-table', dbConfig: { serviceName: 'payments', databaseName: 'ledger', tableName: 'entries' } } },
        ],
        edges: [
          { source: 'api', target: 'store', overlay: { label: 'writes' } },
          { source: 'api', target: 'store', label: 'reads' },
          { source: 'store', target: 'store', label: 'writes' },
        ],
        groups: [{ id: 'core', label: 'core', nodes: ['api'] }],
      },
      report: null,
      databases: [],
    };
    const schema: SyncArtifact = { kind: 'database-schema', name: 'ledger', engine: 'postgres', file: file('l.sql') };
    const tables: ArtifactAnalysis = {
      type: 'sql-schema',
      version: 4,
      tables: [{ name: 'entries', primaryKey: ['id'], columns: [{ name: 'id', type: 'bigint', nullable: false, primaryKey: true, unique: false, default: null, references: null }] }],
    };
    const entries = searchEntriesOf({ name: 'payments', description: 'Card payments' }, [
      { artifact: diagram, analysis },
      { artifact: schema, analysis: tables },
    ]);
    expect(entries.map((entry) => [entry.artifact?.name ?? null, entry.elementKind, entry.elementId, entry.title, entry.text])).toEqual([
      [null, 'service', 'payments', 'payments', 'Card payments'],
      // Labels of the edges in and out of a node are its text too, each once.
      ['refunds', 'node', 'api', 'Payments API', 'API server · api · shape · Owner · payments-team · Tags · pci · writes · reads'],
      // The table a db-table node binds is found by its name ("where is entries used").
      ['refunds', 'node', 'store', 'Store', 'store · db-table · entries · ledger · writes · reads'],
      // The label equals the title: said once.
      ['refunds', 'group', 'core', 'core', ''],
      ['refunds', 'heading', 'Refunds', 'Refunds', 'refunds'],
      ['refunds', 'heading', 'Retries', 'Retries', 'refunds'],
      ['ledger', 'table', 'entries', 'entries', 'id'],
      ['ledger', 'column', 'entries.id', 'id', 'entries · bigint'],
    ]);
  });

  it('reads ATX headings only, outside fenced code', () => {
    expect(markdownHeadings('#Not\n# One #\n~~~\n# code\n~~~\n   ### Two\n    # indented code')).toEqual(['One', 'Two']);
  });
});
