import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatedTopology } from './support/generated-topology';
import { eventually, screenshot, visible } from './support/browser';
import { WORKSPACE } from './support/server';
import { useE2eSession } from './support/session';
import { pushBundle, syncFile as file } from './support/sync';

/** The CLI's fixture repository: its topology's context uses every node type of the spec. */
const SAMPLE = join(WORKSPACE, 'apps/cli/test/fixtures/sample-repo');
const read = (path: string) => readFileSync(join(SAMPLE, path), 'utf8');

const SHAPES = [
  'rectangle', 'rounded-rect', 'ellipse', 'diamond', 'triangle', 'parallelogram', 'trapezoid', 'hexagon',
  'document', 'cylinder', 'delay', 'off-page-connector', 'display', 'collate', 'sort', 'terminator', 'or',
  'database', 'multiple-documents', 'subroutine', 'manual-input', 'summing-junction', 'internal-storage',
];

/** Every shape, Mermaid's own link types, and context edge styles and markers, in one flowchart. */
const SHAPES_DIAGRAM = `flowchart LR
${SHAPES.map((shape, i) => `  s${i}[${shape}]`).join('\n')}
  s0 --> s1
  s1 --- s2
  s2 --o s3
  s3 --x s4
  s4 <--> s5
  s5 ==> s6
  s6 -.-> s7
  s7 ~~~ s8
  s8 --> s9
  s9 --> s10
  s10 --> s11
  classDef hot fill:#fde2e2,stroke:#c62828
  class s12 hot
`;
const SHAPES_CONTEXT = JSON.stringify({
  name: 'Every shape',
  nodes: Object.fromEntries(SHAPES.filter((_, i) => i !== 12).map((shape) => [`s${SHAPES.indexOf(shape)}`, { type: 'shape', shape, name: `Shape ${shape}` }])),
  edges: {
    's8-s9': { label: 'dashed', style: { stroke: '#1f6feb', strokeWidth: 3, strokeStyle: 'dashed' }, markerStart: { type: 'circle', color: '#c62828' }, markerEnd: { type: 'arrow', color: '#1f6feb' } },
    's9-s10': { label: 'dotted', style: { strokeStyle: 'dotted', borderAnimationEnabled: true }, markerEnd: { type: 'diamond' } },
    's10-s11': { label: 'solid', style: { strokeStyle: 'solid' }, markerStart: { type: 'cross' }, markerEnd: { type: 'arrow-open' } },
  },
});

