import { readFileSync } from 'node:fs';
import type { GraphModel } from '../lib/model';
import { loadCorpus } from './corpus';
import { parseMermaid } from './parse-mermaid';

/** The adapter's graph reduced to what the expected files record, sorted like them. */
function comparable(graph: GraphModel) {
  const byJson = <T>(a: T, b: T) => JSON.stringify(a).localeCompare(JSON.stringify(b));
  const opt = <V>(key: string, value: V | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    kind: graph.kind,
    nodes: graph.nodes.map((n) => ({ id: n.id, label: n.label, ...opt('parent', n.parent) })).sort(byJson),
    edges: graph.edges
      .map((e) => ({ source: e.source, target: e.target, ...opt('label', e.label), ...opt('id', e.id) }))
      .sort(byJson),
    groups: graph.groups
      .map((g) => ({ id: g.id, label: g.label, ...opt('parent', g.parent), nodes: [...g.nodes].sort() }))
      .sort(byJson),
    ...(graph.start ? { start: graph.start.map((m) => ({ state: m.state, ...opt('scope', m.scope) })).sort(byJson) } : {}),
    ...(graph.end ? { end: graph.end.map((m) => ({ state: m.state, ...opt('scope', m.scope) })).sort(byJson) } : {}),
  };
}

const corpus = loadCorpus();

describe('differential corpus: the adapter builds the graph Mermaid builds', () => {
  it('holds at least 60 diagrams covering all four kinds', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
    const kinds = new Set(corpus.map((entry) => entry.name.split('-')[0]));
    expect([...kinds].sort()).toEqual(['c4', 'flowchart', 'sequence', 'state']);
  });

  it.each(corpus.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    const expected = JSON.parse(readFileSync(entry.expectedPath, 'utf8'));
    const result = await parseMermaid(entry.source);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(comparable(result.graph)).toEqual(expected);
  });
});
