/**
 * A running production build with data to look at: the built server (embedded PGlite, built admin app, as the
 * admin e2e starts it), an organization set up, and two services synced through the gateway:
 *   - `payments`: the CLI's fixture repository (every artifact kind, a context with every node type);
 *   - `bench`: generated flowcharts of 1,000 and 60 nodes with contexts, and the database their db-table nodes name.
 * Shared by `npm run bench:dashboard` and by anyone who wants to look at the pages (`--serve`).
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loadSync } from '../../apps/cli/src/lib/prepare-sync';
import { launchChromium } from '../../apps/admin/e2e/support/browser';
import { pushBundle, setUpOrganization } from '../../apps/admin/e2e/support/organization';
import { type RunningServer, startServer } from '../../apps/admin/e2e/support/server';
import { generatedTopology } from '../../apps/admin/e2e/support/generated-topology';

const ROOT = resolve(__dirname, '../..');
export const FIXTURE_REPO = join(ROOT, 'apps/cli/test/fixtures/sample-repo');

export interface Harness {
  server: RunningServer;
  browser: Browser;
  /** A browser context signed in as the organization's owner. */
  context: BrowserContext;
  /** Pushes a bundle as `service-cli sync` does. */
  sync(bundle: unknown): Promise<void>;
  /**
   * Waits until the server has stored the default-view layouts of the bench diagrams (computed in the background
   * after the sync) or says it computes none, so every measured visit is one after the sync has settled; the time it
   * took, in ms.
   */
  layoutsReady(names: string[]): Promise<number>;
  stop(): Promise<void>;
}

function file(path: string, content: string) {
  return { path, content, sha256: createHash('sha256').update(content, 'utf8').digest('hex') };
}

/** The benchmark's generated diagrams by name: nodes, edges, groups and context overlays (generatedTopology). */
export type BenchDiagram = 'huge' | 'large' | 'small';
export const BENCH_DIAGRAMS: Record<BenchDiagram, { nodes: number; topology: [nodes: number, edges: number, groups: number, overlays: number] }> = {
  huge: { nodes: 5000, topology: [5000, 6500, 100, 1000] },
  large: { nodes: 1000, topology: [1000, 1300, 20, 200] },
  small: { nodes: 60, topology: [60, 78, 4, 12] },
};

/** The benchmark service: the generated diagrams named (all by default) and the database their db-table nodes point at. */
export function benchBundle(names: readonly BenchDiagram[] = ['huge', 'large', 'small']): unknown {
  const diagrams = names.map((name) => {
    const generated = generatedTopology(...BENCH_DIAGRAMS[name].topology);
    return { kind: 'architecture-diagram', name, file: file(`.service/diagrams/${name}.mmd`, generated.mermaid), context: file(`.service/diagrams/${name}.context.json`, generated.context) };
  });
  return {
    version: 1,
    service: { name: 'bench', description: 'Generated topologies for the dashboard benchmark.', repositoryUrl: 'https://example.com/acme/bench' },
    artifacts: [
      ...diagrams,
      {
        kind: 'database-schema',
        name: 'bench-db',
        engine: 'postgres',
        file: file('.service/schemas/bench.sql', 'CREATE TABLE orders (\n  id uuid PRIMARY KEY,\n  total numeric(10,2) NOT NULL\n);\n'),
      },
    ],
  };
}

export async function fixtureBundle(): Promise<unknown> {
  const loaded = await loadSync(undefined, FIXTURE_REPO);
  if (!loaded.bundle) throw new Error(`The fixture repository does not load: ${JSON.stringify(loaded.problems)}`);
  return loaded.bundle;
}

export async function startHarness(): Promise<Harness> {
  const server = await startServer(`bench-dashboard-${Date.now()}-0123456789`);
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  const syncToken = await setUpOrganization(server, context);
  const sync = async (bundle: unknown) => {
    const { status, body } = await pushBundle(server, syncToken, bundle);
    if (status !== 200 && status !== 201) throw new Error(`sync answered ${status}: ${body}`);
  };
  const layoutsReady = async (names: string[]) => {
    const started = Date.now();
    for (const name of names) {
      for (;;) {
        const answer = await context.request.get(`${server.baseUrl}/api/v1/orgs/acme/services/bench/diagrams/${name}/layout`);
        // Anything but "not ready" (a layout, or a server without the route) ends the wait.
        if (answer.status() !== 404 || !(await answer.text()).includes('diagram_layout_not_found') || Date.now() - started > 180_000) break;
        await new Promise((done) => setTimeout(done, 500));
      }
    }
    return Date.now() - started;
  };
  const stop = async () => {
    await context.close();
    await browser.close();
    await server.stop();
  };
  return { server, browser, context, sync, layoutsReady, stop };
}

/** A node count the drawing must reach: exactly `equals`, or fewer than `below`. */
export type Ready = { equals: number } | { below: number };

