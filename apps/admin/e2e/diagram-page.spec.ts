import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { SCREENSHOT_DIR, eventually, visible } from './support/browser';
import { generatedTopology } from './support/generated-topology';
import { WORKSPACE } from './support/server';
import { useE2eSession } from './support/session';
import { pushBundle, syncFile as file } from './support/sync';
import { C4_ORDERS } from './support/diagram-fixtures';

/**
 * The diagram page as a person reads it (issue 22): the canvas fills the window, every group name is readable, Fit
 * keeps text readable, the page's state (collapsed groups, selected node) survives Back and Forward, cards and the
 * details panel's schema table show all they hold. Screenshots of each diagram kind at 1280×720 and 1440×900 go to
 * `tmp/screenshots/` (support/browser.ts's SCREENSHOT_DIR) to be looked at, not compared.
 */

const SAMPLE = join(WORKSPACE, 'apps/cli/test/fixtures/sample-repo');
const read = (path: string) => readFileSync(join(SAMPLE, path), 'utf8');

/** A small realistic topology: two groups, one of them narrow ("Clients", two short nodes). */
const TOPOLOGY = `flowchart LR
  subgraph clients[Clients]
    web[Web shop]
    mobile[Mobile app]
  end
  subgraph platform[Order platform]
    api[API]
    orders[Orders service]
    pricing[Pricing rules]
    worker[Worker]
  end
  partner[Partner API]
  db[(Orders DB)]
  queue[[Event bus]]
  email[Email provider]
  payments[Payments]
  bucket[Invoice bucket]
  note[Audit note]
  web --> api
  mobile --> api
  partner --> api
  api --> orders
  orders --> pricing
  orders --> db
  orders -- publishes OrderPlaced --> queue
  queue --> worker
  worker --> email
  worker --> bucket
  worker --> note
  orders --> payments
`;

/** A composite state whose members are narrower than its name. */
const LIFECYCLE = `stateDiagram-v2
  [*] --> Placed
  Placed --> Fulfilling
  state Fulfilling {
    [*] --> Pick
    Pick --> Pack
    Pack --> [*]
  }
  Fulfilling --> Shipped
  Shipped --> [*]
`;

/** 100 nodes in ten rows of ten: fitted whole at 1280×720 its text would be about 5 px. */
const HUNDRED = `flowchart LR\n${Array.from({ length: 10 }, (_, row) => `  ${Array.from({ length: 10 }, (_, col) => `r${row}c${col}[Row ${row} step ${col}]`).join(' --> ')}`).join('\n')}\n`;
const TINY = 'flowchart LR\n  a[Start] --> b[Done]\n';

