/**
 * npm run bench:diagram — Mermaid parsing performance of libs/diagram and the server's worker pool.
 *
 * 0. Patched against stock Mermaid 12.3 (patches/mermaid+12.3.0.patch reversed on a copy, libs/diagram/scripts/
 *    stock-mermaid.ts): getDiagramFromText on generated flowcharts of 60 / 500 / 5000 nodes, interleaved, and the
 *    flowchart database each builds compared in full (they must be identical).
 * 1. Library overhead: parseMermaid (kind detection + Mermaid + graph extraction) against calling
 *    Mermaid's mermaidAPI.getDiagramFromText directly, interleaved in the same process and run,
 *    on generated flowcharts of 50 / 500 / 5000 nodes and on the differential corpus.
 * 2. Worker-pool throughput (2 threads) against the same diagrams parsed one by one in-process.
 * 3. GET /api/v1/health latency of the real server (test support: AppModule, PGlite) while a
 *    5000-node diagram parses in the pool, next to an idle baseline and to parsing on the main thread.
 * Results are printed; docs/benchmarks.md records a run. Not a test: nothing here asserts a target.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { MermaidWorkerPool, parseMermaid } from '@sc/diagram/node';
import { detectDiagramKind } from '../../libs/diagram/src/lib/detect-kind';
import { graphFromDb } from '../../libs/diagram/src/node/graph-builders';
import { getMermaid, MERMAID_MAX_EDGES, type MermaidModule } from '../../libs/diagram/src/node/mermaid-runtime';
import { loadCorpus } from '../../libs/diagram/src/node/corpus';
import { MermaidParseService } from '../../apps/server/src/modules/parsing/mermaid-parse.service';
import { createTestApp } from '../../apps/server/test/support/test-app';
import { generatedFlowchart } from '../../libs/diagram/scripts/generated-flowchart';
import { stockMermaidEntry } from '../../libs/diagram/scripts/stock-mermaid';
import { pathToFileURL } from 'node:url';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

async function time(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

interface FlowDbView {
  getVertices(): Map<string, unknown>;
  getEdges(): unknown[];
  getSubGraphs(): unknown[];
  getClasses(): Map<string, unknown>;
}

async function patchedAgainstStock(): Promise<void> {
  const patched = await getMermaid();
  const stock = ((await import(pathToFileURL(stockMermaidEntry()).href)) as { default: MermaidModule }).default;
  stock.initialize({ startOnLoad: false, maxEdges: MERMAID_MAX_EDGES, securityLevel: 'strict', logLevel: 'fatal' });
  /** Parses and returns the whole flowchart database, serialized, to compare the two. */
  const parse = async (mermaid: MermaidModule, source: string): Promise<string> => {
    const db = (await mermaid.mermaidAPI.getDiagramFromText(source)).db as FlowDbView;
    return JSON.stringify([[...db.getVertices()], db.getEdges(), db.getSubGraphs(), [...db.getClasses()]]);
  };
  const inputs = [
    { name: 'flowchart, 60 nodes', source: generatedFlowchart(60), rounds: 40 },
    { name: 'flowchart, 500 nodes', source: generatedFlowchart(500), rounds: 8 },
    { name: 'flowchart, 5000 nodes', source: generatedFlowchart(5000), rounds: 3 },
  ];
  for (const input of inputs) for (const mermaid of [patched, stock]) await parse(mermaid, input.source); // warm both
  console.log('\n## 0. Patched Mermaid against stock Mermaid 12.3 (getDiagramFromText, same process, interleaved, median)');
  console.log('| input | stock | patched | speed-up | flowchart databases |');
  console.log('|---|---|---|---|---|');
  for (const input of inputs) {
    const times = { stock: [] as number[], patched: [] as number[] };
    let identical = true;
    for (let round = 0; round < input.rounds; round++) {
      const order = round % 2 === 0 ? (['patched', 'stock'] as const) : (['stock', 'patched'] as const);
      const databases: string[] = [];
      for (const which of order) {
        const start = performance.now();
        databases.push(await parse(which === 'stock' ? stock : patched, input.source));
        times[which].push(performance.now() - start);
      }
      identical &&= databases[0] === databases[1];
    }
    const [s, p] = [median(times.stock), median(times.patched)];
    console.log(`| ${input.name} | ${ms(s)} | ${ms(p)} | ×${(s / p).toFixed(1)} | ${identical ? 'identical' : '**DIFFERENT**'} |`);
  }
}

