import type { DiagramView, ErrorBody } from '@sc/contracts';
import { buildModel, createView, type OverlaidGraph } from '@sc/diagram';
import { inflateSync } from 'node:zlib';
import { join } from 'node:path';
import { authHeaders, bearer, call, expectErrors, useSeeded, useTestApp, readCallers, seedReaders, type SessionCredentials } from '../support';
import { COLD_WORKER_TIMEOUT } from './bundles';
import { requireBuiltCli, copySampleRepo, runCli } from './cli-process';

/**
 * Server-side images of synced diagrams (issue 26): image.svg drawn by libs/diagram's renderer from the dashboard's
 * model and layout, image.png rendered from it by resvg, for the CLI's fixture repository (every diagram kind).
 */
const DRAWN = ['topology', 'payment-lifecycle', 'system-context'];
const CSP = "default-src 'none'; style-src 'unsafe-inline'";

/** Width, height and whether every pixel is the same, from a PNG's own bytes (8-bit RGBA or RGB, not interlaced). */
function pngFacts(png: Buffer): { width: number; height: number; uniform: boolean } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const [depth, colour, , , interlace] = png.subarray(24, 29);
  expect([depth, [2, 6].includes(colour), interlace]).toEqual([8, true, 0]);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.subarray(at + 4, at + 8).toString('latin1') === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += length + 12;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const bpp = colour === 6 ? 4 : 3;
  const stride = width * bpp;
  let previous = Buffer.alloc(stride);
  let firstPixel = Buffer.alloc(bpp);
  let uniform = true;
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    // Undo the row's filter (PNG spec, section 9): each byte adds back its left, upper or Paeth neighbour.
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? line[i - bpp] : 0;
      const b = previous[i];
      let add = 0;
      if (filter === 1) add = a;
      else if (filter === 2) add = b;
      else if (filter === 3) add = (a + b) >> 1;
      else if (filter === 4) {
        const c = i >= bpp ? previous[i - bpp] : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        add = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      line[i] = (line[i] + add) & 0xff;
    }
    // Every byte against the first pixel's.
    for (let i = 0; i < stride && uniform; i++) if (line[i] !== (y === 0 ? line[i % bpp] : firstPixel[i % bpp])) uniform = false;
    if (y === 0) firstPixel = Buffer.from(line.subarray(0, bpp));
    previous = line;
  }
  return { width, height, uniform };
}

