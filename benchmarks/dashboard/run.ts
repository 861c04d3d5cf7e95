/**
 * npm run bench:dashboard — the diagram page of the built admin app in headless Chromium (Debian's), against the built
 * server (embedded PGlite), on generated flowcharts of 1,000 nodes / 1,300 edges / 20 nested groups / 200 overlays,
 * of 60 nodes and of 5,000 nodes / 6,500 edges / 100 groups / 1,000 overlays (apps/admin/e2e/support/generated-topology.ts, shared with the browser e2e). Five runs each, every run in a fresh browser context (cold
 * caches, a new layout worker):
 *   - navigation → drawn: from the navigation's start until the laid-out diagram is on screen;
 *   - → interactive: until the main thread has had no long task (> 50 ms) for 1 s after drawn;
 *   - collapse / expand of one group (the side list's button), and Collapse all: click → redrawn;
 *   - a search: a node's id typed in the canvas's search box, Enter → that node drawn (centred);
 *   - the longest main-thread task of the run.
 * Baseline in the same run: Mermaid's own render of the same source (mermaid.render in a blank page, the previous
 * page's drawing path), its time and longest task; and painting the same number of plain boxes with their names
 * (absolutely placed divs, the least a drawing of that many nodes costs the browser). Every timing is also printed as
 * a ratio to each baseline's median (machines differ in speed several times over; the ratio is what compares).
 * Beside the timings: the edge–box crossings of each diagram's default view (libs/diagram's routeCrossings on the
 * layout the canvas draws; the target is 0).
 * Not a test: nothing asserts a target; docs/benchmarks.md records a run.
 *
 * Options (after `npm run bench:dashboard --`): `--runs N` (default 5, or BENCH_RUNS), `--only 5000`, `--only 1000`
 * or `--only 60` (one diagram, by node count or name: huge / large / small).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { generatedTopology } from '../../apps/admin/e2e/support/generated-topology';
import { layoutCrossings } from '../../apps/admin/e2e/support/geometry';
import {
  BENCH_DIAGRAMS,
  benchBundle,
  benchOptions,
  clickAt,
  drawnAt,
  fixtureBundle,
  longTasks,
  mermaidRender,
  ms,
  OBSERVE_LONG_TASKS,
  runBench,
  stats,
  type BenchDiagram,
  type Ready,
} from './harness';

const { runs: RUNS, only: ONLY, progress } = benchOptions('bench:dashboard', { '5000': 'huge', huge: 'huge', '1000': 'large', large: 'large', '60': 'small', small: 'small' }, '5000 (huge), 1000 (large) or 60 (small)');

interface RunResult {
  drawn: number;
  interactive: number;
  collapse: number;
  expand: number;
  collapseAll: number;
  search: number;
  longestTask: number;
}

/** Clicks and times until the drawing's node count satisfies `ready`. */
async function timeClick(page: Page, selector: string, ready: Ready): Promise<number> {
  const start = await clickAt(page, selector);
  return (await drawnAt(page, ready)) - start;
}

/**
 * Types a node's id into the canvas's search box and presses Enter (in the page itself, as clickAt does) and times
 * until that node is drawn, two frames later: the search, the centring on the node and its drawing (a zoomed-out
 * overview draws no node elements, so the node is not in the page before).
 */
async function timeSearch(page: Page, id: string): Promise<number> {
  const start = await page.evaluate((text) => {
    const now = performance.now();
    const box = document.querySelector('[data-testid=diagram-search]') as HTMLInputElement;
    box.value = text;
    box.dispatchEvent(new Event('input'));
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    return now;
  }, id);
  const handle = await page.waitForFunction((node) => document.querySelector(`[data-node-id="${node}"]`) !== null, id, {
    timeout: 120000,
    polling: 'raf',
  });
  await handle.dispose();
  const end = await page.evaluate(() => new Promise<number>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now())))));
  return end - start;
}

async function measure(context: BrowserContext, url: string, nodeCount: number, rootNodes: number): Promise<RunResult> {
  const page = await context.newPage();
  await page.addInitScript(OBSERVE_LONG_TASKS);
  await page.goto(url, { waitUntil: 'commit' });
  const drawn = await drawnAt(page, { equals: nodeCount });
  // Interactive: the end of the last long task after which the main thread stayed free for a full second.
  let interactive = drawn;
  for (;;) {
    await page.waitForTimeout(1100);
    const tasks = (await longTasks(page)).filter((task) => task.start + task.duration > interactive);
    const now = await page.evaluate(() => performance.now());
    const last = tasks.reduce((end, task) => Math.max(end, task.start + task.duration), interactive);
    interactive = last;
    if (now - last >= 1000) break;
  }
  const collapse = await timeClick(page, '[data-testid=toggle-g0]', { below: nodeCount });
  const expand = await timeClick(page, '[data-testid=toggle-g0]', { equals: nodeCount });
  const search = await timeSearch(page, `n${nodeCount - 7}`);
  const collapseAll = await timeClick(page, '[data-testid=collapse-all]', { equals: rootNodes });
  await page.waitForTimeout(300);
  const longestTask = Math.max(0, ...(await longTasks(page)).map((task) => task.duration));
  await page.close();
  return { drawn, interactive, collapse, expand, collapseAll, search, longestTask };
}

