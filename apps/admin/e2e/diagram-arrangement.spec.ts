import type { Page } from 'playwright-core';
import { eventually } from './support/browser';
import { useE2eSession } from './support/session';
import { pushBundle, syncFile as file } from './support/sync';

/**
 * Arranging a synced diagram by hand (issue 25): a node dragged in arrange mode and saved stays where it was put
 * after a reload, and after a sync that adds a node the old nodes have not moved and the new one is highlighted.
 */

const FIRST = 'flowchart LR\n  a[Start] --> b[Middle] --> c[Done]\n';
const SECOND = 'flowchart LR\n  a[Start] --> b[Middle] --> c[Done]\n  c --> d[Added later]\n';
const GROUPED = 'flowchart LR\n  subgraph g[Group]\n    x[Inside]\n  end\n  y[Outside] --> x\n';

describe('arranging a synced diagram in a real browser', () => {
  const e2e = useE2eSession({
    setupToken: `e2e-diagram-arrangement-${Date.now()}-0123456789`,
    browser: { viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' },
    timeout: 30000,
    organization: true,
  });
  const service = { name: 'arranged', description: 'Arrangement e2e', repositoryUrl: 'https://example.com/acme/arranged' };
  const sync = (source: string) =>
    pushBundle(e2e.server, e2e.syncToken, service, [
      { kind: 'architecture-diagram', name: 'flow', file: file('.service/diagrams/flow.mmd', source) },
      { kind: 'architecture-diagram', name: 'grouped', file: file('.service/diagrams/grouped.mmd', GROUPED) },
    ]);

  const page = (): Page => e2e.page;
  const canvas = () => page().getByTestId('diagram-canvas');
  const node = (id: string) => canvas().locator(`[data-node-id="${id}"]`);

  async function open(count: number, name = 'flow'): Promise<void> {
    await page().goto(`${e2e.server.baseUrl}/orgs/acme/services/arranged/diagrams/${name}`);
    await eventually(async () => expect(await canvas().getAttribute('data-drawn')).toBe(String(count)), 60000);
    await eventually(async () => expect(await canvas().getAttribute('data-layout')).toBe('done'), 60000);
    await page().evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  }

  /** Where each node is drawn relative to node `a`, in the drawing's own units (screen pixels over the zoom). */
  async function places(ids: string[]): Promise<Record<string, { x: number; y: number }>> {
    const origin = await node('a').boundingBox();
    const zoom = await node('a').evaluate((element) => element.getBoundingClientRect().width / (element as HTMLElement).offsetWidth);
    if (!origin) throw new Error('node a is not drawn');
    const out: Record<string, { x: number; y: number }> = {};
    for (const id of ids) {
      const box = await node(id).boundingBox();
      if (!box) throw new Error(`node ${id} is not drawn`);
      out[id] = { x: (box.x - origin.x) / zoom, y: (box.y - origin.y) / zoom };
    }
    return out;
  }
  const expectSamePlaces = (now: Record<string, { x: number; y: number }>, before: Record<string, { x: number; y: number }>) => {
    for (const [id, place] of Object.entries(before)) {
      expect(Math.abs(now[id].x - place.x)).toBeLessThan(1.5);
      expect(Math.abs(now[id].y - place.y)).toBeLessThan(1.5);
    }
  };

  beforeAll(() => sync(FIRST));

  it('keeps a dragged node where it was put after Save and a reload', async () => {
    await open(3);
    const before = await places(['b', 'c']);
    await page().getByTestId('arrange-mode').click();
    const box = await node('b').boundingBox();
    if (!box) throw new Error('node b is not drawn');
    await page().mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page().mouse.down();
    await page().mouse.move(box.x + box.width / 2 + 20, box.y + box.height / 2 + 90, { steps: 12 });
    await page().mouse.up();
    await eventually(async () => expect((await places(['b'])).b.y).toBeGreaterThan(before.b.y + 40));
    const dragged = await places(['b', 'c']);
    const saved = page().waitForResponse((response) => response.url().endsWith('/diagrams/flow/arrangement') && response.request().method() === 'PUT');
    await page().getByTestId('arrangement-save').click();
    expect((await saved).status()).toBe(200);

    await open(3);
    expectSamePlaces(await places(['b', 'c']), dragged);
    expect(await page().getByTestId('arrangement-placed').count()).toBe(0);
  });

  it('bends an edge through the point its handle is dropped on, kept after Save and a reload', async () => {
    await open(3);
    await page().getByTestId('arrange-mode').click();
    const edge = canvas().locator('[data-edge-key="a->b#0"]');
    const path = () => edge.locator('.edge-line').getAttribute('d');
    const straight = await path();
    const handle = await edge.getByTestId('edge-bend').boundingBox();
    if (!handle) throw new Error('no bend handle');
    await page().mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page().mouse.down();
    await page().mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2 - 120, { steps: 8 });
    await page().mouse.up();
    await eventually(async () => expect(await path()).not.toBe(straight));
    const bent = await path();
    // Three points: from a's border, through the bend, to b's border.
    expect(bent?.match(/[LQ]/g)?.length).toBeGreaterThanOrEqual(2);
    const saved = page().waitForResponse((response) => response.url().endsWith('/diagrams/flow/arrangement') && response.request().method() === 'PUT');
    await page().getByTestId('arrangement-save').click();
    expect((await saved).status()).toBe(200);
    await open(3);
    expect(await path()).toBe(bent);
  });

  it('resizes a group frame by its corner, kept after Save and a reload', async () => {
    await open(2, 'grouped');
    const frame = canvas().locator('[data-group-id="g"] .frame');
    const zoom = () => canvas().locator('[data-node-id="x"]').evaluate((element) => element.getBoundingClientRect().width / (element as HTMLElement).offsetWidth);
    const size = async () => {
      const box = await frame.boundingBox();
      const z = await zoom();
      if (!box) throw new Error('no frame');
      return { width: box.width / z, height: box.height / z };
    };
    const before = await size();
    await page().getByTestId('arrange-mode').click();
    const handle = await canvas().getByTestId('group-resize').boundingBox();
    if (!handle) throw new Error('no resize handle');
    await page().mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page().mouse.down();
    await page().mouse.move(handle.x + handle.width / 2 + 60, handle.y + handle.height / 2 + 80, { steps: 8 });
    await page().mouse.up();
    await eventually(async () => expect((await size()).height).toBeGreaterThan(before.height + 40));
    const resized = await size();
    const saved = page().waitForResponse((response) => response.url().endsWith('/diagrams/grouped/arrangement') && response.request().method() === 'PUT');
    await page().getByTestId('arrangement-save').click();
    expect((await saved).status()).toBe(200);
    await open(2, 'grouped');
    const after = await size();
    expect(Math.abs(after.width - resized.width)).toBeLessThan(1.5);
    expect(Math.abs(after.height - resized.height)).toBeLessThan(1.5);
  });

  it('after a sync adding a node: the old nodes have not moved and the new one is highlighted', async () => {
    await open(3);
    const before = await places(['b', 'c']);
    await sync(SECOND);
    await open(4);
    expectSamePlaces(await places(['b', 'c']), before);
    expect(await node('d').getAttribute('data-placed')).toBe('true');
    for (const id of ['a', 'b', 'c']) expect(await node(id).getAttribute('data-placed')).toBeNull();
    expect(await page().getByTestId('arrangement-placed').textContent()).toContain('1 node placed automatically since the arrangement was saved');
  });
});
