import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { SCREENSHOT_DIR, eventually, visible } from './support/browser';
import { WORKSPACE } from './support/server';
import { useE2eSession } from './support/session';
import { pushBundle, syncFile as file } from './support/sync';

/** Seven participants (an actor, two renamed by the context), twelve messages, declared in this order. */
const ORDER_FLOW = `sequenceDiagram
  actor U as Shopper
  participant W as Web shop
  participant G as Gateway
  participant O as Orders
  participant P as Payments API
  participant B as Bank
  participant N as SendGrid
  U->>W: add to cart
  W->>G: POST /orders
  G->>O: create order
  O->>P: authorize payment
  P->>B: charge card
  B-->>P: approved
  P-->>O: authorized
  O->>N: order placed
  N-->>U: confirmation mail
  O-->>G: 201 Created
  G-->>W: order id
  W-->>U: thank-you page
`;
const ORDER_FLOW_CONTEXT = JSON.stringify({ name: 'Order flow', nodes: { P: { name: 'Payments service (EU)' }, N: { name: 'Email provider' } } });
const PARTICIPANTS = ['Shopper', 'Web shop', 'Gateway', 'Orders', 'Payments service (EU)', 'Bank', 'Email provider'];
/** Mermaid's participant boxes, top and bottom row: a rectangle, or a stick figure for an actor. */
const PARTICIPANT_BOXES = 'rect.actor, g.actor-man';
const MESSAGES = ORDER_FLOW.split('\n').flatMap((line) => /: (.+)$/.exec(line)?.[1] ?? []);

/** Notes, blocks and activations: what the server's image of a sequence diagram draws besides the messages. */
const CHECKOUT_BLOCKS = `sequenceDiagram
  actor U as Shopper
  participant A as Payments API
  participant P as Card processor
  U->>+A: Pay
  Note right of U: Card details stay in the browser
  loop Until approved or three tries
    A->>P: authorize
    alt approved
      P-->>A: approved
    else declined
      P-->>A: declined
      Note over A,P: The processor says why
    end
  end
  A-->>-U: Confirmation
`;
const CHECKOUT_NOTES = ['Card details stay in the browser', 'The processor says why'];
const CHECKOUT_BLOCK_LABELS = ['loop', '[Until approved or three tries]', 'alt', '[approved]', '[declined]'];

const SAMPLE = join(WORKSPACE, 'apps/cli/test/fixtures/sample-repo');
const read = (path: string) => readFileSync(join(SAMPLE, path), 'utf8');


