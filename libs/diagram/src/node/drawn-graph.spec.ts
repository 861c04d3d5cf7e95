import * as fc from 'fast-check';
import { applyContext } from '../lib/apply-context';
import { DiagramExportError, exportToMermaid } from '../lib/export-mermaid';
import type { GraphModel } from '../lib/model';
import { MERMAID_SHAPE_NAMES } from '../lib/mermaid-shapes';
import type { OverlaidGraph } from '../lib/overlay';
import { validateDrawnGraph } from '../lib/validate-graph';
import { parseMermaid } from './parse-mermaid';

async function parse(source: string): Promise<GraphModel> {
  const result = await parseMermaid(source);
  if (!result.ok) throw new Error(`${JSON.stringify(result.issues)}\n${source}`);
  return result.graph;
}

describe('Mermaid shape names a drawn graph may use', () => {
  it('are all accepted by Mermaid in @{ shape: … } and come back as the node shape', async () => {
    const names = [...MERMAID_SHAPE_NAMES];
    const graph = await parse(`flowchart LR\n${names.map((name, i) => `  n${i}@{ shape: ${name}, label: "x" }`).join('\n')}\n`);
    expect(graph.nodes.map((node) => node.shape)).toEqual(names);
  });

  it('match what Mermaid refuses: a name outside the list does not parse', async () => {
    for (const name of ['ellipse', 'blob', 'lean_right']) {
      await expect(parseMermaid(`flowchart LR\n  a@{ shape: ${name}, label: "x" }\n`)).resolves.toMatchObject({ ok: false });
    }
  });
});

const reserved = new Set(['end', 'graph', 'flowchart', 'subgraph', 'style', 'class', 'classDef', 'linkStyle', 'click', 'call', 'href', 'interpolate']);
/** Ids in several scripts, with Mermaid keywords inside them (end-x, øcall, x.style), which the id rule must sort out. */
const id = fc
  .tuple(
    fc.stringMatching(/^[A-Za-zÀ-ÖØ-öø-ÿ0-9_]{1,4}$/),
    fc.oneof({ weight: 12, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('end', 'call', 'style', 'graph', 'default') }),
    fc.constantFrom('', '-', '.', 'é', '1'),
    fc.stringMatching(/^[A-Za-z0-9_]{0,3}$/),
  )
  .map(([head, keyword, separator, tail]) => `${head}${keyword}${tail ? `${separator}${tail}` : ''}`)
  .filter((value) => /^[\p{L}\p{N}_]+(?:[.-][\p{L}\p{N}_]+)*$/u.test(value) && !reserved.has(value));
