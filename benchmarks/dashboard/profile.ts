/**
 * Developer aid: where the main thread's time goes on the 1,000-node diagram (or, with `--only 60` or `--only 5000`, another).
 * Records a CDP CPU profile and the long
 * tasks of four phases — load (navigation → drawn, plus 1.5 s), collapse of g0, its expand, Collapse all — and prints
 * for each: click → redrawn, the long tasks, the layout worker's busy time (from the messages the page exchanges
 * with it), main-thread and worker CPU time from a trace (on a loaded machine a task's wall time is mostly waiting
 * for a core; its CPU time is not), self time by source file (mapped through the build's source maps when there are any: build with
 * `--sourceMap=true`) and the top functions by self time. Load also lists when the page's requests and scripts
 * (the server's layout, lazy chunks, the worker's script) finished, and whether the first drawing had the server's
 * layout (no group layout sent to a worker before drawn) or fell back to ELK.
 *
 *   TS_NODE_PROJECT=benchmarks/dashboard/tsconfig.json node -r ts-node/register/transpile-only \
 *     -r tsconfig-paths/register benchmarks/dashboard/profile.ts [--top N] [--only 1000|60|5000] [--timeline]
 *
 * `--timeline` also lists every thread's trace events of more than 2 ms (TIMELINE_US=<µs> for another threshold)
 * from the phase's first main-thread task to its drawing: which frame, worker or raster task fills the time.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { generatedTopology } from '../../apps/admin/e2e/support/generated-topology';
import { BENCH_DIAGRAMS, benchBundle, clickAt, drawnAt, startHarness, type BenchDiagram, type Ready } from './harness';

const DIST = process.env['BENCH_ADMIN_DIR'] ?? resolve(__dirname, '../../dist/apps/admin/browser');
const TIMELINE = process.argv.includes('--timeline');
const TOP = Number(process.argv[process.argv.indexOf('--top') + 1]) || 25;
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : '1000';
const BY_OPTION: Record<string, BenchDiagram> = { '5000': 'huge', huge: 'huge', '1000': 'large', large: 'large', '60': 'small', small: 'small' };
const DIAGRAM = BY_OPTION[ONLY];
if (DIAGRAM === undefined) {
  console.error(`profile: --only takes 5000 (huge), 1000 (large) or 60 (small), not "${ONLY}".`);
  process.exit(2);
}

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Long tasks, and every message to and from a Worker (send time, answer time), from the page's first script on. */
const INSTRUMENT = `
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration }); })
    .observe({ type: 'longtask', buffered: true });
  window.__workerMessages = [];
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(...args) {
      super(...args);
      const sent = new Map();
      const post = this.postMessage.bind(this);
      this.postMessage = (message, ...rest) => { if (message && message.id !== undefined) sent.set(message.id, performance.now()); return post(message, ...rest); };
      this.addEventListener('message', (event) => {
        const id = event.data && event.data.id;
        if (sent.has(id)) { window.__workerMessages.push({ id, start: sent.get(id), end: performance.now() }); sent.delete(id); }
      });
    }
  };
`;

const maps = new Map<string, SourceMapConsumer | null>();
function consumer(url: string): SourceMapConsumer | null {
  const file = url.split('/').pop() ?? '';
  if (!maps.has(file)) {
    const path = join(DIST, `${file}.map`);
    maps.set(file, file && existsSync(path) ? new SourceMapConsumer(JSON.parse(readFileSync(path, 'utf8')) as RawSourceMap) : null);
  }
  return maps.get(file) ?? null;
}