async function libraryOverhead(): Promise<void> {
  const mermaid = await getMermaid();
  const direct = async (source: string): Promise<void> => {
    await mermaid.mermaidAPI.getDiagramFromText(source);
  };
  const library = async (source: string): Promise<void> => {
    const result = await parseMermaid(source);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
  };
  // The library's own work on top of Mermaid, timed alone: it does not drown in Mermaid's noise on a busy machine.
  const addedWork = async (source: string) => {
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(source);
    const start = performance.now();
    const detected = detectDiagramKind(source);
    if (detected.ok) graphFromDb(detected.kind, diagram.db);
    return performance.now() - start;
  };
  const corpus = loadCorpus().map((entry) => entry.source);
  const inputs: { name: string; sources: string[]; rounds: number }[] = [
    { name: 'flowchart, 50 nodes', sources: [generatedFlowchart(50)], rounds: 30 },
    { name: 'flowchart, 500 nodes', sources: [generatedFlowchart(500)], rounds: 8 },
    { name: 'flowchart, 5000 nodes', sources: [generatedFlowchart(5000)], rounds: 3 },
    { name: `corpus (${corpus.length} diagrams, per diagram)`, sources: corpus, rounds: 10 },
  ];
  console.log('\n## 1. Library vs Mermaid getDiagramFromText (same process, interleaved, median per diagram)');
  console.log('| input | Mermaid direct | parseMermaid | end-to-end overhead | library work alone | its share of Mermaid time |');
  console.log('|---|---|---|---|---|---|');
  for (const sources of inputs.map((i) => i.sources)) for (const source of sources) await direct(source); // warm every parser
  for (const input of inputs) {
    const directTimes: number[] = [];
    const libraryTimes: number[] = [];
    for (let round = 0; round < input.rounds; round++) {
      // Alternate which goes first so drift on the shared CPU hits both sides alike.
      // Interleaved per diagram, so Mermaid's warm state and GC pressure are the same for both.
      const order = round % 2 === 0 ? [direct, library] : [library, direct];
      const totals = new Map<typeof direct, number>([[direct, 0], [library, 0]]);
      for (const source of input.sources) {
        for (const run of order) totals.set(run, (totals.get(run) ?? 0) + (await time(() => run(source))));
      }
      directTimes.push((totals.get(direct) ?? 0) / input.sources.length);
      libraryTimes.push((totals.get(library) ?? 0) / input.sources.length);
    }
    const added: number[] = [];
    for (let round = 0; round < (input.rounds >= 5 ? 3 : 1); round++) {
      let total = 0;
      for (const source of input.sources) total += await addedWork(source);
      added.push(total / input.sources.length);
    }
    const d = median(directTimes);
    const l = median(libraryTimes);
    const a = median(added);
    console.log(`| ${input.name} | ${ms(d)} | ${ms(l)} | ${(((l - d) / d) * 100).toFixed(1)}% | ${ms(a)} | ${((a / d) * 100).toFixed(1)}% |`);
  }
}

async function poolThroughput(): Promise<void> {
  const source = generatedFlowchart(500);
  const count = 12;
  const pool = new MermaidWorkerPool({ size: 2, timeoutMs: 600_000 });
  // Start both threads and let their JIT warm up as much as the main thread's already has.
  for (let round = 0; round < 4; round++) await Promise.all([pool.parse(source, 1 << 20), pool.parse(source, 1 << 20)]);
  const sequential = await time(async () => {
    for (let i = 0; i < count; i++) await parseMermaid(source);
  });
  const pooled = await time(() => Promise.all(Array.from({ length: count }, () => pool.parse(source, 1 << 20))));
  await pool.close();
  console.log('\n## 2. Worker-pool throughput (500-node flowchart ×12)');
  console.log('| mode | wall time | diagrams/s |');
  console.log('|---|---|---|');
  console.log(`| in-process, one at a time | ${ms(sequential)} | ${((count * 1000) / sequential).toFixed(2)} |`);
  console.log(`| worker pool, 2 threads | ${ms(pooled)} | ${((count * 1000) / pooled).toFixed(2)} |`);
  console.log(`speed-up: ×${(sequential / pooled).toFixed(2)} (cores: ${availableParallelism()}, shared with other processes)`);
}

async function healthLatency(): Promise<void> {
  const t = await createTestApp({ env: { SERVICE_MERMAID_WORKERS: '2', SERVICE_MERMAID_PARSE_TIMEOUT: '10m' } });
  try {
    const service = t.app.get(MermaidParseService);
    await service.parse('flowchart LR\n  warm --> up\n');
    const probe = async () => time(async () => {
      const response = await fetch(`${t.baseUrl}/api/v1/health`);
      if (response.status !== 200) throw new Error(`health answered ${response.status}`);
      await response.arrayBuffer();
    });
    /** Probes health back to back; `start` is called once probing runs, probing stops when its work ends. */
    const whileRunning = async (start: () => Promise<unknown>) => {
      const latencies: number[] = [];
      let done = false;
      const work = new Promise((resolve) => setTimeout(resolve, 20)).then(start).finally(() => (done = true));
      while (!done) latencies.push(await probe());
      await work;
      return latencies;
    };
    const idle: number[] = [];
    for (let i = 0; i < 300; i++) idle.push(await probe());
    const large = generatedFlowchart(5000);
    const pooled = await whileRunning(() => service.parse(large));
    const mainThread = await whileRunning(() => parseMermaid(large));
    console.log('\n## 3. GET /api/v1/health latency while a 5000-node diagram parses');
    console.log('| situation | requests | p50 | p99 | max |');
    console.log('|---|---|---|---|---|');
    for (const [name, values] of [['idle', idle], ['parse in worker pool (server)', pooled], ['parse on the main thread (what the pool avoids)', mainThread]] as const) {
      console.log(`| ${name} | ${values.length} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 99))} | ${ms(Math.max(...values))} |`);
    }
  } finally {
    await t.close();
  }
}

async function main(): Promise<void> {
  console.log(`# Diagram benchmark — node ${process.version}, ${new Date().toISOString()}, ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  await patchedAgainstStock();
  await libraryOverhead();
  await poolThroughput();
  await healthLatency();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
