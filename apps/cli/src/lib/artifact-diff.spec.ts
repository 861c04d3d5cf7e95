import type { OverlaidGraph } from '@sc/diagram';
import { diffArtifacts, type SideArtifact } from './artifact-diff';
import { DIFF_COMMENT_MARKER, diffMarkdown, diffText, summaryLine } from './diff-format';

const graph = (nodes: Array<[string, string, string?]>, edges: Array<[string, string, string?]>, groups: Array<[string, string[]]> = []): OverlaidGraph => ({
  kind: 'flowchart',
  nodes: nodes.map(([id, label, parent]) => ({ id, label, ...(parent ? { parent } : {}) })),
  edges: edges.map(([source, target, label]) => ({ source, target, ...(label ? { label } : {}) })),
  groups: groups.map(([id, members]) => ({ id, label: id, nodes: members })),
});
const diagram = (name: string, sha: string, g: OverlaidGraph): SideArtifact => ({ kind: 'architecture-diagram', name, files: [{ role: 'main', path: `d/${name}.mmd`, sha256: sha }], graph: g });
const other = (kind: SideArtifact['kind'], name: string, files: Array<[SideArtifact['files'][number]['role'], string]>): SideArtifact => ({
  kind,
  name,
  files: files.map(([role, sha256]) => ({ role, path: `${name}.${role}`, sha256 })),
});

const TOPOLOGY = graph([['api', 'API'], ['db', 'DB', 'core'], ['queue', 'Queue']], [['api', 'db', 'reads'], ['api', 'queue']], [['core', ['db']]]);
const BEFORE: SideArtifact[] = [
  diagram('topology', 'a1', TOPOLOGY),
  diagram('legacy', 'b1', graph([['x', 'X']], [])),
  other('flow', 'refunds', [['main', 'f1'], ['notes', 'n1']]),
  other('service-summary', 'summary', [['main', 's1']]),
  other('database-schema', 'ledger', [['main', 'l1']]),
];

describe('diffArtifacts', () => {
  it('reports nothing when both sides have the same files', () => {
    const result = diffArtifacts(BEFORE, structuredClone(BEFORE));
    expect(result.changed).toBe(false);
    expect(result.diagrams.map((entry) => entry.status)).toEqual(['unchanged', 'unchanged']);
    expect(summaryLine(result)).toBe('No changes.');
  });

  it('lists nodes, edges and groups added, removed and changed by id, and the other artifacts by file', () => {
    const topology = graph([['api', 'Public API'], ['db', 'DB', 'core'], ['cache', 'Cache', 'core']], [['api', 'db', 'reads'], ['api', 'cache']], [['core', ['db', 'cache']]]);
    const after: SideArtifact[] = [
      diagram('topology', 'a2', topology),
      diagram('billing', 'c1', graph([['b', 'B']], [])),
      other('flow', 'refunds', [['main', 'f1'], ['notes', 'n2']]),
      other('service-summary', 'summary', [['main', 's1']]),
    ];
    const result = diffArtifacts(BEFORE, after);
    expect(result.changed).toBe(true);
    expect(result.diagrams.map((entry) => [entry.name, entry.status])).toEqual([
      ['billing', 'added'],
      ['legacy', 'removed'],
      ['topology', 'changed'],
    ]);
    const changed = result.diagrams[2];
    expect(changed.nodes).toEqual({ added: [{ id: 'cache', label: 'Cache' }], removed: [{ id: 'queue', label: 'Queue' }], changed: [{ id: 'api', label: 'Public API', fields: ['label'] }] });
    expect(changed.edges).toEqual({ added: [{ id: 'api->cache#0' }], removed: [{ id: 'api->queue#0' }], changed: [] });
    expect(changed.groups.changed).toEqual([{ id: 'core', fields: ['nodes'] }]);
    expect(result.artifacts.map((entry) => [entry.kind, entry.name, entry.status, entry.files])).toEqual([
      ['database-schema', 'ledger', 'removed', []],
      ['flow', 'refunds', 'changed', ['notes']],
      ['service-summary', 'summary', 'unchanged', []],
    ]);
    expect(result.summary).toEqual({
      diagrams: { added: 1, removed: 1, changed: 1 },
      nodes: { added: 2, removed: 2, changed: 1 },
      edges: { added: 1, removed: 1, changed: 0 },
      groups: { added: 0, removed: 0, changed: 1 },
      artifacts: { added: 0, removed: 1, changed: 1 },
      // No side read the ledger's tables: it is compared by its files.
      tables: { added: 0, removed: 0, changed: 0 },
      columns: { added: 0, removed: 0, changed: 0 },
    });
    expect(summaryLine(result)).toBe(
      '3 diagrams changed (1 new, 1 removed): 2 nodes added, 2 nodes removed, 1 node changed, 1 edge added, 1 edge removed, 1 group changed; 2 other artifacts changed (database-schema ledger removed, flow refunds changed).',
    );
  });

  it('says when a diagram file changed but its drawing did not', () => {
    const result = diffArtifacts([diagram('topology', 'a1', TOPOLOGY)], [diagram('topology', 'a2', structuredClone(TOPOLOGY))]);
    expect(result.diagrams[0]).toMatchObject({ status: 'changed', filesOnly: true });
    expect(summaryLine(result)).toBe('1 diagram changed: files only, the drawings are the same.');
  });
});