describe('diagram images: image.svg and image.png', () => {
  const t = useTestApp({ env: COLD_WORKER_TIMEOUT });
  const readers = useSeeded(() => seedReaders(t));
  const base = '/api/v1/orgs/acme/services/payments';
  const get = async (path: string, as: SessionCredentials | string = readers.readToken, headers: Record<string, string> = {}) => {
    const response = await fetch(`${t.baseUrl}${base}${path}`, { headers: { ...authHeaders(as), ...headers } });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  };
  const error = async (path: string) => (await call<ErrorBody>(t.baseUrl, 'GET', `${base}${path}`, { headers: bearer(readers.readToken) })).body.error;

  beforeAll(async () => {
    await requireBuiltCli();
    const repo = copySampleRepo();
    try {
      const run = await runCli(['sync', '--config', join(repo.dir, '.service.yaml'), '--json', '--retries', '0', '--timeout', '180'], { SERVICE_TOKEN: readers.syncToken, SERVICE_GATEWAY_URL: t.baseUrl }, repo.dir);
      if (run.code !== 0) throw new Error(`The sync failed: ${run.stdout}\n${run.stderr}`);
    } finally {
      repo.remove();
    }
  }, 240_000);

  it.each(DRAWN)('draws %s as a plain SVG holding every node’s text, with no script and no outside reference', async (name) => {
    const image = await get(`/diagrams/${name}/image.svg`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(image.headers.get('content-security-policy')).toBe(CSP);
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('cache-control')).toBe('private, max-age=60');
    const svg = image.body.toString('utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toMatch(/<script|<foreignObject|\son[a-z]+=/i);
    // Every reference stays inside the file (markers by #id); no picture by URL.
    const references = [...svg.matchAll(/(?:href="|url\()([^")]*)/g)].map((match) => match[1]);
    expect(references.filter((ref) => !ref.startsWith('#') && !ref.startsWith('data:'))).toEqual([]);

    const view = (await call<DiagramView<OverlaidGraph>>(t.baseUrl, 'GET', `${base}/diagrams/${name}`, { headers: bearer(readers.readToken) })).body;
    const model = buildModel({ view: createView(view.graph), databases: new Map(), highlights: null });
    const text = svg.replace(/<[^>]+>/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    expect(model.nodes.length).toBeGreaterThan(3);
    for (const node of model.nodes) {
      expect([node.id, svg.includes(`data-node-id="${node.id}"`)]).toEqual([node.id, true]);
      const words = (node.kind === 'comment' ? (node.body.lines ?? node.titleLines) : node.titleLines).join(' ').split(/\s+/).filter(Boolean);
      expect([node.id, words.filter((word) => !text.includes(word))]).toEqual([node.id, []]);
    }
  });

  it('answers 304 to its ETag, and the same bytes again', async () => {
    const first = await get('/diagrams/topology/image.svg');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect((await get('/diagrams/topology/image.svg', readers.readToken, { 'if-none-match': etag })).status).toBe(304);
    const again = await get('/diagrams/topology/image.svg?revision=1');
    expect([again.headers.get('etag'), again.body.equals(first.body)]).toEqual([etag, true]);
  });

  it('answers every caller as the diagram read does: a viewer yes, another organization or a sync token no', async () => {
    for (const [who, as, allowed] of readCallers(readers, readers.outsider)) {
      const headers = as === null ? {} : authHeaders(as);
      const diagram = await call(t.baseUrl, 'GET', `${base}/diagrams/topology`, { headers });
      for (const file of ['image.svg', 'image.png']) {
        const image = await fetch(`${t.baseUrl}${base}/diagrams/topology/${file}`, { headers });
        expect([who, file, image.status]).toEqual([who, file, diagram.status]);
        expect([who, file, image.status === 200]).toEqual([who, file, allowed]);
      }
    }
    const other = await fetch(`${t.baseUrl}${base}/diagrams/topology/image.svg`, { headers: authHeaders(readers.outsider.owner) });
    expect(other.status).toBe(404);
  });

  it('draws a group collapsed with ?collapsed=, and refuses a group the diagram does not have', async () => {
    const collapsed = (await get('/diagrams/topology/image.svg?collapsed=core')).body.toString('utf8');
    expect(collapsed).toContain('data-group-id="core"');
    expect(collapsed).not.toContain('data-node-id="api"');
    expect((await get('/diagrams/topology/image.svg')).body.toString('utf8')).toContain('data-node-id="api"');
    const unknown = await error('/diagrams/topology/image.svg?collapsed=core,nope');
    expect(unknown.code).toBe('invalid_diagram_image_query');
    expect(unknown.message).toContain('"nope"');
    expect((await get('/diagrams/topology/image.svg?collapsed=nope')).status).toBe(400);
  });

  it('draws the dark theme on request: the same drawing and size on a dark background with light text, cached apart', async () => {
    const light = await get('/diagrams/topology/image.svg');
    expect((await get('/diagrams/topology/image.svg?theme=light')).body.equals(light.body)).toBe(true);
    const dark = await get('/diagrams/topology/image.svg?theme=dark');
    expect(dark.status).toBe(200);
    const [lightSvg, darkSvg] = [light.body.toString('utf8'), dark.body.toString('utf8')];
    const size = (svg: string) => /^<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg)?.slice(1);
    expect(size(darkSvg)).toEqual(size(lightSvg));
    const background = (svg: string) => /<\/defs><rect [^>]*fill="([^"]+)"/.exec(svg)?.[1];
    expect([background(lightSvg), background(darkSvg)]).toEqual(['#ffffff', '#0d1117']);
    expect(darkSvg).toContain('fill="#e6edf3"');
    // The same words, only other colours.
    const words = (svg: string) => svg.replace(/<[^>]+>/g, ' ').split(/\s+/).filter(Boolean).sort();
    expect(words(darkSvg)).toEqual(words(lightSvg));
    expect(dark.headers.get('etag')).not.toBe(light.headers.get('etag'));
    const png = await get('/diagrams/topology/image.png?theme=dark&scale=1');
    expect(pngFacts(png.body)).toMatchObject({ uniform: false });
  });

  it('draws a sequence diagram: every participant (by its context name) and message in order, as SVG and PNG', async () => {
    const image = await get('/diagrams/checkout-sequence/image.svg');
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    const svg = image.body.toString('utf8');
    expect(svg).not.toMatch(/<script|<foreignObject|\son[a-z]+=/i);
    const text = svg.replace(/<[^>]+>/g, '\n').replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&');
    const messages = ['Pay', 'POST /payments (Idempotency-Key)', 'authorize(card, amount)', 'approved', 'record authorization', '201 Created', 'Confirmation'];
    const positions = messages.map((message) => text.indexOf(message));
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const participant of ['Shopper', 'Merchant web', 'Payments API', 'Ledger', 'Card processor']) expect(text).toContain(participant);
    const png = await get('/diagrams/checkout-sequence/image.png?scale=1');
    expect([png.status, pngFacts(png.body).uniform]).toEqual([200, false]);
    expect((await get('/diagrams/checkout-sequence/image.svg?collapsed=x')).status).toBe(400);
    // Its note and its activation (`->>+` … `-->>-`), as the dashboard's Mermaid drawing shows them.
    expect(text).toContain('A timeout retries with the same key');
    expect(svg.match(/data-activation/g)?.length).toBe(1);
  });

  it('draws the notes of a sequence diagram analysed before they were kept, by parsing its source again', async () => {
    // As stored by analyzer version 4: the graph without its steps.
    await t.dataSource.query(
      `UPDATE artifact_versions SET analysis = jsonb_set(analysis::jsonb #- '{graph,steps}' #- '{overlaid,steps}', '{version}', '4')::json WHERE name = 'checkout-sequence'`,
    );
    const [stored] = (await t.dataSource.query(`SELECT analysis FROM artifact_versions WHERE name = 'checkout-sequence'`)) as Array<{ analysis: { version: number; graph: { steps?: unknown } } }>;
    expect([stored.analysis.version, stored.analysis.graph.steps]).toEqual([4, undefined]);
    // Another theme than the test above: not in the image cache yet.
    const svg = (await get('/diagrams/checkout-sequence/image.svg?theme=dark')).body.toString('utf8');
    expect(svg).toContain('>A timeout retries with the same key<');
    expect(svg).toContain('data-activation');
  });

  it('answers clear errors: a bad theme or scale, an unknown diagram or revision', async () => {
    await expectErrors((path) => call<ErrorBody>(t.baseUrl, 'GET', `${base}${path}`, { headers: bearer(readers.readToken) }), [
      ['/diagrams/topology/image.svg?theme=blue', 400, 'invalid_diagram_image_query'],
      ['/diagrams/topology/image.png?scale=5', 400, 'invalid_diagram_image_query'],
      ['/diagrams/topology/image.png?scale=1.5', 400, 'invalid_diagram_image_query'],
      ['/diagrams/nope/image.svg', 404, 'artifact_not_found'],
      ['/diagrams/topology/image.svg?revision=7', 404, 'revision_not_found'],
    ]);
  });

  it.each(DRAWN)('renders %s to a PNG of the SVG’s size × scale that is not blank', async (name) => {
    const svg = (await get(`/diagrams/${name}/image.svg`)).body.toString('utf8');
    const [, width, height] = /^<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg) ?? [];
    for (const [query, scale] of [['', 2], ['?scale=1', 1]] as const) {
      const png = await get(`/diagrams/${name}/image.png${query}`);
      expect([png.status, png.headers.get('content-type'), png.headers.get('content-security-policy')]).toEqual([200, 'image/png', CSP]);
      // Within the pixel limit the scale asked for is the one rendered.
      expect(png.headers.get('x-image-scale')).toBe(String(scale));
      const facts = pngFacts(png.body);
      expect(facts).toEqual({ width: Number(width) * scale, height: Number(height) * scale, uniform: false });
    }
    const etag = (await get(`/diagrams/${name}/image.png`)).headers.get('etag') ?? '';
    expect((await get(`/diagrams/${name}/image.png`, readers.readToken, { 'if-none-match': etag })).status).toBe(304);
  });
});