/** `source file`, and `function (source:line)`, of a profile node. */
function place(frame: ProfileNode['callFrame']): { file: string; fn: string } {
  if (!frame.url) return { file: frame.functionName || '(native)', fn: frame.functionName || '(native)' };
  const map = consumer(frame.url);
  if (map) {
    const original = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
    if (original.source) {
      const source = original.source.replace(/^.*node_modules\//, '').replace(/^.*apps\/admin\/src\//, '');
      const file = source.replace(/^(@[^/]+\/[^/]+|[^@/][^/]*)\/.*$/, (whole, pkg: string) => (whole.includes('/fesm') || whole.includes('/dist') || whole.includes('/lib') ? pkg : whole));
      return { file, fn: `${frame.functionName || original.name || '(anonymous)'} (${source}:${original.line})` };
    }
  }
  const file = frame.url.split('/').pop() ?? frame.url;
  return { file, fn: `${frame.functionName || '(anonymous)'} (${file}:${frame.lineNumber})` };
}

function summarise(profile: Profile): { byFile: [string, number][]; byFunction: [string, number][]; inclusive: [string, number][]; total: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const files = new Map<string, number>();
  const functions = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (!node) return;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const { file, fn } = place(node.callFrame);
    if (file === '(idle)') return;
    total += ms;
    files.set(file, (files.get(file) ?? 0) + ms);
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
    // Inclusive time of our code and ngx-vflow's: every distinct function on the sample's stack.
    const stack = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const frame = byId.get(current)?.callFrame;
      if (!frame) continue;
      const where = place(frame);
      if (where.file.startsWith('app/') || where.file.startsWith('libs') || where.file === 'ngx-vflow') stack.add(where.fn);
    }
    for (const key of stack) inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
  });
  const sorted = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  return { byFile: sorted(files), byFunction: sorted(functions), inclusive: sorted(inclusive), total };
}

/** The profile's samples taken between two trace timestamps (µs; the profile and the trace share the clock). */
function within(profile: Profile, from: number, to: number): Profile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let time = profile.startTime;
  profile.samples.forEach((id, index) => {
    time += profile.timeDeltas[index] ?? 0;
    if (time >= from && time <= to) {
      samples.push(id);
      timeDeltas.push(profile.timeDeltas[index] ?? 0);
    }
  });
  return { ...profile, samples, timeDeltas };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** Thread names by `pid:tid`. */
function threadNames(events: TraceEvent[]): Map<string, string> {
  return new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name ?? '']));
}

/** The page's main-thread tasks (RunTask) of more than `ms` of CPU, by start. */
function mainTasks(events: TraceEvent[], ms: number): TraceEvent[] {
  const threads = threadNames(events);
  return events
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && threads.get(`${e.pid}:${e.tid}`) === 'CrRendererMain' && (e.tdur ?? 0) / 1000 > ms)
    .sort((a, b) => a.ts - b.ts);
}

/** Tasks (RunTask) of the page's main thread and of its workers: count, wall and CPU time, the longest. */
function taskTimes(events: TraceEvent[]): string[] {
  const threads = threadNames(events);
  const out: string[] = [];
  for (const [label, match] of [
    ['main thread', (name: string) => name === 'CrRendererMain'],
    ['workers', (name: string) => name.startsWith('DedicatedWorker')],
  ] as const) {
    const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && match(threads.get(`${e.pid}:${e.tid}`) ?? ''));
    const wall = tasks.reduce((sum, e) => sum + (e.dur ?? 0) / 1000, 0);
    const cpu = tasks.reduce((sum, e) => sum + (e.tdur ?? 0) / 1000, 0);
    const longest = tasks.reduce<TraceEvent | undefined>((best, e) => ((e.dur ?? 0) > (best?.dur ?? -1) ? e : best), undefined);
    // Per thread: several layout workers each compile ELK, and which of them the page waits for matters.
    const perThread = new Map<string, number>();
    for (const e of tasks) perThread.set(`${e.pid}:${e.tid}`, (perThread.get(`${e.pid}:${e.tid}`) ?? 0) + (e.tdur ?? 0) / 1000);
    const threadsCpu = perThread.size > 1 ? ` (per thread: ${[...perThread.values()].map((ms) => `${Math.round(ms)} ms`).join(', ')})` : '';
    out.push(
      `${label}: tasks ${Math.round(wall)} ms wall, ${Math.round(cpu)} ms CPU${threadsCpu}; longest task ${Math.round((longest?.dur ?? 0) / 1000)} ms wall, ${Math.round((longest?.tdur ?? 0) / 1000)} ms CPU`,
    );
  }
  return out;
}