/** The same number of plain named boxes painted in a blank page of the same browser: the least drawing that many nodes costs. */
async function plainBoxes(context: BrowserContext, count: number): Promise<number> {
  const page = await context.newPage();
  await page.setContent('<!doctype html><html><body></body></html>');
  const time = await page.evaluate(async (n) => {
    const start = performance.now();
    const root = document.createElement('div');
    for (let i = 0; i < n; i++) {
      const box = document.createElement('div');
      box.textContent = `Node ${i}`;
      box.style.cssText = `position:absolute;left:${(i % 40) * 130}px;top:${Math.floor(i / 40) * 60}px;width:120px;height:48px;border:1px solid #555;border-radius:6px;font:13px sans-serif`;
      root.appendChild(box);
    }
    document.body.appendChild(root);
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    return performance.now() - start;
  }, count);
  await page.close();
  return time;
}

/** A measure's min / median / max, and its median as a ratio to each baseline's median (Mermaid's render, plain boxes). */
const row = (name: string, values: number[], baselines: { mermaid: number | null; boxes: number }) => {
  const { min, median, max } = stats(values);
  const toMermaid = baselines.mermaid === null ? '—' : (median / baselines.mermaid).toFixed(3);
  return `| ${name} | ${ms(min)} | ${ms(median)} | ${ms(max)} | ${toMermaid} | ${(median / baselines.boxes).toFixed(1)} |`;
};

runBench('bench:dashboard', async (harness) => {
  await harness.sync(await fixtureBundle());
  const names = (ONLY === undefined ? ['large', 'small', 'huge'] : [ONLY]) satisfies BenchDiagram[];
  await harness.sync(benchBundle(names));
  progress(`server layouts ready after ${await harness.layoutsReady(names)} ms`);
  const state = await harness.context.storageState();
  for (const name of names) {
    const { nodes, topology } = BENCH_DIAGRAMS[name];
    const diagram = { name, nodes, source: generatedTopology(...topology).mermaid };
    // Mermaid's render of 5,000 nodes takes many minutes (about 20 s for 1,000 here): that diagram compares with
    // painting plain boxes only.
    const withMermaid = nodes <= 1000;
    const rootNodes = (diagram.source.match(/^ {2}n\d+[[({>]/gm) ?? []).length;
    const results: RunResult[] = [];
    const mermaid: { time: number; longestTask: number; error?: string }[] = [];
    const boxes: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      progress(`${diagram.name}: run ${run + 1} of ${RUNS}`);
      const context = await harness.browser.newContext({ viewport: { width: 1400, height: 900 }, storageState: state });
      results.push(await measure(context, `${harness.server.baseUrl}/orgs/acme/services/bench/diagrams/${diagram.name}`, diagram.nodes, rootNodes));
      if (withMermaid) mermaid.push(await mermaidRender(context, diagram.source));
      boxes.push(await plainBoxes(context, diagram.nodes));
      await context.close();
    }
    const baseline = { mermaid: withMermaid ? stats(mermaid.map((m) => m.time)).median : null, boxes: stats(boxes).median };
    const geometry = await layoutCrossings(harness.context.request, `${harness.server.baseUrl}/api/v1/orgs/acme/services/bench/diagrams/${diagram.name}`);
    console.log(`\n## ${diagram.name}: ${diagram.nodes} nodes (${RUNS} runs, min / median / max; ratios = median ÷ each baseline's median)\n`);
    console.log('| measure | min | median | max | ÷ Mermaid render | ÷ plain boxes |');
    console.log('|---|---|---|---|---|---|');
    console.log(row('navigation → drawn', results.map((r) => r.drawn), baseline));
    console.log(row('navigation → interactive (no long task for 1 s)', results.map((r) => r.interactive), baseline));
    console.log(row('collapse one group (click → redrawn)', results.map((r) => r.collapse), baseline));
    console.log(row('expand it again', results.map((r) => r.expand), baseline));
    console.log(row('Collapse all', results.map((r) => r.collapseAll), baseline));
    console.log(row(`search n${diagram.nodes - 7} (Enter → drawn, centred)`, results.map((r) => r.search), baseline));
    console.log(row('longest main-thread task (whole run)', results.map((r) => r.longestTask), baseline));
    if (withMermaid) {
      console.log(row('baseline: Mermaid render of the same source', mermaid.map((m) => m.time), baseline));
      console.log(row('baseline: its longest main-thread task', mermaid.map((m) => m.longestTask), baseline));
    } else {
      console.log('| baseline: Mermaid render of the same source | not run: many minutes at this size | | | | |');
    }
    console.log(row(`baseline: ${diagram.nodes} plain named boxes painted`, boxes, baseline));
    console.log(`\nEdge–box crossings of the default view: ${geometry.crossings.length} (${geometry.edges} edges)${geometry.crossings.length ? `, first: ${geometry.crossings.slice(0, 3).join('; ')}` : ''}`);
    const errors = mermaid.flatMap((m) => (m.error ? [m.error] : []));
    if (errors.length) console.log(`\nMermaid failed ${errors.length} time(s): ${errors[0]}`);
  }
});
