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

/** Any graph the validator accepts must export to Mermaid that reads back as the same graph. */
const drawn: fc.Arbitrary<OverlaidGraph> = fc.uniqueArray(id, { minLength: 1, maxLength: 9 }).chain((ids) => {
  const groupIds = ids.slice(0, Math.min(3, ids.length - 1)).map((x) => `g_${x}`);
  return fc
    .record({
      labels: fc.array(label, { minLength: ids.length + groupIds.length, maxLength: ids.length + groupIds.length }),
      parents: fc.array(fc.integer({ min: -1, max: groupIds.length - 1 }), { minLength: ids.length, maxLength: ids.length }),
      shapes: fc.array(fc.option(fc.constantFrom('rect', 'diamond', 'cyl', 'lean_right', 'doc', 'bolt', 'stadium'), { nil: undefined }), { minLength: ids.length, maxLength: ids.length }),
      edges: fc.array(
        fc.record({
          s: fc.nat(ids.length + groupIds.length - 1),
          t: fc.nat(ids.length + groupIds.length - 1),
          label: fc.option(label, { nil: undefined }),
          link: fc.constantFrom(['arrow_point', 'normal'], ['arrow_point', 'dotted'], ['arrow_open', 'thick'], ['double_arrow_circle', 'normal']),
          dashed: fc.boolean(),
        }),
        { maxLength: 10 },
      ),
    })
    .map(({ labels, parents, shapes, edges }) => {
      const nodes = ids.map((nodeId, i) => ({
        id: nodeId,
        label: labels[i],
        ...(shapes[i] ? { shape: shapes[i] } : {}),
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
    nodes: graph.nodes.map((n) => [n.id, n.label, n.parent ?? '', JSON.stringify(n.overlay ?? null)].join('|')).sort(),
    edges: graph.edges.map((e) => [e.source, e.target, e.label ?? '', e.type, e.stroke, JSON.stringify(e.overlay ?? null)].join('|')).sort(),
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
          expect(errors.every((e) => e.code === 'context_ambiguous_key' || e.code === 'export_unsupported_id')).toBe(true);
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