/** performance.now() once the canvas shows a drawing whose node count is `ready`, two frames later. */
export async function drawnAt(page: Page, ready: Ready): Promise<number> {
  const handle = await page.waitForFunction(
    (condition) => {
      const drawn = document.querySelector('[data-testid=diagram-canvas]')?.getAttribute('data-drawn');
      if (drawn === null || drawn === undefined) return false;
      return 'equals' in condition ? Number(drawn) === condition.equals : Number(drawn) < condition.below;
    },
    ready,
    { timeout: 120000, polling: 'raf' },
  );
  await handle.dispose();
  return page.evaluate(() => new Promise<number>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now())))));
}


/**
 * Runs a bench as a script: its title line with the load average at start, then `body` against a started harness,
 * then (whatever happened) the harness stopped and the load average at end, since a loaded machine explains slow
 * numbers. An error is printed and exits 1.
 */
export function runBench(name: string, body: (harness: Harness) => Promise<void>): void {
  const load = () => loadavg().map((value) => value.toFixed(1)).join(' / ');
  const main = async (): Promise<void> => {
    console.log(`# ${name} — ${new Date().toISOString()}, load average at start ${load()} (1/5/15 min, 2 cores)`);
    let harness: Harness | undefined;
    try {
      harness = await startHarness();
      await body(harness);
    } finally {
      await harness?.stop();
      console.log(`\nload average at end ${load()}`);
    }
  };
  void main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
/** Clicks the element in the page itself (no input pipeline in between) and returns performance.now() of the click. */
export function clickAt(page: Page, selector: string): Promise<number> {
  return page.evaluate((target) => {
    const now = performance.now();
    (document.querySelector(target) as HTMLElement).click();
    return now;
  }, selector);
}

/** Long tasks of the page, recorded from its first script on. */
export const OBSERVE_LONG_TASKS = `
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration }); })
    .observe({ type: 'longtask', buffered: true });
`;

export async function longTasks(page: Page): Promise<{ start: number; duration: number }[]> {
  return page.evaluate(() => (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks);
}

/**
 * Mermaid's own render of the same source, in a blank page of the same browser (the previous diagram page's path):
 * the baseline of bench:dashboard and bench:render.
 */
export async function mermaidRender(context: BrowserContext, source: string): Promise<{ time: number; longestTask: number; error?: string }> {
  const page = await context.newPage();
  await page.setContent('<!doctype html><html><body><div id="out"></div></body></html>');
  await page.evaluate(OBSERVE_LONG_TASKS);
  await page.addScriptTag({ path: join(ROOT, 'node_modules/mermaid/dist/mermaid.min.js') });
  const result = await page.evaluate(async (text) => {
    const mermaid = (window as unknown as { mermaid: { initialize(c: object): void; render(id: string, s: string): Promise<{ svg: string }> } }).mermaid;
    // As the previous page configured it, with the text and edge limits raised so a 1,000-node diagram renders at all.
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'neutral', htmlLabels: false, maxTextSize: 10_000_000, maxEdges: 5000 });
    const start = performance.now();
    try {
      const { svg } = await mermaid.render('bench', text);
      (document.getElementById('out') as HTMLElement).innerHTML = svg;
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      return { time: performance.now() - start };
    } catch (error) {
      return { time: performance.now() - start, error: String(error) };
    }
  }, source);
  await page.waitForTimeout(200);
  const longestTask = Math.max(0, ...(await longTasks(page)).map((task) => task.duration));
  await page.close();
  return { ...result, longestTask };
}

/** Min, median and max of a benchmark's runs. */
export const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
};
/** A duration for the tables: seconds from 1 s, a tenth of a millisecond under 10 ms (cached reads take a few). */
export const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`);

/**
 * A benchmark's command line: `--runs N` (or BENCH_RUNS; default 5) and `--only <diagram>` (a key of `byOption`;
 * `onlyTakes` says which in words). A bad value exits 2 with the reason; `progress` writes to stderr.
 */
export function benchOptions(
  bench: string,
  byOption: Readonly<Record<string, BenchDiagram>>,
  onlyTakes: string,
): { runs: number; only: BenchDiagram | undefined; progress: (message: string) => void } {
  const option = (name: string): string | undefined => {
    const index = process.argv.indexOf(`--${name}`);
    return index >= 0 ? process.argv[index + 1] : undefined;
  };
  const usage = (message: string): never => {
    console.error(`${bench}: ${message}`);
    process.exit(2);
  };
  const runs = Number(option('runs') ?? process.env['BENCH_RUNS'] ?? 5);
  if (!Number.isInteger(runs) || runs < 1) usage(`--runs must be a whole number of at least 1, not "${option('runs')}".`);
  const only = option('only');
  if (only !== undefined && byOption[only] === undefined) usage(`--only takes ${onlyTakes}, not "${only}".`);
  return { runs, only: only === undefined ? undefined : byOption[only], progress: (message) => void process.stderr.write(`${bench}: ${message}\n`) };
}