async function phase(name: string, page: Page, cdp: CDPSession, act: () => Promise<number>, condition: Ready): Promise<void> {
  const before = await page.evaluate(() => performance.now()).catch(() => 0);
  const events: TraceEvent[] = [];
  const collect = (data: { value: object[] }) => void events.push(...(data.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  const traced = new Promise<void>((done) => cdp.once('Tracing.tracingComplete', () => done()));
  await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  await cdp.send('Profiler.start');
  const start = await act();
  const end = await drawnAt(page, condition);
  await page.waitForTimeout(1500);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
  await cdp.send('Tracing.end');
  await traced;
  cdp.off('Tracing.dataCollected', collect);
  const tasks = (await page.evaluate('window.__longTasks') as { start: number; duration: number }[]).filter((t) => t.start >= before);
  const messages = (await page.evaluate('window.__workerMessages') as { id: number; start: number; end: number }[]).filter((m) => m.start >= before);
  const { byFile, byFunction, inclusive, total } = summarise(profile);
  const span = messages.length ? Math.max(...messages.map((m) => m.end)) - Math.min(...messages.map((m) => m.start)) : 0;
  console.log(`\n## ${name}: ${Math.round(end - start)} ms to drawn; main thread busy ${Math.round(total)} ms (CPU profile, idle excluded)`);
  const at = (time: number) => Math.round(time - start);
  for (const line of taskTimes(events)) console.log(line);
  console.log(`long tasks (> 50 ms): ${tasks.length}, longest ${Math.round(Math.max(0, ...tasks.map((t) => t.duration)))} ms: ${tasks.map((t) => `${Math.round(t.duration)} at ${at(t.start)}`).join(', ')}`);
  if (messages.length) console.log(`worker messages (sent → answered, ms after the start; w = warm-up): ${messages.map((m) => `${m.id < 0 ? 'w' : ''}${at(m.start)}→${at(m.end)}`).join(' ')}`);
  if (name === 'load') {
    const layouts = messages.filter((m) => m.id >= 0 && m.start <= end);
    console.log(layouts.length ? `first drawing: ELK in the worker (${layouts.length} group layouts before drawn)` : 'first drawing: no group layout sent before drawn (the server\'s layout, replayed)');
    // What the page fetched and when it had it: a first drawing after one of these waited for it.
    const resources = (await page.evaluate(() => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({ name: r.name, start: r.startTime, end: r.responseEnd })))).filter((r) => r.start >= before);
    console.log(`requests (start → end, ms after the start; drawn at ${at(end)}): ${resources.map((r) => `${r.name.replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '')} ${at(r.start)}→${at(r.end)}`).join(', ')}`);
  }
  console.log(`layout worker: ${messages.length} group layouts, from first sent to last answered ${Math.round(span)} ms, summed ${Math.round(messages.reduce((s, m) => s + m.end - m.start, 0))} ms`);
  if (TIMELINE) {
    // Every thread's events of more than 2 ms between the click and drawn, by start: what fills the time.
    const threads = threadNames(events);
    const clickTs = events.filter((e) => e.name === 'RunTask' && threads.get(`${e.pid}:${e.tid}`) === 'CrRendererMain').reduce((first, e) => Math.min(first, e.ts), Infinity);
    for (const e of events.filter((x) => x.ph === 'X' && (x.dur ?? 0) > (Number(process.env['TIMELINE_US']) || 2000) && x.name !== 'RunTask' && x.name !== 'ThreadControllerImpl::RunTask').sort((a, b) => a.ts - b.ts)) {
      const at = (e.ts - clickTs) / 1000;
      if (at > end - start + 50) break;
      console.log(`  ${at.toFixed(1).padStart(7)} ms  ${(threads.get(`${e.pid}:${e.tid}`) ?? '?').padEnd(24)} ${e.name.padEnd(40)} ${((e.dur ?? 0) / 1000).toFixed(1)} ms wall ${((e.tdur ?? 0) / 1000).toFixed(1)} ms CPU`);
    }
  }
  console.log('self time by source:');
  for (const [file, ms] of byFile.slice(0, 14)) console.log(`${ms.toFixed(0).padStart(7)} ms  ${file}`);
  console.log('our code and ngx-vflow, inclusive time:');
  for (const [fn, ms] of inclusive.slice(0, 15)) console.log(`${ms.toFixed(0).padStart(7)} ms  ${fn}`);
  console.log('top functions by self time:');
  for (const [fn, ms] of byFunction.slice(0, TOP)) console.log(`${ms.toFixed(0).padStart(7)} ms  ${fn}`);
  // What each main-thread task of more than 30 ms of CPU spent it on: the longest task's content, and how load's
  // main-thread work is split between tasks.
  const traceStart = Math.min(...events.filter((e) => e.ts > 0).map((e) => e.ts));
  for (const task of mainTasks(events, 30)) {
    const part = summarise(within(profile, task.ts, task.ts + (task.dur ?? 0)));
    console.log(`task at +${Math.round((task.ts - traceStart) / 1000)} ms of the trace: ${Math.round((task.dur ?? 0) / 1000)} ms wall, ${Math.round((task.tdur ?? 0) / 1000)} ms CPU; inclusive:`);
    for (const [fn, ms] of part.inclusive.slice(0, 8)) console.log(`${ms.toFixed(0).padStart(9)} ms  ${fn}`);
    console.log('    by source:', part.byFile.slice(0, 8).map(([file, ms]) => `${file} ${ms.toFixed(0)}`).join(', '));
    console.log('    by function:', part.byFunction.slice(0, 10).map(([fn, ms]) => `${fn} ${ms.toFixed(0)}`).join(', '));
    // The browser's own work in it ("(program)" in the CPU profile): style, layout, paint, script, by CPU time.
    const inside = new Map<string, number>();
    for (const e of events) {
      if (e.ph !== 'X' || e.pid !== task.pid || e.tid !== task.tid || e === task || e.ts < task.ts || e.ts > task.ts + (task.dur ?? 0)) continue;
      if (['UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'Layerize', 'FunctionCall', 'EvaluateScript', 'v8.compile', 'ParseHTML', 'HitTest', 'IntersectionObserverController::computeIntersections', 'UpdateLayer', 'ResizeObserverController::broadcastObservations'].includes(e.name))
        inside.set(e.name, (inside.get(e.name) ?? 0) + (e.tdur ?? 0) / 1000);
    }
    console.log('    trace events (CPU, nested ones counted in their parents too):', [...inside.entries()].sort((a, b) => b[1] - a[1]).map(([n, ms]) => `${n} ${ms.toFixed(0)}`).join(', '));
  }
}

async function main(): Promise<void> {
  const harness = await startHarness();
  try {
    await harness.sync(benchBundle([DIAGRAM]));
    process.stderr.write(`profile: server layout ready after ${await harness.layoutsReady([DIAGRAM])} ms\n`);
    const { nodes, topology } = BENCH_DIAGRAMS[DIAGRAM];
    // Collapse all leaves the nodes outside any group and one box per top-level group (as run.ts counts them).
    const rootNodes = (generatedTopology(...topology).mermaid.match(/^ {2}n\d+[[({>]/gm) ?? []).length;
    const page = await harness.context.newPage();
    await page.addInitScript(INSTRUMENT);
    const cdp = await harness.context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    const click = (selector: string) => () => clickAt(page, selector);
    await phase('load', page, cdp, async () => {
      await page.goto(`${harness.server.baseUrl}/orgs/acme/services/bench/diagrams/${DIAGRAM}`, { waitUntil: 'commit' });
      return 0;
    }, { equals: nodes });
    await page.waitForTimeout(1000);
    await phase('collapse g0', page, cdp, click('[data-testid=toggle-g0]'), { below: nodes });
    await phase('expand g0', page, cdp, click('[data-testid=toggle-g0]'), { equals: nodes });
    await phase('Collapse all', page, cdp, click('[data-testid=collapse-all]'), { equals: rootNodes });
  } finally {
    await harness.stop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