describe('a sequence diagram in its zoomable frame, and SVG/PNG exports as shown, in a real browser', () => {
  const e2e = useE2eSession({ setupToken: `e2e-sequence-${Date.now()}-0123456789`, browser: { viewport: { width: 1280, height: 720 }, acceptDownloads: true }, timeout: 30000, organization: true });
  const frame = () => e2e.page.getByTestId('sequence-diagram');
  const url = () => `${e2e.server.baseUrl}/orgs/acme/services/shop/diagrams/order-flow`;

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await pushBundle(e2e.server, e2e.syncToken, { name: 'shop', description: 'Sequence e2e' }, [
      { kind: 'architecture-diagram', name: 'order-flow', file: file('.service/diagrams/order-flow.mmd', ORDER_FLOW), context: file('.service/diagrams/order-flow.context.json', ORDER_FLOW_CONTEXT) },
      { kind: 'architecture-diagram', name: 'checkout-blocks', file: file('.service/diagrams/checkout-blocks.mmd', CHECKOUT_BLOCKS) },
    ]);
  });

  /** The paths of the API requests `page` makes from now on. */
  function requests(page: Page): string[] {
    const paths: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/')) paths.push(path);
    });
    return paths;
  }

  async function drawn(): Promise<void> {
    await eventually(async () => expect(await frame().getAttribute('data-drawn')).toBe('true'));
    await visible(frame().locator(PARTICIPANT_BOXES).first());
  }

  /** Participant boxes (top and bottom row) that reach outside the frame, by their text. */
  const outside = () =>
    frame().evaluate((element, selector) => {
      const view = element.getBoundingClientRect();
      return Array.from(element.querySelectorAll(selector)).flatMap((box) => {
        const r = box.getBoundingClientRect();
        const inside = r.left >= view.left - 0.5 && r.right <= view.right + 0.5 && r.top >= view.top - 0.5 && r.bottom <= view.bottom + 0.5;
        return inside ? [] : [`${box.parentElement?.textContent ?? '?'} ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} in ${Math.round(view.left)},${Math.round(view.top)}–${Math.round(view.right)},${Math.round(view.bottom)}`];
      });
    }, PARTICIPANT_BOXES);
  const zoom = async () => Number(await frame().getAttribute('data-zoom'));

  it('opened directly: drawn whole inside its frame, context names kept, messages in Mermaid’s order, and no layout request', async () => {
    const asked = requests(e2e.page);
    await e2e.page.goto(url());
    await drawn();
    await e2e.page.waitForLoadState('networkidle');
    expect(asked).toContain('/api/v1/orgs/acme/services/shop/diagrams/order-flow');
    expect(asked.filter((path) => path.endsWith('/layout'))).toEqual([]);

    // Fitted when drawn: both rows of participant boxes, all seven, inside the frame.
    expect(await frame().locator(PARTICIPANT_BOXES).count()).toBe(14);
    expect(await outside()).toEqual([]);
    const texts = await frame().locator('svg').evaluate((svg) => Array.from(svg.querySelectorAll('text')).map((text) => ({ text: text.textContent ?? '', y: text.getBoundingClientRect().top })));
    for (const name of PARTICIPANTS) expect(texts.map((t) => t.text)).toContain(name);
    expect(texts.map((t) => t.text)).not.toContain('SendGrid');
    const messages = texts.filter((t) => MESSAGES.includes(t.text)).sort((a, b) => a.y - b.y).map((t) => t.text);
    expect(messages).toEqual(MESSAGES);
    await e2e.page.screenshot({ path: join(SCREENSHOT_DIR, 'sequence-page-1280x720.png') });
  });

  it('zooms in with the button and the wheel, pans by dragging, and Fit brings the whole drawing back', async () => {
    await e2e.page.goto(url());
    await drawn();
    const fitted = await zoom();
    await e2e.page.getByTestId('zoom-in').click();
    await eventually(async () => expect(await zoom()).toBeCloseTo(fitted * 1.25, 2));
    const box = frame().locator('rect.actor').first();
    const before = await box.boundingBox();

    const area = await frame().boundingBox();
    if (!area || !before) throw new Error('The frame or a participant box has no box');
    await e2e.page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
    await e2e.page.mouse.wheel(0, -300);
    await eventually(async () => expect(await zoom()).toBeGreaterThan(fitted * 1.3));
    const zoomed = await zoom();

    const start = await box.boundingBox();
    await e2e.page.mouse.move(area.x + 300, area.y + 200);
    await e2e.page.mouse.down();
    await e2e.page.mouse.move(area.x + 200, area.y + 150, { steps: 5 });
    await e2e.page.mouse.up();
    await eventually(async () => {
      const moved = await box.boundingBox();
      expect(Math.round((moved?.x ?? 0) - (start?.x ?? 0))).toBe(-100);
      expect(Math.round((moved?.y ?? 0) - (start?.y ?? 0))).toBe(-50);
    });
    expect(await zoom()).toBe(zoomed);
    expect((await outside()).length).toBeGreaterThan(0);

    await e2e.page.getByTestId('fit').click();
    await eventually(async () => expect(await zoom()).toBeCloseTo(fitted, 3));
    expect(await outside()).toEqual([]);
  });

  /** Clicks `testId` and returns the file it downloads. */
  /** Chooses an item of the page header's Export menu and saves what it downloads. */
  async function download(testId: string): Promise<{ name: string; path: string }> {
    await e2e.page.getByTestId('export-menu').click();
    const [file] = await Promise.all([e2e.page.waitForEvent('download'), e2e.page.getByTestId(testId).click()]);
    const saved = join(SCREENSHOT_DIR, (file as Download).suggestedFilename());
    await (file as Download).saveAs(saved);
    return { name: (file as Download).suggestedFilename(), path: saved };
  }

  /** A PNG decoded in the page: its size and the share of its pixels that are not white. */
  function decodePng(bytes: Buffer): Promise<{ width: number; height: number; ink: number }> {
    return e2e.page.evaluate(async (base64) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      let ink = 0;
      for (let i = 0; i < pixels.length; i += 4) if (pixels[i] < 200 || pixels[i + 1] < 200 || pixels[i + 2] < 200) ink++;
      return { width: image.naturalWidth, height: image.naturalHeight, ink: ink / (pixels.length / 4) };
    }, bytes.toString('base64'));
  }

  /** What a person opens: the downloaded files themselves, at 1280 × 720. */
  async function look(files: [path: string, shot: string][]): Promise<void> {
    const viewer = await e2e.context.newPage();
    for (const [file, shot] of files) {
      await viewer.goto(`file://${file}`);
      await viewer.screenshot({ path: join(SCREENSHOT_DIR, shot) });
    }
    await viewer.close();
  }

  it('exports SVG and PNG: the whole drawing with every participant, not blank', async () => {
    await e2e.page.goto(url());
    await drawn();
    // Zoomed and panned on screen: the export is the whole drawing all the same.
    await e2e.page.getByTestId('zoom-in').click();

    const svg = await download('export-svg');
    expect(svg.name).toBe('order-flow.svg');
    const text = readFileSync(svg.path, 'utf8');
    const root = /^<svg [^>]*>/.exec(text)?.[0] ?? '';
    expect(root).toContain('xmlns="http://www.w3.org/2000/svg"');
    for (const name of [...PARTICIPANTS, ...MESSAGES]) expect(text).toContain(`>${name}<`);

    const png = await download('export-png');
    expect(png.name).toBe('order-flow.png');
    const bytes = readFileSync(png.path);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    const decoded = await decodePng(bytes);
    const size = /width="(\d+)" height="(\d+)"/.exec(root) ?? [];
    // Twice the drawing's size (a sharper PNG), with lines and text on a white background.
    expect([decoded.width, decoded.height]).toEqual([Number(size[1]) * 2, Number(size[2]) * 2]);
    expect(decoded.ink).toBeGreaterThan(0.01);
    expect(decoded.ink).toBeLessThan(0.5);

    await look([
      [svg.path, 'sequence-export-svg.png'],
      [png.path, 'sequence-export-png.png'],
    ]);
  });

  it('exports a canvas diagram as shown: every node’s name, data fields and content in the SVG; a PNG that is not blank', async () => {
    const topology = read('.service/diagrams/topology.mmd');
    const contextText = read('.service/diagrams/topology.context.json');
    await pushBundle(e2e.server, e2e.syncToken, { name: 'payments', description: 'Export e2e' }, [
      { kind: 'architecture-diagram', name: 'topology', file: file('.service/diagrams/topology.mmd', topology), context: file('.service/diagrams/topology.context.json', contextText) },
      { kind: 'database-schema', name: 'ledger', engine: 'postgres', file: file('.service/schemas/ledger.sql', read('.service/schemas/ledger.sql')) },
      { kind: 'database-schema', name: 'idempotency', engine: 'dynamodb', file: file('.service/schemas/idempotency.json', read('.service/schemas/idempotency.json')) },
    ]);
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/payments/diagrams/topology`);
    await eventually(async () => expect(Number(await e2e.page.getByTestId('diagram-canvas').getAttribute('data-drawn'))).toBeGreaterThan(0), 60000);

    const svg = await download('export-svg');
    // The file's text as a viewer reads it: each <text> element, lines joined by spaces.
    const drawnText = await e2e.page.evaluate((source) => {
      const parsed = new DOMParser().parseFromString(source, 'image/svg+xml');
      if (parsed.querySelector('parsererror')) return null;
      return Array.from(parsed.querySelectorAll('[data-node-id]')).map((node) => ({
        id: node.getAttribute('data-node-id'),
        text: Array.from(node.querySelectorAll('text')).map((text) => text.textContent).join(' '),
      }));
    }, readFileSync(svg.path, 'utf8'));
    if (!drawnText) throw new Error('The exported SVG does not parse');
    const textOf = (id: string) => drawnText.find((node) => node.id === id)?.text ?? '';
    const context = JSON.parse(contextText) as { nodes: Record<string, { name?: string; value?: string; data?: Record<string, { value: unknown }> }> };
    for (const [id, node] of Object.entries(context.nodes)) {
      if (node.name) expect([id, textOf(id)]).toEqual([id, expect.stringContaining(node.name)]);
      if (node.value && !node.value.includes('\n')) expect([id, textOf(id)]).toEqual([id, expect.stringContaining(node.value)]);
    }
    // Every data row the canvas shows on a node, in the file too; and the db-table's columns from the synced schema.
    const rows = await e2e.page.getByTestId('diagram-canvas').locator('[data-node-id] .fields > div').evaluateAll((divs) =>
      divs.map((div) => ({ id: div.closest('[data-node-id]')?.getAttribute('data-node-id') ?? '', label: div.querySelector('dt')?.textContent ?? '', value: div.querySelector('dd')?.textContent ?? '' })),
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    /** The row in the file: its value whole, or, too long for the node (cut with an ellipsis on the canvas too), its start and "…". */
    const rowInFile = (id: string, label: string, value: string) => {
      const text = textOf(id);
      const at = text.indexOf(`${label}:`);
      if (at < 0) return 'missing';
      const after = text.slice(at + label.length + 1);
      if (after.startsWith(value)) return 'whole';
      const cut = after.indexOf('…');
      return cut >= 8 && value.startsWith(after.slice(0, cut)) ? 'shortened' : `different: ${after}`;
    };
    for (const { id, label, value } of rows) expect([id, label, rowInFile(id, label, value)]).toEqual([id, label, expect.stringMatching(/^(whole|shortened)$/)]);
    // The author's order: the payments API's first rows are the context file's first fields.
    expect(rows.filter((row) => row.id === 'api').map((row) => row.label)).toEqual(['Owner', 'Runbook', 'Replicas']);
    expect(textOf('ledgerEntries')).toContain('amount_minor');

    const png = await download('export-png');
    const decoded = await decodePng(readFileSync(png.path));
    expect(decoded.ink).toBeGreaterThan(0.01);
    await look([
      [svg.path, 'canvas-export-svg.png'],
      [png.path, 'canvas-export-png.png'],
    ]);
  });

  it('opened from the service page: no layout request either', async () => {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/shop`);
    const link = e2e.page.locator('a[href$="/diagrams/order-flow"]').first();
    await visible(link);
    const asked = requests(e2e.page);
    await link.click();
    await drawn();
    await e2e.page.waitForLoadState('networkidle');
    expect(asked).toContain('/api/v1/orgs/acme/services/shop/diagrams/order-flow');
    expect(asked.filter((path) => path.endsWith('/layout'))).toEqual([]);
    expect(await outside()).toEqual([]);
  });

  it("the server's image.svg and image.png of a sequence diagram show its notes, blocks and activations as <img> on a plain page", async () => {
    const { page, server } = e2e;
    const image = `/api/v1/orgs/acme/services/shop/diagrams/checkout-blocks/image`;
    const svg = await page.request.get(`${server.baseUrl}${image}.svg`);
    expect(svg.status()).toBe(200);
    const text = (await svg.text()).replace(/&amp;/g, '&');
    for (const shown of [...CHECKOUT_NOTES, ...CHECKOUT_BLOCK_LABELS]) expect(text).toContain(`>${shown}<`);
    expect(text).toContain('data-activation');
    expect(text).not.toMatch(/<script|href="(?!#)/);
    // A plain HTML page of the server's origin (the session's cookie goes with the images), as a wiki shows them.
    await page.goto(`${server.baseUrl}/api/v1/health/live`);
    await page.setContent(`<!doctype html><html><body style="margin:8px;font-family:sans-serif"><p>SVG:</p><img id="svg" src="${image}.svg"><p>PNG:</p><img id="png" src="${image}.png?scale=1"></body></html>`);
    const sizes = await page.evaluate(async () => {
      const images = Array.from(document.images);
      await Promise.all(images.map((img) => (img.complete ? null : new Promise((done) => { img.onload = done; img.onerror = done; }))));
      return images.map((img) => [img.naturalWidth, img.naturalHeight]);
    });
    expect(sizes.every(([width, height]) => width > 200 && height > 200)).toBe(true);
    // The PNG at scale 1 has the SVG's size.
    expect(sizes[1]).toEqual(sizes[0]);
    await page.screenshot({ path: join(SCREENSHOT_DIR, '75-sequence-image-blocks.png'), fullPage: true });
  });
});
