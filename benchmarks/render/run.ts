/**
 * npm run bench:render — the server's diagram images (`GET /api/v1/orgs/:orgId/services/:service/diagrams/:name/
 * image.svg|png`, issue 26) on the generated flowcharts of 60 and 1,000 nodes that bench:dashboard uses
 * (apps/admin/e2e/support/generated-topology.ts, benchmarks/dashboard/harness.ts BENCH_DIAGRAMS), against the built
 * server on embedded PGlite as the dashboard harness starts it, after a sync through the gateway and once the
 * default-view layouts the server computes after a sync are stored. Timed from the request to the last byte of the
 * answer (Node's fetch on loopback, keep-alive, signed in by the owner's session cookie, no If-None-Match):
 *   - first request after the sync: the default view of each format, once (a repeat would be cached): the stored
 *     layout replayed and drawn in the layout thread;
 *   - cold, every run: a `?collapsed=` view not asked for before (run r collapses the leaf groups picked by the bits
 *     of r + 1, so every run asks for a new, valid view of nearly the whole diagram): its ELK layout computed in the
 *     layout thread and drawn — more work than the default view, whose layout is stored;
 *   - cached, every run: the default view asked for again five times, answered from the server's image cache.
 * A PNG the server refuses as over its pixel limit (422 diagram_image_too_large: the 1,000-node diagram at any
 * ?scale=) is reported as not served, not timed.
 * Baseline in the same run: Mermaid's own `mermaid.render` of the same source in a blank page of Debian's headless
 * Chromium (benchmarks/dashboard/harness.ts `mermaidRender`, bench:dashboard's baseline), once per run in a fresh
 * browser context. Every timing is also printed as a ratio to the baseline's median.
 * Not a test: nothing asserts a target; docs/benchmarks.md records a run.
 *
 * Options (after `npm run bench:render --`): `--runs N` (default 5, or BENCH_RUNS), `--only 60` or `--only 1000`
 * (one diagram, by node count or name: small / large).
 */
import { generatedTopology } from '../../apps/admin/e2e/support/generated-topology';
import { BENCH_DIAGRAMS, benchBundle, benchOptions, mermaidRender, ms, runBench, stats, type BenchDiagram } from '../dashboard/harness';

const { runs: RUNS, only: ONLY, progress } = benchOptions('bench:render', { '1000': 'large', large: 'large', '60': 'small', small: 'small' }, '1000 (large) or 60 (small)');

const FORMATS = ['svg', 'png'] as const;
/** Cached reads per run and format: one takes a few milliseconds, so a single one is mostly noise. */
const CACHED_REPEATS = 5;
type Format = (typeof FORMATS)[number];

/**
 * The view run `run` asks for, different every run so that each cold read renders: the leaf groups it collapses
 * (generatedTopology nests gA > gB > gC and gA > gD for every four, so the leaves are the third and fourth of each
 * four) picked by the bits of a counter, then the same subsets again in the dark theme once the light ones are used up.
 */
function viewFor(run: number, groupCount: number): { collapsed: string[]; theme: 'light' | 'dark' } {
  const leaves = Array.from({ length: groupCount }, (_, i) => i).filter((i) => i % 4 >= 2);
  const subsets = 2 ** leaves.length - 1;
  if (run >= 2 * subsets) throw new Error(`${RUNS} runs need more than the ${2 * subsets} views of ${leaves.length} leaf groups in two themes`);
  const picked = leaves.filter((_, bit) => (((run % subsets) + 1) >> bit) & 1);
  return { collapsed: picked.map((i) => `g${i}`), theme: run < subsets ? 'light' : 'dark' };
}

/** The server's refusal of a PNG over its pixel limit (422 diagram_image_too_large): that format is not measured. */
class TooLarge extends Error {}

/** One GET of an image, timed to its last byte; throws unless it is a 200 of the right type. */
async function timedGet(url: string, cookie: string, format: Format): Promise<{ time: number; bytes: number }> {
  const start = performance.now();
  const answer = await fetch(url, { headers: { cookie } });
  const body = await answer.arrayBuffer();
  const time = performance.now() - start;
  const type = answer.headers.get('content-type') ?? '';
  const text = () => Buffer.from(body).toString('utf8');
  if (answer.status === 422 && text().includes('diagram_image_too_large')) throw new TooLarge((JSON.parse(text()) as { error: { message: string } }).error.message);
  if (answer.status !== 200 || !type.startsWith(format === 'svg' ? 'image/svg+xml' : 'image/png')) {
    throw new Error(`GET ${url} answered ${answer.status} ${type}: ${text().slice(0, 300)}`);
  }
  return { time, bytes: body.byteLength };
}