/** Labels with the characters Mermaid treats specially: quotes, entities, #, ;, |, brackets, HTML line breaks. */
const label = fc
  .stringMatching(/^[A-Za-z0-9`][A-Za-z0-9 ,.!?'"`()[\]{}|<>&#;:/-]{0,14}(<br>[a-z]{1,3})?$/)
  .filter((text) => validateDrawnGraph({ kind: 'flowchart', nodes: [{ id: 'x', label: text }], edges: [], groups: [] }).errors.length === 0);

/** CSS declarations as classDef/style/linkStyle lines give them, including ones the validator must refuse. */
const plausibleDeclaration = fc
  .tuple(
    fc.constantFrom('fill', 'stroke', 'stroke-width', 'color', 'stroke-dasharray', 'font-weight'),
    fc.constantFrom(':', ': '),
    fc.array(fc.oneof(fc.constantFrom('#f9f', '#333333', '4px', '1.5px', '5', 'bold', 'red', '-2px', '50%', 'none', 'dashed', 'x-large'), fc.stringMatching(/^[0-9#][A-Za-z0-9#%_]{0,3}$/)), { minLength: 1, maxLength: 2 }),
  )
  .map(([property, colon, words]) => `${property}${colon}${words.join(' ')}`);
const wildDeclaration = fc
  .tuple(fc.stringMatching(/^ {0,1}[a-z]{1,6}(-[a-z]{1,5})?$/), fc.constantFrom(':', ': '), fc.stringMatching(/^[A-Za-z0-9#.%_ -]{1,8}$/))
  .map(([property, colon, value]) => `${property}${colon}${value}`);
/** Words Mermaid's lexer reads as its own inside a style statement. */
const keywordDeclaration = fc
  .tuple(fc.constantFrom('fill:', 'stroke:1 ', ''), fc.constantFrom('v', 'end', 'end-x', 'x.end', 'endx', 'default', 'class', '_blank', 'click', '1style', 'accTitle'), fc.constantFrom('', ':1'))
  .map(([before, word, after]) => `${before}${word}${after}`);
const declaration = fc.oneof({ weight: 80, arbitrary: plausibleDeclaration }, { weight: 2, arbitrary: wildDeclaration }, { weight: 1, arbitrary: keywordDeclaration });
// Spaces after a comma are kept by Mermaid, so later declarations may start with one.
const styleList = fc.option(
  fc.tuple(declaration, fc.array(fc.tuple(fc.constantFrom('', ' '), declaration).map(([space, text]) => `${space}${text}`), { maxLength: 2 })).map(([first, rest]) => [first, ...rest]),
  { nil: undefined, freq: 3 },
);

/** Any graph the validator accepts must export to Mermaid that reads back as the same graph. */
const drawn: fc.Arbitrary<OverlaidGraph> = fc.uniqueArray(id, { minLength: 1, maxLength: 9 }).chain((ids) => {
  const groupIds = ids.slice(0, Math.min(3, ids.length - 1)).map((x) => `g_${x}`);
  return fc
    .record({
      labels: fc.array(label, { minLength: ids.length + groupIds.length, maxLength: ids.length + groupIds.length }),
      parents: fc.array(fc.integer({ min: -1, max: groupIds.length - 1 }), { minLength: ids.length, maxLength: ids.length }),
      shapes: fc.array(fc.option(fc.constantFrom('rect', 'diamond', 'cyl', 'lean_right', 'doc', 'bolt', 'stadium'), { nil: undefined }), { minLength: ids.length, maxLength: ids.length }),
      styles: fc.array(styleList, { minLength: ids.length, maxLength: ids.length }),
      edges: fc.array(
        fc.record({
          styles: styleList,
          s: fc.nat(ids.length + groupIds.length - 1),
          t: fc.nat(ids.length + groupIds.length - 1),
          label: fc.option(label, { nil: undefined }),
          link: fc.constantFrom(['arrow_point', 'normal'], ['arrow_point', 'dotted'], ['arrow_open', 'thick'], ['double_arrow_circle', 'normal']),
          dashed: fc.boolean(),
        }),
        { maxLength: 10 },
      ),
    })
    .map(({ labels, parents, shapes, styles, edges }) => {
      const nodes = ids.map((nodeId, i) => ({
        id: nodeId,
        label: labels[i],
        ...(shapes[i] ? { shape: shapes[i] } : {}),
        ...(styles[i] ? { styles: styles[i] } : {}),
        ...(parents[i] >= 0 ? { parent: groupIds[parents[i]] } : {}),
        ...(i % 2 === 0 ? { overlay: { type: 'shape' as const, shape: 'hexagon' as const, data: { Owner: { type: 'Text Input' as const, value: labels[i] } } } } : {}),
      }));
      const groups: OverlaidGraph['groups'] = groupIds.map((groupId, i) => ({
        id: groupId,
        label: labels[ids.length + i],
        nodes: nodes.filter((n) => n.parent === groupId).map((n) => n.id),
        ...(i > 0 ? { parent: groupIds[0] } : {}),
        overlay: { name: `Group ${i}` },
      }));
      for (const group of groups.slice(1)) groups[0].nodes.push(group.id);
      const endpoints = [...ids, ...groupIds];
      const graphEdges = edges.map((e) => ({
        source: endpoints[e.s],
        target: endpoints[e.t],
        ...(e.label ? { label: e.label } : {}),
        type: e.link[0],
        stroke: e.link[1],
        // Mermaid adds fill:none to a linkStyle without a fill (so that the path is not filled); a parsed edge has it.
        ...(e.styles ? { styles: e.styles.some((d) => d.startsWith('fill')) ? e.styles : [...e.styles, 'fill:none'] } : {}),
      }));
      // One overlay per source–target pair, on every parallel edge alike.
      const dashedPairs = new Set(edges.filter((e) => e.dashed).map((e) => `${endpoints[e.s]}>${endpoints[e.t]}`));
      return {
        kind: 'flowchart' as const,
        direction: 'LR',
        nodes,
        edges: graphEdges.map((e) => (dashedPairs.has(`${e.source}>${e.target}`) ? { ...e, overlay: { style: { strokeStyle: 'dashed' as const } } } : e)),
        groups,
      };
    });
});

/** What a round trip keeps: ids, labels, parents, edges with labels and link types, groups, overlays. */
function comparable(graph: OverlaidGraph) {
  return {
    nodes: graph.nodes.map((n) => [n.id, n.label, n.parent ?? '', JSON.stringify(n.overlay ?? null), JSON.stringify(n.styles ?? null)].join('|')).sort(),
    edges: graph.edges.map((e) => [e.source, e.target, e.label ?? '', e.type, e.stroke, JSON.stringify(e.overlay ?? null), JSON.stringify(e.styles ?? null)].join('|')).sort(),
    groups: graph.groups.map((g) => [g.id, g.label, g.parent ?? '', [...g.nodes].sort().join(','), JSON.stringify(g.overlay ?? null)].join('|')).sort(),
  };
}

describe('validateDrawnGraph + exportToMermaid (fast-check)', () => {
  it('a graph the validator accepts exports to Mermaid + context that read back as the same graph', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(drawn, async (graph) => {
        const { errors } = validateDrawnGraph(graph);
        // Generated ids can hold a keyword Mermaid would split on, or a "-" that makes a context key ambiguous:
        // the validator must say so (and export must refuse the same), never export something else.
        if (errors.length > 0) {
          expect(errors.every((e) => e.code === 'context_ambiguous_key' || e.code === 'export_unsupported_id' || /\.styles\[\d+\]$/.test(e.path ?? ''))).toBe(true);
          if (errors.some((e) => e.code === 'export_unsupported_id')) expect(() => exportToMermaid(graph)).toThrow(DiagramExportError);
          return;
        }
        accepted++;
        const exported = exportToMermaid(graph);
        const { graph: reread, report } = applyContext(await parse(exported.mermaid), exported.context);
        expect(report.errors).toEqual([]);
        expect(comparable(reread)).toEqual(comparable(graph));
      }),
      { numRuns: 200, seed: 20261122 },
    );
    expect(accepted).toBeGreaterThan(100);
  });
});

describe('a draft copied from a synced flowchart with classDef, style and linkStyle', () => {
  const source = [
    'flowchart LR',
    '  classDef hot fill:#f96,stroke:#333,stroke-width:4px',
    '  classDef cold fill:#bbf, stroke-dasharray: 5 5',
    '  subgraph core [Core]',
    '    api[API]:::hot',
    '    db[(Ledger)]',
    '  end',
    '  web([Web]) -->|calls| api',
    '  api -.-> db',
    '  class db cold',
    '  style web color:red,font-weight:bold',
    '  linkStyle 0 stroke:#ff3,stroke-width:2px',
    '  linkStyle 1 stroke:#0a0,fill:none',
    '',
  ].join('\n');

  it('validates as a drawn graph and exports Mermaid that reads back with the same styles', async () => {
    const synced = await parse(source);
    expect(synced.nodes.find((n) => n.id === 'api')?.styles).toEqual(['fill:#f96', 'stroke:#333', 'stroke-width:4px']);
    const copy: OverlaidGraph = JSON.parse(JSON.stringify(synced)) as OverlaidGraph;
    expect(validateDrawnGraph(copy, '$.graph').errors).toEqual([]);

    const exported = exportToMermaid(copy);
    expect(exported.mermaid).toContain('  style api fill:#f96,stroke:#333,stroke-width:4px\n');
    expect(exported.mermaid).toContain('  linkStyle 0 stroke:#ff3,stroke-width:2px,fill:none\n');
    const reread = await parse(exported.mermaid);
    expect(comparable(reread)).toEqual(comparable(copy));
    const byId = (graph: GraphModel) => Object.fromEntries(graph.nodes.map((n) => [n.id, n.styles ?? []]));
    expect(byId(reread)).toEqual(byId(copy));
    expect(byId(reread)['db']).toEqual(['fill:#bbf', ' stroke-dasharray: 5 5']);
    expect(reread.edges.map((e) => e.styles ?? [])).toEqual([
      ['stroke:#ff3', 'stroke-width:2px', 'fill:none'],
      ['stroke:#0a0', 'fill:none'],
    ]);
  });

  it('leaves out, on export of a graph that was not validated, a declaration a style line could not carry', async () => {
    const graph: OverlaidGraph = {
      kind: 'flowchart',
      nodes: [
        { id: 'a', label: 'A', styles: ['fill:url(#gradient)', 'stroke:#333'] },
        { id: 'b', label: 'B', styles: ['fill:a,b'] },
      ],
      edges: [{ source: 'a', target: 'b', styles: ['stroke:red;'] }],
      groups: [],
    };
    expect(validateDrawnGraph(graph).errors.map((e) => e.path)).toEqual(['$.nodes[0].styles[0]', '$.nodes[1].styles[0]', '$.edges[0].styles[0]']);
    const exported = exportToMermaid(graph);
    expect(exported.mermaid).not.toContain('url(');
    expect(exported.mermaid).not.toContain('linkStyle');
    const reread = await parse(exported.mermaid);
    expect(reread.nodes.map((n) => [n.id, n.styles ?? []])).toEqual([
      ['a', ['stroke:#333']],
      ['b', []],
    ]);
  });
});