describe('the diagram canvas in a real browser', () => {
  // Reduced motion stops the canvas's endless animations (animated edges and borders, the gif icon), so screenshots
  // can wait for animations to finish as everywhere else.
  const e2e = useE2eSession({ setupToken: `e2e-canvas-${Date.now()}-0123456789`, browser: { viewport: { width: 1400, height: 900 }, reducedMotion: 'reduce' }, timeout: 30000, organization: true });

  async function sync(service: string, artifacts: unknown[]): Promise<void> {
    await pushBundle(e2e.server, e2e.syncToken, { name: service, description: 'Canvas e2e', repositoryUrl: 'https://example.com/acme/payments' }, artifacts);
  }

  function paymentsBundle(topology = read('.service/diagrams/topology.mmd')) {
    return [
      { kind: 'architecture-diagram', name: 'topology', file: file('.service/diagrams/topology.mmd', topology), context: file('.service/diagrams/topology.context.json', read('.service/diagrams/topology.context.json')) },
      { kind: 'architecture-diagram', name: 'shapes', file: file('.service/diagrams/shapes.mmd', SHAPES_DIAGRAM), context: file('.service/diagrams/shapes.context.json', SHAPES_CONTEXT) },
      { kind: 'architecture-diagram', name: 'lifecycle', file: file('.service/diagrams/payment-lifecycle.mmd', read('.service/diagrams/payment-lifecycle.mmd')) },
      { kind: 'database-schema', name: 'ledger', engine: 'postgres', file: file('.service/schemas/ledger.sql', read('.service/schemas/ledger.sql')) },
      { kind: 'database-schema', name: 'idempotency', engine: 'dynamodb', file: file('.service/schemas/idempotency.json', read('.service/schemas/idempotency.json')) },
    ];
  }

  const canvas = () => e2e.page.getByTestId('diagram-canvas');
  const node = (id: string) => canvas().locator(`[data-node-id="${id}"]`);

  /** Finds node `id` with the canvas search (Ctrl+K, its id, Enter) in `tab` and waits until it is drawn. */
  async function findWithSearch(tab: typeof e2e.page, id: string): Promise<void> {
    await tab.keyboard.press('Control+K');
    await tab.keyboard.type(id);
    await tab.keyboard.press('Enter');
    await eventually(async () => expect(await tab.locator(`[data-node-id="${id}"]`).count()).toBe(1), 60000);
  }

  /** Waits until the canvas has drawn a layout of `count` nodes. */
  async function drawn(count: number): Promise<void> {
    await eventually(async () => expect(await canvas().getAttribute('data-drawn')).toBe(String(count)), 60000);
  }

  beforeAll(() => sync('payments', paymentsBundle()));

  it('draws every node type of the fixture context as itself', async () => {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/payments/diagrams/topology`);
    await drawn(17);
    const types = await canvas().locator('[data-node-type]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-node-type')));
    // Mermaid's subgraphs and the context's own group are frames.
    expect(await canvas().locator('[data-group-id]').evaluateAll((frames) => frames.map((f) => f.getAttribute('data-group-id')).sort())).toEqual(['core', 'edge', 'storage']);
    expect([...new Set(types)].sort()).toEqual(['cloud', 'code', 'comment', 'component', 'data-source', 'db-table', 'gif', 'image', 'mermaid', 'shape', 'table', 'text']);
    // Each type shows its own content.
    expect(await node('api').innerText()).toContain('Payments API');
    expect(await node('api').innerText()).toContain('payments-team');
    expect(await node('api').locator('svg.outline path').first().getAttribute('fill')).toBe('#e8f1ff');
    expect(await node('heading').innerText()).toContain('Payments platform');
    await eventually(async () => expect(await node('retryPolicy').locator('pre.hljs span').count()).toBeGreaterThan(0));
    expect(await node('limits').locator('td').allInnerTexts()).toContain('1,000,000 EUR');
    expect(await node('oncall').locator('.note').innerText()).toContain('On-call is paged');
    expect(await node('events').innerText()).toMatch(/AWS\s+SQS/);
    expect(await node('pspLogo').locator('img').getAttribute('src')).toBe('https://assets.acme.example/psp-logo.png');
    expect(await node('liveStatus').locator('[data-icon=pulse]').count()).toBe(1);
    expect(await node('dashboard').innerText()).toContain('settlement-dashboard');
    // The db-table node lists the columns of the ledger schema synced in the same revision.
    const entries = await node('ledgerEntries').innerText();
    expect(entries).toContain('amount_minor');
    // As PostgreSQL's own parser prints the type.
    expect(entries).toContain('bigint');
    expect(await node('ledgerEntries').locator('a.db-link').getAttribute('href')).toBe('/orgs/acme/services/payments/databases/ledger?revision=1');
    expect(await node('ledgerDb').innerText()).toContain('entries');
    // Edge overlays: label, colour, animation and markers.
    const toLedger = canvas().locator('[data-edge-source=api][data-edge-target=ledgerDb]');
    expect(await toLedger.locator('.edge-line').getAttribute('stroke')).toBe('#1f6feb');
    expect(await toLedger.locator('.edge-line').getAttribute('class')).toContain('animated');
    expect(await toLedger.locator('.edge-line').getAttribute('marker-end')).toMatch(/^url\(#sc-marker-end-arrow-1f6feb\)$/);
    expect(await toLedger.textContent()).toContain('writes entries');
    expect(await canvas().locator('[data-edge-source=api][data-edge-target=psp] .edge-line').getAttribute('marker-start')).toContain('circle');
    await screenshot(e2e.page, '40-canvas-topology');

    // Details panel: every data field by its input type.
    await node('api').click();
    const details = e2e.page.getByTestId('details-panel');
    await visible(details);
    expect(await details.getByRole('link', { name: 'https://wiki.acme.example/payments/runbook' }).getAttribute('href')).toBe('https://wiki.acme.example/payments/runbook');
    expect(await details.locator('.chip').allInnerTexts()).toEqual(['pci', 'critical']);
    await screenshot(e2e.page, '41-canvas-details');
    await e2e.page.keyboard.press('Escape');
  });

  it('draws all 23 shapes, Mermaid link types and context edge styles and markers', async () => {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/payments/diagrams/shapes`);
    await drawn(23);
    for (const [i, shape] of SHAPES.entries()) {
      if (i === 12) continue;
      expect([shape, await node(`s${i}`).getAttribute('data-node-type'), await node(`s${i}`).locator('svg.outline path').count() > 0]).toEqual([shape, 'shape', true]);
    }
    // A node without overlay keeps Mermaid's shape and its classDef colours.
    expect(await node('s12').getAttribute('data-node-type')).toBe('mermaid');
    expect(await node('s12').locator('svg.outline path').first().getAttribute('fill')).toBe('#fde2e2');
    const edge = (source: string, target: string) => canvas().locator(`[data-edge-source=${source}][data-edge-target=${target}] .edge-line`);
    expect(await edge('s0', 's1').getAttribute('marker-end')).toContain('arrow');
    expect(await edge('s1', 's2').getAttribute('marker-end')).toBeNull();
    expect(await edge('s2', 's3').getAttribute('marker-end')).toContain('circle');
    expect(await edge('s3', 's4').getAttribute('marker-end')).toContain('cross');
    expect(await edge('s4', 's5').getAttribute('marker-start')).toContain('arrow');
    expect(Number(await edge('s5', 's6').getAttribute('stroke-width'))).toBeGreaterThan(3);
    expect(await edge('s6', 's7').getAttribute('class')).toContain('dotted');
    expect(await canvas().locator('[data-edge-source=s7][data-edge-target=s8]').count()).toBe(0);
    expect(await edge('s8', 's9').getAttribute('class')).toContain('dashed');
    expect(await edge('s8', 's9').getAttribute('marker-start')).toBe('url(#sc-marker-start-circle-c62828)');
    expect(await edge('s9', 's10').getAttribute('class')).toContain('animated');
    expect(await edge('s9', 's10').getAttribute('marker-end')).toContain('diamond');
    expect(await edge('s10', 's11').getAttribute('marker-start')).toContain('cross');
    await screenshot(e2e.page, '42-canvas-shapes');
  });

  it('shows state diagrams with their [*] start and end marks', async () => {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/payments/diagrams/lifecycle`);
    await eventually(async () => expect(await canvas().locator('[data-node-type=start]').count()).toBe(2));
    expect(await canvas().locator('[data-node-type=end]').count()).toBe(2);
    expect(await canvas().locator('[data-edge-target=Created]').count()).toBe(1);
    await screenshot(e2e.page, '43-canvas-state');
  });

  /** Finds a node with the canvas's search (Ctrl+K, its name, Enter), which centres it. */
  async function centreOn(name: string): Promise<void> {
    await e2e.page.keyboard.press('Control+K');
    await e2e.page.keyboard.type(name);
    await e2e.page.keyboard.press('Enter');
    await visible(e2e.page.getByTestId('details-panel'));
  }

  it('hides and shows a group from the Hide details button of its frame', async () => {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/payments/diagrams/topology`);
    await drawn(17);
    // At a readable zoom the drawing is wider than the view: the group's frame is brought on screen as a person would.
    await centreOn('Payments API');
    const frame = canvas().locator('[data-group-id=core]');
    await frame.getByRole('button', { name: 'Hide details', exact: true }).click();
    await drawn(14);
    for (const id of ['api', 'rules', 'worker']) expect(await node(id).count()).toBe(0);
    // Crossing edges now point at the group; edges inside it are gone.
    expect(await canvas().locator('[data-edge-source=gateway][data-edge-target=core]').count()).toBe(1);
    expect(await canvas().locator('[data-edge-source=events][data-edge-target=core]').count()).toBe(1);
    expect(await canvas().locator('[data-edge-source=api][data-edge-target=rules]').count()).toBe(0);
    await screenshot(e2e.page, '44-canvas-collapsed');

    await frame.getByRole('button', { name: 'Show details', exact: true }).click();
    await drawn(17);
    expect(await node('worker').count()).toBe(1);
    expect(await canvas().locator('[data-edge-source=gateway][data-edge-target=api]').count()).toBe(1);
    expect(await canvas().locator('[data-edge-source=gateway][data-edge-target=core]').count()).toBe(0);
  });

  it('draws a first visit from the server’s layout, with no ELK in the browser, every label inside its node', async () => {
    const layoutUrl = `${e2e.server.baseUrl}/api/v1/orgs/acme/services/payments/diagrams/topology/layout`;
    // Computed in the background after the sync.
    await eventually(async () => expect((await e2e.page.request.get(layoutUrl)).status()).toBe(200), 60000);
    // Counts the layouts the page hands its workers (their warm-ups, id -1, left out).
    await e2e.page.addInitScript(() => {
      const post = Worker.prototype.postMessage;
      (window as unknown as { scLayouts: number }).scLayouts = 0;
      Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: never[]) {
        if ((message as { id?: number })?.id !== -1) (window as unknown as { scLayouts: number }).scLayouts++;
        return post.call(this, message, ...rest);
      };
    });
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/payments/diagrams/topology`);
    await drawn(17);
    expect(await e2e.page.evaluate(() => (window as unknown as { scLayouts: number }).scLayouts)).toBe(0);
    // Labels are sized from the width table, not measured: every line still fits inside its node.
    const overflowing = await canvas().locator('[data-node-id]').evaluateAll((nodes) =>
      nodes.flatMap((element) => {
        const width = element.getBoundingClientRect().width;
        return Array.from(element.querySelectorAll('.line, .title')).filter((line) => line.getBoundingClientRect().width > width).map((line) => line.textContent);
      }),
    );
    expect(overflowing).toEqual([]);
    // The Payments API is a shape with data rows under it: its edges end on the shape's outline, not beside the rows.
    const apiEnds = await canvas().evaluate((element) => {
      const outline = element.querySelector('[data-node-id=api] svg.outline')?.getBoundingClientRect();
      const ends = Array.from(element.querySelectorAll('[data-edge-source=api], [data-edge-target=api]')).map((edge) => {
        const path = edge.querySelector('path.edge-line') as SVGPathElement | null;
        const matrix = path?.getScreenCTM();
        if (!path || !matrix) return null;
        const at = edge.getAttribute('data-edge-source') === 'api' ? 0 : path.getTotalLength();
        return path.getPointAtLength(at).matrixTransform(matrix);
      });
      return { outline: outline && { top: outline.top, bottom: outline.bottom }, ys: ends.map((point) => point?.y ?? null) };
    });
    expect(apiEnds.ys.length).toBeGreaterThanOrEqual(5);
    expect(apiEnds.ys.filter((y) => y === null || !apiEnds.outline || y < apiEnds.outline.top - 1 || y > apiEnds.outline.bottom + 1)).toEqual([]);
    await screenshot(e2e.page, '44b-canvas-server-layout');

    // A collapse is ELK's, in the workers, as before.
    await centreOn('Payments API');
    await canvas().locator('[data-group-id=core]').getByRole('button', { name: 'Hide details', exact: true }).click();
    await drawn(14);
    // The collapse is drawn in place first; its layout is asked for after that drawing's frame.
    await e2e.page.waitForFunction(() => (window as unknown as { scLayouts: number }).scLayouts > 0);
  });

  it('fits the drawing to the view without putting a node under the minimap', async () => {
    // Sixteen chains of ten: about as wide as it is tall compared with the view, so the fitted drawing fills the view up
    // to its bottom-right corner, where the minimap is. More than 150 nodes, so Fit shows it whole (up to 150 it keeps
    // text readable and pans instead: diagram-page.spec.ts).
    const rows = Array.from({ length: 16 }, (_, row) => `  ${Array.from({ length: 10 }, (_, col) => `r${row}c${col}[Row ${row} step ${col}]`).join(' --> ')}`);
    await sync('fit', [{ kind: 'architecture-diagram', name: 'grid', file: file('.service/diagrams/grid.mmd', `flowchart LR\n${rows.join('\n')}\n`) }]);
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/fit/diagrams/grid`);
    await drawn(160);
    await e2e.page.getByRole('button', { name: 'Fit to view' }).click();
    await eventually(async () => {
      const minimap = await canvas().locator('.canvas-minimap').boundingBox();
      if (!minimap) throw new Error('the minimap is not drawn');
      const covered: string[] = [];
      for (const element of await canvas().locator('[data-node-id]').all()) {
        const box = await element.boundingBox();
        const overlaps = box && box.x < minimap.x + minimap.width && box.x + box.width > minimap.x && box.y < minimap.y + minimap.height && box.y + box.height > minimap.y;
        if (overlaps) covered.push(String(await element.getAttribute('data-node-id')));
      }
      expect(covered).toEqual([]);
    }, 3000);
  });

  it('highlights what a second sync changed, on the drawing and by id', async () => {
    await sync('payments', paymentsBundle(`${read('.service/diagrams/topology.mmd')}  api --> audit[Audit log]\n`.replace('  api --> rules\n', '')));
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/payments/diagrams/topology`);
    await drawn(18);
    await eventually(async () => expect(await node('audit').getAttribute('data-status')).toBe('added'));
    expect(await canvas().locator('[data-edge-source=api][data-edge-target=audit]').getAttribute('data-status')).toBe('added');
    // The removed edge is drawn ghosted.
    expect(await canvas().locator('[data-edge-source=api][data-edge-target=rules]').getAttribute('data-status')).toBe('removed');
    const list = e2e.page.getByRole('list', { name: 'Changed elements' });
    expect(await list.innerText()).toContain('audit');
    expect(await list.innerText()).toContain('api → rules');
    await screenshot(e2e.page, '45-canvas-changes');
  });

  /** Syncs service `bench` with the benchmark's generated 1,000-node diagram `large` (and a database it names). */
  async function syncLarge(): Promise<void> {
    const large = generatedTopology(1000, 1300, 20, 200);
    await sync('bench', [
      { kind: 'architecture-diagram', name: 'large', file: file('.service/diagrams/large.mmd', large.mermaid), context: file('.service/diagrams/large.context.json', large.context) },
      { kind: 'database-schema', name: 'bench-db', engine: 'postgres', file: file('.service/schemas/bench.sql', 'CREATE TABLE orders (id uuid PRIMARY KEY);\n') },
    ]);
  }

  it('draws a 1,000-node diagram and finds a node in it', async () => {
    await syncLarge();
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/bench/diagrams/large`);
    await drawn(1000);
    await findWithSearch(e2e.page, 'n500');
    await screenshot(e2e.page, '46-canvas-large');
  });

  it('draws a 5,000-node diagram with 100 groups, collapses and expands a group, and finds a node in it', async () => {
    const huge = generatedTopology(5000, 6500, 100, 1000);
    await sync('bench-huge', [
      { kind: 'architecture-diagram', name: 'huge', file: file('.service/diagrams/huge.mmd', huge.mermaid), context: file('.service/diagrams/huge.context.json', huge.context) },
      { kind: 'database-schema', name: 'bench-db', engine: 'postgres', file: file('.service/schemas/bench.sql', 'CREATE TABLE orders (id uuid PRIMARY KEY);\n') },
    ]);
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/bench-huge/diagrams/huge`);
    const drawnCount = async () => Number(await canvas().getAttribute('data-drawn'));
    await eventually(async () => expect(await drawnCount()).toBe(5000), 120000);
    await e2e.page.getByTestId('toggle-g0').click();
    await eventually(async () => expect(await drawnCount()).toBeLessThan(5000), 60000);
    await e2e.page.getByTestId('toggle-g0').click();
    await eventually(async () => expect(await drawnCount()).toBe(5000), 60000);
    await findWithSearch(e2e.page, 'n4993');
    await screenshot(e2e.page, '47-canvas-5000');
  });

  it('draws a node of a large diagram where the new layout put it when it comes on screen after a collapse moved it off screen', async () => {
    await syncLarge();
    type Tab = typeof e2e.page;
    /** A tab of its own (its own layout cache) that counts the layout workers' answers to layouts (not to warm-ups, id -1). */
    const open = async (): Promise<Tab> => {
      const tab = await e2e.page.context().newPage();
      await tab.addInitScript(() => {
        const counted = window as unknown as { answers: number };
        counted.answers = 0;
        const Native = window.Worker;
        window.Worker = class extends Native {
          constructor(...args: ConstructorParameters<typeof Worker>) {
            super(...args);
            this.addEventListener('message', (event: MessageEvent<{ id?: number }>) => {
              if (event.data?.id !== -1) counted.answers++;
            });
          }
        };
      });
      await tab.goto(`${e2e.server.baseUrl}/orgs/acme/services/bench/diagrams/large`);
      await eventually(async () => expect(await tab.getByTestId('diagram-canvas').getAttribute('data-drawn')).toBe('1000'), 60000);
      return tab;
    };
    const answers = (tab: Tab) => tab.evaluate(() => (window as unknown as { answers: number }).answers);
    // Only the tab in front is rendered (animation frames), so each step brings its tab to the front.
    const find = async (tab: Tab, id: string) => {
      await tab.bringToFront();
      await findWithSearch(tab, id);
    };
    const transform = (tab: Tab, id: string) => tab.evaluate((node) => document.querySelector(`[data-node-id="${node}"]`)?.closest('[transform]')?.getAttribute('transform'), id);
    /** Collapses g0 and waits for ELK's layout of the result to be drawn. */
    const collapse = async (tab: Tab) => {
      await tab.bringToFront();
      const before = await answers(tab);
      await tab.getByTestId('toggle-g0').click();
      await eventually(async () => expect(await answers(tab)).toBeGreaterThan(before), 60000);
      // A collapse lays out each container above g0, one answer each: the drawing is final once none is pending.
      await eventually(async () => expect(await tab.getByTestId('diagram-canvas').getAttribute('data-layout')).toBe('done'), 60000);
      await tab.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    };

    // n960 (outside every group) is on screen, then off screen while the collapse moves it, then on screen again.
    const moved = await open();
    await find(moved, 'n960');
    const first = await transform(moved, 'n960');
    await find(moved, 'n500');
    await collapse(moved);
    await find(moved, 'n960');
    const again = await transform(moved, 'n960');
    // A tab that shows n960 only after the collapse: drawn from the new layout at once.
    const fresh = await open();
    await collapse(fresh);
    await find(fresh, 'n960');
    expect(await transform(fresh, 'n960')).not.toBe(first);
    // The same place, to the 1/100 px the server's stored layout keeps (a tab may draw from it or from its own ELK run,
    // whichever answered first after the sync).
    const at = (value: string | null | undefined) => (value?.match(/-?[\d.]+/g) ?? []).map(Number);
    const [againX, againY] = at(again);
    const [freshX, freshY] = at(await transform(fresh, 'n960'));
    expect([Math.abs(againX - freshX) <= 0.02, Math.abs(againY - freshY) <= 0.02]).toEqual([true, true]);
    await moved.close();
    await fresh.close();
  });
});
