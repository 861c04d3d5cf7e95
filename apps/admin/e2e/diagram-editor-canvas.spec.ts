import type { Locator } from 'playwright-core';
import { eventually, screenshot, visible } from './support/browser';
import { useE2eSession } from './support/session';
import { pushBundle, syncFile as file } from './support/sync';

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const VIEW = { width: 1280, height: 720 };
/** The smallest text is 12 px at zoom 1; a fit keeps it at 9 px or more (fit.ts fitZoomLimits). */
const READABLE_ZOOM = 9 / 12;

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}

const intersects = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const contains = (outer: Rect, inner: Rect) =>
  inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;

/**
 * The draft editor's canvas as a person sees it at 1280×720: where palette nodes land, the zoom after auto-layout,
 * the properties panel beside (never over) the selected node, edges of an automatic layout around the nodes they
 * do not join, the canvas filling the window under a one-line header.
 */
describe('the draft editor canvas at 1280×720', () => {
  const e2e = useE2eSession({
    setupToken: `e2e-editor-canvas-${Date.now()}-0123456789`,
    browser: { viewport: VIEW, reducedMotion: 'reduce' },
    timeout: 30000,
    organization: true,
  });

  const canvas = () => e2e.page.getByTestId('diagram-canvas');
  const node = (id: string) => canvas().locator(`[data-node-id="${id}"]`);
  const panel = () => e2e.page.getByTestId('properties-panel');

  async function rect(locator: Locator): Promise<Rect> {
    const box = await locator.boundingBox();
    if (!box) throw new Error('not on screen');
    return box;
  }

  /** The zoom the canvas draws at: a node's drawn width over its own (untransformed) width. */
  async function zoom(id: string): Promise<number> {
    return node(id).evaluate((element: HTMLElement) => element.getBoundingClientRect().width / element.offsetWidth);
  }

  async function saved(): Promise<void> {
    await eventually(async () => expect(await e2e.page.getByTestId('save-state').getAttribute('data-state')).toBe('saved'), 20000);
  }

  async function layoutDone(): Promise<void> {
    await eventually(async () => expect(await e2e.page.getByTestId('layout-lr').isEnabled()).toBe(true));
    await saved();
  }

  async function createDraft(name: string, mermaid?: string): Promise<void> {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/drafts`);
    await e2e.page.getByTestId('draft-new').click();
    await e2e.page.getByTestId('draft-name').fill(name);
    if (mermaid) {
      await e2e.page.getByTestId('draft-start-mermaid').click();
      await e2e.page.getByTestId('draft-mermaid').fill(mermaid);
    }
    await e2e.page.getByTestId('draft-create').click();
    await e2e.page.waitForURL(/\/orgs\/acme\/drafts\/[^/]+$/);
    await visible(canvas());
  }

  it('fills the window below the header, and its fit button shows a fit icon', async () => {
    await createDraft('Placement');
    const area = await rect(canvas());
    expect(area.y + area.height).toBeLessThanOrEqual(VIEW.height);
    expect(area.height).toBeGreaterThanOrEqual(VIEW.height / 2);
    // Material's fit_screen has a box in the middle of its four corners; "fullscreen" has the corners only.
    const boxInTheMiddle = await e2e.page
      .getByTestId('fit-view')
      .locator('svg path')
      .evaluate((path: SVGPathElement) => path.isPointInFill(new DOMPoint(12, 12)));
    expect(boxInTheMiddle).toBe(true);
  });

  it('puts each node added from the palette in free space inside the view, beside the properties panel', async () => {
    for (const [type, id] of [
      ['table', 'table1'],
      ['comment', 'note1'],
      ['cloud', 'cloud1'],
    ]) {
      await e2e.page.locator(`[data-palette-type="${type}"]`).click();
      await visible(node(id));
    }
    await visible(panel());
    await eventually(async () => {
      const view = await rect(canvas());
      const boxes = await Promise.all(['table1', 'note1', 'cloud1'].map((id) => rect(node(id))));
      for (const [i, box] of boxes.entries()) {
        expect(contains(view, box)).toBe(true);
        for (const other of boxes.slice(i + 1)) expect(intersects(box, other)).toBe(false);
      }
      expect(intersects(await rect(panel()), boxes[2])).toBe(false);
    });
    await screenshot(e2e.page, 'editor-canvas-added-nodes');
  });

  it('never leaves the node just dropped, or the one selected, under the properties panel', async () => {
    await e2e.page.keyboard.press('Escape');
    await eventually(async () => expect(await panel().count()).toBe(0));
    // Dropped at the canvas's right edge, where the panel opens.
    const view = await rect(canvas());
    await e2e.page.locator('[data-palette-type="text"]').dragTo(canvas(), { targetPosition: { x: view.width - 60, y: view.height / 2 } });
    await visible(node('text1'));
    await visible(panel());
    await eventually(async () => {
      const dropped = await rect(node('text1'));
      expect(intersects(await rect(panel()), dropped)).toBe(false);
      expect(contains(await rect(canvas()), dropped)).toBe(true);
    });
    await screenshot(e2e.page, 'editor-canvas-panel-open');
  });

  it('lays unconnected nodes out left to right at a readable zoom, never above 1.25×', async () => {
    await e2e.page.getByTestId('layout-lr').click();
    await layoutDone();
    await eventually(async () => {
      const z = await zoom('table1');
      expect(z).toBeLessThanOrEqual(1.25 + 0.01);
      expect(z).toBeGreaterThanOrEqual(READABLE_ZOOM - 0.01);
      const view = await rect(canvas());
      for (const id of ['table1', 'note1', 'cloud1', 'text1']) expect(contains(view, await rect(node(id)))).toBe(true);
    });
    await screenshot(e2e.page, 'editor-canvas-layout');
  });

  it('draws the edges of an automatic layout around the nodes they do not join', async () => {
    // A chain laid out in a row (client → gateway → orders → stock) with edges that skip a node of it: drawn
    // straight, client → orders would run through the gateway and gateway → stock through orders. And a group.
    await createDraft(
      'Routes',
      [
        'flowchart LR',
        '  client[Client] --> gateway[Gateway]',
        '  gateway --> orders[Orders]',
        '  orders --> stock[Stock]',
        '  client --> orders',
        '  gateway --> stock',
        '  subgraph shop[Shop]',
        '    orders',
        '    stock',
        '  end',
      ].join('\n'),
    );
    // A copy without positions is laid out on load.
    await visible(node('orders'));
    await layoutDone();
    const ids = ['client', 'gateway', 'orders', 'stock'];
    await eventually(async () => {
      const boxes = new Map(await Promise.all(ids.map(async (id) => [id, await rect(node(id))] as const)));
      const edges = canvas().locator('[data-edge-source]');
      expect(await edges.count()).toBe(5);
      const crossings: string[] = [];
      for (const edge of await edges.all()) {
        const source = (await edge.getAttribute('data-edge-source')) ?? '';
        const target = (await edge.getAttribute('data-edge-target')) ?? '';
        const points = await edge.locator('.edge-line').evaluate((path: SVGPathElement) => {
          const matrix = path.getScreenCTM();
          if (!matrix) return [];
          const length = path.getTotalLength();
          const out: { x: number; y: number }[] = [];
          for (let at = 0; at <= length; at += 3) {
            const p = path.getPointAtLength(at);
            out.push({ x: p.x * matrix.a + p.y * matrix.c + matrix.e, y: p.x * matrix.b + p.y * matrix.d + matrix.f });
          }
          return out;
        });
        expect(points.length).toBeGreaterThan(2);
        for (const [id, box] of boxes) {
          if (id === source || id === target) continue;
          const inside = points.some((p) => p.x > box.x + 2 && p.x < box.x + box.width - 2 && p.y > box.y + 2 && p.y < box.y + box.height - 2);
          if (inside) crossings.push(`${source}→${target} through ${id}`);
        }
      }
      expect(crossings).toEqual([]);
      expect(await zoom('orders')).toBeLessThanOrEqual(1.25 + 0.01);
    });
    await screenshot(e2e.page, 'editor-canvas-routes');
  });

  it('draws a group only the context file defines around the nodes it lists in a copy of a synced diagram, and no node over another', async () => {
    // "storage" is not a Mermaid subgraph: its members keep no parent in the copy's graph (the graph's rules).
    const mermaid = ['flowchart LR', '  client[Client] --> api[API]', '  api --> db[(Ledger DB)]', '  api --> keys[(Idempotency keys)]', '  api --> cache[Cache]', '  subgraph core[Core]', '    api', '  end', ''].join('\n');
    const context = JSON.stringify({ groups: { storage: { name: 'Storage', nodes: ['db', 'keys'] } } });
    await pushBundle(e2e.server, e2e.syncToken, { name: 'copied', description: 'Editor canvas e2e' }, [
      { kind: 'architecture-diagram', name: 'topology', file: file('.service/diagrams/topology.mmd', mermaid), context: file('.service/diagrams/topology.context.json', context) },
    ]);
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/copied/diagrams/topology`);
    await e2e.page.getByTestId('edit-copy').click();
    await e2e.page.waitForURL((url) => /\/orgs\/acme\/drafts\/[^/]+$/.test(url.pathname));
    await visible(node('keys'));
    await layoutDone();
    const ids = ['client', 'api', 'db', 'keys', 'cache'];
    await eventually(async () => {
      const boxes = new Map(await Promise.all(ids.map(async (id) => [id, await rect(node(id))] as const)));
      const frame = await rect(canvas().locator('[data-group-id="storage"] rect.frame'));
      const misplaced = ids.filter((id) => (['db', 'keys'].includes(id) ? !contains(frame, must(boxes.get(id))) : intersects(frame, must(boxes.get(id)))));
      expect(misplaced).toEqual([]);
      const overlapping = ids.flatMap((a, i) => ids.slice(i + 1).filter((b) => intersects(must(boxes.get(a)), must(boxes.get(b)))).map((b) => `${a}/${b}`));
      expect(overlapping).toEqual([]);
    });
    await screenshot(e2e.page, 'editor-canvas-context-group');
  });
});