const row = (name: string, values: number[], mermaid: number) => {
  const { min, median, max } = stats(values);
  return `| ${name} | ${ms(min)} | ${ms(median)} | ${ms(max)} | ${(median / mermaid).toFixed(4)} |`;
};

runBench('bench:render', async (harness) => {
  const names = (ONLY === undefined ? ['small', 'large'] : [ONLY]) satisfies BenchDiagram[];
  await harness.sync(benchBundle(names));
  progress(`server layouts ready after ${await harness.layoutsReady(names)} ms`);
  const { baseUrl } = harness.server;
  const cookie = (await harness.context.cookies(baseUrl)).map(({ name, value }) => `${name}=${value}`).join('; ');
  const state = await harness.context.storageState();
  for (const name of names) {
    const { nodes, topology } = BENCH_DIAGRAMS[name];
    const source = generatedTopology(...topology).mermaid;
    const image = (format: Format, view?: { collapsed: string[]; theme: string }) =>
      `${baseUrl}/api/v1/orgs/acme/services/bench/diagrams/${name}/image.${format}${view ? `?${new URLSearchParams({ collapsed: view.collapsed.join(','), theme: view.theme })}` : ''}`;
    const first: Partial<Record<Format, { time: number; bytes: number }>> = {};
    const refused: Partial<Record<Format, string>> = {};
    for (const format of FORMATS) {
      try {
        first[format] = await timedGet(image(format), cookie, format);
      } catch (error) {
        if (!(error instanceof TooLarge)) throw error;
        refused[format] = error.message;
      }
    }
    const formats = FORMATS.filter((format) => first[format]);
    const cold: Record<Format, number[]> = { svg: [], png: [] };
    const cached: Record<Format, number[]> = { svg: [], png: [] };
    const mermaid: number[] = [];
    const views: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      progress(`${name}: run ${run + 1} of ${RUNS}`);
      const view = viewFor(run, topology[2]);
      views.push(`?collapsed=${view.collapsed.join(',')}&theme=${view.theme}`);
      for (const format of formats) {
        cold[format].push((await timedGet(image(format, view), cookie, format)).time);
        for (let repeat = 0; repeat < CACHED_REPEATS; repeat++) cached[format].push((await timedGet(image(format), cookie, format)).time);
      }
      const context = await harness.browser.newContext({ viewport: { width: 1400, height: 900 }, storageState: state });
      const rendered = await mermaidRender(context, source);
      await context.close();
      if (rendered.error) throw new Error(`Mermaid's render of ${name} failed: ${rendered.error}`);
      mermaid.push(rendered.time);
    }
    const baseline = stats(mermaid).median;
    console.log(`\n## ${name}: ${nodes} nodes (${RUNS} runs, min / median / max; ratio = median ÷ Mermaid render's median)\n`);
    console.log('| measure | min | median | max | ÷ Mermaid render |');
    console.log('|---|---|---|---|---|');
    for (const format of FORMATS) {
      const once = first[format];
      if (!once) {
        console.log(`| ${format.toUpperCase()}: not served — 422 diagram_image_too_large: ${refused[format]} | | | | |`);
        continue;
      }
      const size = `${Math.round(once.bytes / 1024)} KiB`;
      console.log(row(`${format.toUpperCase()} default view, first request after the sync (stored layout; once), ${size}`, [once.time], baseline));
      console.log(row(`${format.toUpperCase()} cold: a new view, \`?collapsed=\` and \`?theme=\` (ELK layout + drawing)`, cold[format], baseline));
      console.log(row(`${format.toUpperCase()} cached: the default view again (${CACHED_REPEATS} a run)`, cached[format], baseline));
    }
    console.log(row('baseline: Mermaid render of the same source (Chromium)', mermaid, baseline));
    console.log(`\nView per run: ${views.join('; ')}. PNG at the default ?scale=2.`);
  }
});