describe('the diagram page in a real browser', () => {
  const e2e = useE2eSession({
    setupToken: `e2e-diagram-page-${Date.now()}-0123456789`,
    browser: { viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' },
    timeout: 30000,
    organization: true,
  });

  const diagram = (name: string, source: string, context?: unknown) => ({
    kind: 'architecture-diagram',
    name,
    file: file(`.service/diagrams/${name}.mmd`, source),
    ...(context ? { context: file(`.service/diagrams/${name}.context.json`, JSON.stringify(context)) } : {}),
  });

  beforeAll(async () => {
    await pushBundle(e2e.server, e2e.syncToken, { name: 'shop', description: 'Diagram page e2e', repositoryUrl: 'https://example.com/acme/shop' }, [
      diagram('topology', TOPOLOGY, { name: 'Shop topology', description: 'What runs where and what it talks to.' }),
      diagram('lifecycle', LIFECYCLE),
      diagram('containers', C4_ORDERS),
      diagram('hundred', HUNDRED),
      diagram('tiny', TINY),
      diagram('long', TINY, { name: 'Settlement, reconciliation and payout topology of the European card acquiring platform' }),
      // A table the synced ledger schema does not have (it has entries), in a database of several tables.
      diagram('missing-table', 'flowchart LR\n  api[Payments API] --> refunds[Refunds]\n', {
        nodes: { refunds: { type: 'db-table', name: 'Refunds', dbConfig: { serviceName: 'shop', databaseName: 'ledger', tableName: 'refunds' } } },
      }),
      { kind: 'architecture-diagram', name: 'payments', file: file('.service/diagrams/topology.mmd', read('.service/diagrams/topology.mmd')), context: file('.service/diagrams/topology.context.json', read('.service/diagrams/topology.context.json')) },
      { kind: 'database-schema', name: 'ledger', engine: 'postgres', file: file('.service/schemas/ledger.sql', read('.service/schemas/ledger.sql')) },
      { kind: 'database-schema', name: 'idempotency', engine: 'dynamodb', file: file('.service/schemas/idempotency.json', read('.service/schemas/idempotency.json')) },
    ]);
  });

  const page = (): Page => e2e.page;
  const canvas = () => page().getByTestId('diagram-canvas');
  const url = (name: string, query = '') => `${e2e.server.baseUrl}/orgs/acme/services/shop/diagrams/${name}${query}`;

  /** Opens a diagram and waits until the canvas has drawn `count` nodes with ELK's final layout. */
  async function open(name: string, count: number, query = ''): Promise<void> {
    await page().goto(url(name, query));
    await drawn(count);
  }
  async function drawn(count: number): Promise<void> {
    await eventually(async () => expect(await canvas().getAttribute('data-drawn')).toBe(String(count)), 60000);
    await eventually(async () => expect(await canvas().getAttribute('data-layout')).toBe('done'), 60000);
    await page().evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  }

  /** The canvas's zoom: a node's drawn width over its own (unscaled) width. */
  const zoom = () =>
    canvas()
      .locator('[data-node-id]')
      .first()
      .evaluate((node) => node.getBoundingClientRect().width / (node as HTMLElement).offsetWidth);

  async function shot(name: string): Promise<void> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page().waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
    const { width, height } = page().viewportSize() ?? { width: 0, height: 0 };
    await page().screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}x${height}.png`) });
  }

  /**
   * Every group frame's header: the name is not cut (its text fits its box) and the Hide/Show details button does not
   * cover it; both stay inside the frame. Returns what is wrong, by group.
   */
  const headerProblems = () =>
    canvas()
      .locator('[data-group-id]')
      .evaluateAll((frames) =>
        frames.flatMap((frame) => {
          const id = frame.getAttribute('data-group-id');
          const title = frame.querySelector<HTMLElement>('.group-title');
          const button = frame.querySelector<HTMLElement>('.group-toggle');
          const outline = frame.querySelector('.frame')?.getBoundingClientRect();
          if (!title || !button || !outline) return [`${id}: no header`];
          const name = title.getBoundingClientRect();
          const covering = button.getBoundingClientRect();
          const problems: string[] = [];
          if (title.scrollWidth > title.clientWidth) problems.push(`${id}: "${title.textContent}" is cut (${title.scrollWidth} > ${title.clientWidth} px)`);
          if (covering.left < name.right && covering.right > name.left && covering.top < name.bottom && covering.bottom > name.top) problems.push(`${id}: the button covers the name`);
          if (covering.right > outline.right + 0.5) problems.push(`${id}: the button sticks out of the frame`);
          return problems;
        }),
      );

  describe.each([
    [1280, 720],
    [1440, 900],
  ])('at %i×%i', (width, height) => {
    beforeAll(() => page().setViewportSize({ width, height }));

    it('fills the window with the canvas below a one-line header', async () => {
      await open('topology', 13);
      const header = await page().locator('.diagram-header').boundingBox();
      const box = await canvas().boundingBox();
      if (!header || !box) throw new Error('no header or canvas');
      // The app's own header (toolbar and section tabs, 112 px) and the page's one line, then the canvas.
      expect(header.height).toBeLessThanOrEqual(56);
      expect(box.y).toBeLessThan(175);
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      expect(box.y + box.height).toBeGreaterThan(height - 4);
      // The side panel (groups, changes, context) is beside the canvas, inside the window too.
      const side = await page().getByTestId('side-panel').boundingBox();
      expect(side && side.y + side.height).toBeLessThanOrEqual(height);
      // Nothing below the fold: the page does not scroll.
      expect(await page().evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(height);
      await shot('flowchart-groups');

      // Full screen: the canvas takes the whole window; the button (or Escape) brings the page back.
      await page().getByTestId('toggle-fullscreen').click();
      await eventually(async () => expect((await canvas().boundingBox())?.y).toBeLessThan(60));
      await page().getByTestId('toggle-fullscreen').click();
      await eventually(async () => expect((await canvas().boundingBox())?.y).toBeGreaterThan(100));
    });

    it('keeps the header on one line with nothing over anything else when the title is longer than the room: the title is shortened', async () => {
      await open('long', 2);
      const items = await page()
        .locator('.diagram-header')
        .evaluate((header) =>
          // The revision picker's field, not its host: a host narrower than the field lets the field run under the next button.
          Array.from(header.querySelectorAll<HTMLElement>(':scope > .crumbs, :scope > .title, :scope > .kind, :scope > sc-revision-bar .mat-mdc-form-field, :scope > button')).map((element) => {
            const box = element.getBoundingClientRect();
            return { name: element.getAttribute('data-testid') ?? element.className.split(' ')[0], left: box.left, right: box.right };
          }),
        );
      expect(items.length).toBeGreaterThanOrEqual(6);
      const overlaps = items.flatMap((a, i) => items.slice(i + 1).filter((b) => a.left < b.right - 0.5 && b.left < a.right - 0.5).map((b) => `${a.name} / ${b.name}`));
      expect(overlaps).toEqual([]);
      const title = page().locator('.diagram-header .title');
      expect(await title.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
      expect(await title.getAttribute('title')).toBe('Settlement, reconciliation and payout topology of the European card acquiring platform');
      expect((await page().locator('.diagram-header').boundingBox())?.height).toBeLessThanOrEqual(56);
      await shot('long-title');
    });

    it('shows every group name in full beside its button: groups, composite states, C4 boundaries with their type', async () => {
      for (const [name, count, shotName] of [
        ['topology', 13, 'flowchart-groups'],
        ['lifecycle', 8, 'state-composite'],
        ['containers', 5, 'c4-boundaries'],
      ] as const) {
        await open(name, count);
        expect([name, await headerProblems()]).toEqual([name, []]);
        if (name === 'containers') {
          expect(await canvas().locator('[data-group-id=acme] .group-type').first().innerText()).toBe('[ENTERPRISE]');
          expect(await canvas().locator('[data-group-id=shop] .group-type').first().innerText()).toBe('[SYSTEM]');
        }
        await shot(shotName);
        // Collapsed, the name still shows in full.
        await canvas().locator(`[data-group-id] .group-toggle`).first().click();
        await eventually(async () => expect(await canvas().getAttribute('data-layout')).toBe('done'), 60000);
        expect([name, 'collapsed', await headerProblems()]).toEqual([name, 'collapsed', []]);
      }
    });
  });

  it('fits with readable text up to 150 nodes, starting at the top-left, and never blows a tiny diagram up', async () => {
    await page().setViewportSize({ width: 1280, height: 720 });
    await open('hundred', 100);
    await page().getByRole('button', { name: 'Fit to view' }).click();
    // The canvas's smallest text is 12 px: at 0.75 or more it is 9 px or more on screen.
    await eventually(async () => expect(await zoom()).toBeGreaterThanOrEqual(0.749));
    const view = await canvas().boundingBox();
    const first = await canvas().locator('[data-node-id=r0c0]').boundingBox();
    if (!view || !first) throw new Error('the top-left node is not drawn');
    expect(first.x).toBeGreaterThanOrEqual(view.x);
    expect(first.y).toBeGreaterThanOrEqual(view.y);
    expect(first.x + first.width).toBeLessThanOrEqual(view.x + view.width);
    expect(first.y + first.height).toBeLessThanOrEqual(view.y + view.height);

    await open('tiny', 2);
    await page().getByRole('button', { name: 'Fit to view' }).click();
    await eventually(async () => expect(await zoom()).toBeLessThanOrEqual(1.251));
  });

  it('names the groups legibly over the overview of a diagram of more than 150 nodes', async () => {
    await page().setViewportSize({ width: 1280, height: 720 });
    const large = generatedTopology(1000, 1300, 20, 200);
    await pushBundle(e2e.server, e2e.syncToken, { name: 'bench', description: 'Diagram page e2e', repositoryUrl: 'https://example.com/acme/bench' }, [
      { kind: 'architecture-diagram', name: 'large', file: file('.service/diagrams/large.mmd', large.mermaid), context: file('.service/diagrams/large.context.json', large.context) },
      { kind: 'database-schema', name: 'bench-db', engine: 'postgres', file: file('.service/schemas/bench.sql', 'CREATE TABLE orders (id uuid PRIMARY KEY);\n') },
    ]);
    await page().goto(`${e2e.server.baseUrl}/orgs/acme/services/bench/diagrams/large`);
    await drawn(1000);
    // Fitted whole: far too small for the frames' own 13 px names; each frame wide enough gets its name at 12 px.
    const labels = canvas().getByTestId('overview-label');
    await eventually(async () => expect(await labels.count()).toBeGreaterThan(0));
    const sizes = await labels.evaluateAll((items) => items.map((item) => getComputedStyle(item).fontSize));
    expect(new Set(sizes)).toEqual(new Set(['12px']));
    await shot('overview-1000');
  });

  it('restores collapsed groups and the selected node with Back and Forward, and from a shared link', async () => {
    await page().setViewportSize({ width: 1280, height: 720 });
    await open('topology', 13);
    await canvas().locator('[data-group-id=platform]').getByRole('button', { name: 'Hide details', exact: true }).click();
    await drawn(9);
    expect(page().url()).toContain('collapsed=platform');
    await canvas().locator('[data-node-id=db]').click();
    await visible(page().getByTestId('details-panel'));
    expect(page().url()).toContain('node=db');

    await page().goBack();
    await eventually(async () => expect(await page().getByTestId('details-panel').count()).toBe(0));
    await page().goBack();
    await drawn(13);
    expect(await canvas().locator('[data-node-id=orders]').count()).toBe(1);
    await page().goForward();
    await drawn(9);
    expect(await canvas().locator('[data-node-id=orders]').count()).toBe(0);

    // A shared link: the same collapse and the node's details.
    const link = page().url().replace(/[?&]node=[^&]*/, '');
    await page().goto(`${link}${link.includes('?') ? '&' : '?'}node=email`);
    await drawn(9);
    await visible(page().getByTestId('details-panel'));
    expect(await page().getByTestId('details-panel').innerText()).toContain('Email provider');
  });

  /** The parts of a card whose content is cut off by its size. */
  function clippedIn(card: Locator): Promise<string[]> {
    return card.evaluate((node) =>
      Array.from(node.querySelectorAll<HTMLElement>('*'))
        // Icons are fixed-size glyph boxes, not content.
        .filter((element) => element.tagName !== 'MAT-ICON' && element.scrollHeight > element.clientHeight + 1 && getComputedStyle(element).overflowY === 'hidden')
        .map((element) => `${element.className}: ${element.scrollHeight} > ${element.clientHeight}`),
    );
  }

  it('sizes a card for a table the schema lacks: its note whole on one line, and no room for the database\'s tables', async () => {
    await page().setViewportSize({ width: 1280, height: 720 });
    await open('missing-table', 2);
    const card = canvas().locator('[data-node-id=refunds]');
    const note = card.getByText('Table not found in the synced schema.');
    await visible(note);
    expect(await clippedIn(card)).toEqual([]);
    const [cardBox, noteBox] = [await card.boundingBox(), await note.boundingBox()];
    if (!cardBox || !noteBox) throw new Error('no card or note');
    // One line of 12px text, inside the card with its padding below.
    expect(noteBox.height).toBeLessThan(20);
    expect(noteBox.x + noteBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    expect(noteBox.y + noteBox.height).toBeLessThanOrEqual(cardBox.y + cardBox.height - 4);
    // The ledger database has several tables; the card does not keep their rows' room under the note.
    expect(cardBox.y + cardBox.height - (noteBox.y + noteBox.height)).toBeLessThan(20);
    await shot('missing-table');
  });

  it('never clips a card: a db-table card inside its group frame, every column of the schema table in the details', async () => {
    await page().setViewportSize({ width: 1280, height: 720 });
    await page().goto(`${e2e.server.baseUrl}/orgs/acme/services/shop/diagrams/payments`);
    await drawn(17);
    const card = canvas().locator('[data-node-id=ledgerEntries]');
    expect(await clippedIn(card)).toEqual([]);
    const frame = await canvas().locator('[data-group-id=storage] .frame').boundingBox();
    const box = await card.boundingBox();
    if (!frame || !box) throw new Error('no card or frame');
    expect(box.y + box.height).toBeLessThanOrEqual(frame.y + frame.height);

    // Found by search: centred and selected (at a readable zoom the drawing is wider than the view).
    await page().keyboard.press('Control+K');
    await page().keyboard.type('ledgerEntries');
    await page().keyboard.press('Enter');
    const columns = page().getByTestId('details-columns');
    await visible(columns);
    expect(await columns.locator('th').allInnerTexts()).toEqual(['Column', 'Type', 'Null', 'Key', 'Default']);
    // The table scrolls sideways in its own box: its last column can be scrolled to, never cut off by the panel.
    await columns.evaluate((element) => (element.scrollLeft = element.scrollWidth));
    const last = await columns.locator('th').last().boundingBox();
    const area = await columns.boundingBox();
    if (!last || !area) throw new Error('no table');
    expect(last.x + last.width).toBeLessThanOrEqual(area.x + area.width + 1);
    await shot('details-columns');
  });
});