describe('diff output', () => {
  const sides = { service: 'payments', before: 'revision 3 on https://context.example.com', after: 'the checkout (.service.yaml)' };
  const after = [diagram('topology', 'a2', graph([['api', 'API <b>bold</b> *x*'], ['db', 'DB', 'core']], [['api', 'db', 'reads'], ['api', 'db', 'writes']], [['core', ['db']]]))];
  const result = diffArtifacts([diagram('topology', 'a1', TOPOLOGY)], after);

  it('text: a table per kind of artifact and the changes in words', () => {
    const text = diffText(result, sides);
    expect(text).toContain('Service payments: revision 3 on https://context.example.com → the checkout (.service.yaml)');
    expect(text).toMatch(/^topology\s+changed\s+0\/1\/1\s+1\/1\/0\s+0\/0\/0$/m);
    expect(text).toContain('  removed node queue "Queue"');
    expect(text).toContain('  added edge api → db (2nd) "writes"');
    expect(text.trimEnd().split('\n').pop()).toBe(summaryLine(result));
  });

  it('markdown: marker first, the summary, a collapsible section per changed diagram, the preview link; labels cannot inject HTML', () => {
    const markdown = diffMarkdown(result, sides, 'https://context.example.com/orgs/acme/previews/p1');
    const lines = markdown.split('\n');
    expect(lines[0]).toBe(DIFF_COMMENT_MARKER);
    expect(markdown).toContain('**1 diagram changed: 1 node removed, 1 node changed, 1 edge added, 1 edge removed.**');
    expect(markdown).toContain('[See the change on the drawing (preview)](https://context.example.com/orgs/acme/previews/p1)');
    expect(markdown).toContain(
      '<details>\n<summary>Diagram <a href="https://context.example.com/orgs/acme/previews/p1#diagram-topology"><code>topology</code></a> changed: 1 node removed, 1 node changed, 1 edge added, 1 edge removed</summary>',
    );
    expect(markdown).toContain('- Changed node `api` “API &lt;b&gt;bold&lt;/b&gt; \\*x\\*”: label');
    expect(markdown).toContain('- Added edge `api` → `db` (2nd) “writes”');
    expect(markdown).not.toContain('<b>');
  });

  it('markdown: stays under the comment limit, shortening long lists with a note', () => {
    const many = graph(Array.from({ length: 3000 }, (_, index): [string, string] => [`node${index}`, `A rather long node label number ${index}`]), []);
    const big = diffArtifacts([], [diagram('huge', 'h1', many)]);
    const markdown = diffMarkdown(big, sides);
    expect(markdown.length).toBeLessThanOrEqual(65_000);
    expect(markdown).toContain('- … and 2950 more');
    expect(markdown).toContain('_Shortened to fit a comment');
    expect(diffMarkdown(big, sides, undefined, 1_000_000)).not.toContain('Shortened');
  });
});
