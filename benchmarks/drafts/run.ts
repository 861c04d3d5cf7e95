/**
 * npm run bench:drafts — the work a draft save and an export do on the server's main thread, by draft size.
 *
 * For generated drafts of n nodes (a subgraph per 25 nodes, ~1.5 edges per node, every node and edge with an
 * overlay) it times validateDrawnGraph (every save), exportToMermaid (every export) and applyContext of the
 * exported context (what a sync of the exported files does). The baseline is the smallest size in the same run:
 * times are CPU milliseconds (median); the "× per ×4" columns are the time ratio for four times the size, ~4 for linear work and ~16 for quadratic
 * (applyContext and export resolved every edge key against a freshly built edge set before EdgeIndex).
 * Results are printed; docs/benchmarks.md records a run. Not a test: nothing here asserts a target.
 */
import { loadavg } from 'node:os';
import { applyContext, exportToMermaid, validateDrawnGraph, type OverlaidGraph } from '@sc/diagram';

function generatedDraft(nodeCount: number): OverlaidGraph {
  const groupCount = Math.ceil(nodeCount / 25);
  const nodes = Array.from({ length: nodeCount }, (_, i) => ({
    id: `n${i}`,
    label: `Service ${i}`,
    parent: `g${Math.floor(i / 25)}`,
    overlay: { type: 'shape' as const, shape: 'rectangle' as const, data: { Owner: { type: 'Text Input' as const, value: `team-${i % 7}` } } },
  }));
  const edges = [
    ...nodes.slice(1).map((node, i) => ({ source: `n${i}`, target: node.id, ...(i % 3 === 0 ? { label: `call ${i}` } : {}), overlay: { style: { strokeStyle: 'dashed' as const } } })),
    ...nodes.filter((_, i) => i % 2 === 0 && i + 7 < nodeCount).map((node, i) => ({ source: node.id, target: `n${i * 2 + 7}`, stroke: 'dotted', overlay: { label: 'async' } })),
  ];
  const groups = Array.from({ length: groupCount }, (_, g) => ({ id: `g${g}`, label: `Group ${g}`, nodes: nodes.filter((n) => n.parent === `g${g}`).map((n) => n.id), overlay: { name: `Group ${g}` } }));
  return { kind: 'flowchart', direction: 'LR', nodes, edges, groups };
}

/**
 * Median CPU time (user + system) of `work`: on a machine shared with other jobs, wall time mostly measures how
 * long the process waited for a core; CPU time measures the work.
 */
function median(work: () => void, rounds: number): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.cpuUsage();
    work();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

function main(): void {
  console.log(`Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const sizes = [500, 2000, 8000];
  const rows: { n: number; edges: number; validate: number; exportMs: number; apply: number }[] = [];
  // Warm-up: every size once, so the first size measured does not carry the JIT's start.
  for (const n of sizes) {
    const graph = generatedDraft(n);
    validateDrawnGraph(graph);
    applyContext(graph, exportToMermaid(graph).context);
  }
  for (const n of sizes) {
    const graph = generatedDraft(n);
    const rounds = n <= 2000 ? 21 : 9;
    const validate = median(() => {
      if (validateDrawnGraph(graph).errors.length > 0) throw new Error('generated draft is invalid');
    }, rounds);
    const exportMs = median(() => exportToMermaid(graph), rounds);
    const { context } = exportToMermaid(graph);
    const bare = { ...graph, nodes: graph.nodes.map(({ overlay: _overlay, ...node }) => node), edges: graph.edges.map(({ overlay: _overlay, ...edge }) => edge) };
    const apply = median(() => applyContext(bare, context), rounds);
    rows.push({ n, edges: graph.edges.length, validate, exportMs, apply });
  }
  console.log('\n| nodes | edges | validateDrawnGraph | × per ×4 | exportToMermaid | × per ×4 | applyContext | × per ×4 |');
  console.log('|---|---|---|---|---|---|---|---|');
  rows.forEach((row, i) => {
    const ratio = (key: 'validate' | 'exportMs' | 'apply') => (i === 0 ? '—' : `×${(row[key] / rows[i - 1][key]).toFixed(1)}`);
    console.log(`| ${row.n} | ${row.edges} | ${ms(row.validate)} | ${ratio('validate')} | ${ms(row.exportMs)} | ${ratio('exportMs')} | ${ms(row.apply)} | ${ratio('apply')} |`);
  });
}

main();
