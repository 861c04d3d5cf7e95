import { PNG_MAX_PIXELS } from '@sc/diagram';
import { generatedTopology } from '@sc/diagram/testing';
import { bearer, useTestApp, createToken, setupOrganization } from '../support';
import { COLD_WORKER_TIMEOUT, bundle, postSync, syncFile } from './bundles';

/**
 * A PNG too large for the scale asked for is rendered smaller, not refused: the benchmark's 1,000-node diagram
 * (bench:render's source) is hundreds of megapixels at scale 1, over the 40-megapixel limit. The drawing is laid out by ELK
 * in the layout thread (seconds of CPU), so this file has its own app.
 */
describe('diagram images: a PNG over the pixel limit', () => {
  const t = useTestApp({ env: { ...COLD_WORKER_TIMEOUT, SERVICE_SQL_PARSE_TIMEOUT: '120s', SERVICE_LAYOUT_TIMEOUT: '300s' } });
  let readToken: string;
  const base = '/api/v1/orgs/acme/services/bench/diagrams/large';
  const get = async (path: string) => {
    const response = await fetch(`${t.baseUrl}${base}${path}`, { headers: bearer(readToken) });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  };

  beforeAll(async () => {
    const acme = await setupOrganization(t, { orgId: 'acme' });
    const syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    readToken = (await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
    // bench:render's 1,000-node diagram (BENCH_DIAGRAMS.large in benchmarks/dashboard/harness.ts) with its context and database.
    const large = generatedTopology(1000, 1300, 20, 200);
    const synced = await postSync(
      t.baseUrl,
      syncToken,
      bundle(
        [
          { kind: 'architecture-diagram', name: 'large', file: syncFile('.service/diagrams/large.mmd', large.mermaid), context: syncFile('.service/diagrams/large.context.json', large.context) },
          { kind: 'database-schema', name: 'bench-db', engine: 'postgres', file: syncFile('.service/schemas/bench.sql', 'CREATE TABLE orders (\n  id uuid PRIMARY KEY,\n  total numeric(10,2) NOT NULL\n);\n') },
        ],
        'bench',
      ),
    );
    if (synced.status !== 201) throw new Error(`The sync failed: ${JSON.stringify(synced.body)}`);
  }, 300_000);

  it('renders the 1,000-node PNG at the largest scale within 40 megapixels and says so in X-Image-Scale; ?scale=4 is reduced too', async () => {
    const svg = (await get('/image.svg')).body.toString('utf8');
    const [width, height] = (/^<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg) ?? []).slice(1).map(Number);
    expect([width, height, width * 2 * height * 2 > PNG_MAX_PIXELS]).toEqual([width, height, true]);
    const expected = Math.floor(Math.sqrt(PNG_MAX_PIXELS / (width * height)) * 100) / 100;
    for (const query of ['', '?scale=4']) {
      const png = await get(`/image.png${query}`);
      expect([query, png.status, png.headers.get('content-type'), png.status === 200 ? '' : png.body.toString('utf8')]).toEqual([query, 200, 'image/png', '']);
      const scale = Number(png.headers.get('x-image-scale'));
      // The exact root in hundredths, or one hundredth less where resvg's rounding adds a row or a column.
      expect([expected, expected - 0.01].map((value) => value.toFixed(2))).toContain(scale.toFixed(2));
      const [pngWidth, pngHeight] = [png.body.readUInt32BE(16), png.body.readUInt32BE(20)];
      expect([pngWidth, pngHeight]).toEqual([Math.round(width * scale), Math.round(height * scale)]);
      expect(pngWidth * pngHeight).toBeLessThanOrEqual(PNG_MAX_PIXELS);
    }
  }, 300_000);
});
