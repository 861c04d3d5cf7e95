import type { ServiceDetail, ServiceRevisionItem, SyncResult } from '@sc/contracts';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts, withContent, TOPOLOGY } from './artifacts/bundles';
import { bearer, call, useTestApp, createToken, rawGet, setupOrganization } from './support';

/** A built admin app in miniature: index.html, hashed chunks as Angular names them, a favicon and a PNG. */
function buildAdminDir(): { dir: string; script: string; index: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sc-admin-dist-'));
  const script = `export const routes = [${Array.from({ length: 400 }, (_, i) => `{ path: 'page-${i}', title: 'Page ${i}' }`).join(', ')}];\n`;
  const index = `<!doctype html><html><head><title>System Context</title></head><body><sc-root></sc-root>${'<!-- padding -->'.repeat(80)}<script src="main-S7FKW6FS.js" type="module"></script></body></html>`;
  writeFileSync(join(dir, 'index.html'), index);
  writeFileSync(join(dir, 'main-S7FKW6FS.js'), script);
  writeFileSync(join(dir, 'styles-EYVH7QII.css'), `body { margin: 0; }\n${'.x { color: red; }\n'.repeat(200)}`);
  writeFileSync(join(dir, 'favicon.ico'), Buffer.alloc(2048, 1));
  mkdirSync(join(dir, 'media'));
  // PNG is already compressed: sending it through brotli again only costs time.
  writeFileSync(join(dir, 'media', 'logo-AB12CD34.png'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4096, 7)]));
  return { dir, script, index };
}

describe('what the dashboard receives: compression, caching, revision sync times', () => {
  let admin: ReturnType<typeof buildAdminDir>;
  let readToken: string;

  beforeAll(() => {
    admin = buildAdminDir();
  });
  const t = useTestApp(() => ({ env: { ...COLD_WORKER_TIMEOUT, SERVICE_ADMIN_DIR: admin.dir } }));
  afterAll(() => rmSync(admin.dir, { recursive: true, force: true }));
  beforeAll(async () => {
    const acme = await setupOrganization(t, { orgId: 'acme' });
    const syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    readToken = (await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
    expect((await postSync<SyncResult>(t.baseUrl, syncToken, bundle(sampleArtifacts()))).status).toBe(201);
    // A second revision a day later: its sync time must not leak into revision 1.
    t.clock.advance(24 * 3600_000);
    const edited = withContent(sampleArtifacts(), 'topology', TOPOLOGY.replace('api --> queue>Events]', 'api --> cache[(Cache)]'));
    expect((await postSync<SyncResult>(t.baseUrl, syncToken, bundle(edited))).status).toBe(201);
  });

  it('sends a hashed admin script brotli-compressed, cached for a year as immutable', async () => {
    const response = await rawGet(t.baseUrl, '/main-S7FKW6FS.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.body).toString()).toBe(admin.script);
    expect(response.body.length).toBeLessThan(admin.script.length / 5);
  });

  it('falls back to gzip, and to no encoding for a client that asks for none', async () => {
    const gzip = await rawGet(t.baseUrl, '/styles-EYVH7QII.css', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toContain('.x { color: red; }');
    expect(gzip.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const plain = await rawGet(t.baseUrl, '/main-S7FKW6FS.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(admin.script);
  });

  it('never caches index.html, whether asked for by name or for a client-side route', async () => {
    for (const path of ['/index.html', '/orgs/acme/services/orders/diagrams/topology']) {
      const response = await rawGet(t.baseUrl, path, { 'accept-encoding': 'br' });
      expect({ path, status: response.status, cacheControl: response.headers['cache-control'], encoding: response.headers['content-encoding'] }).toEqual({
        path,
        status: 200,
        cacheControl: 'no-cache',
        encoding: 'br',
      });
      expect(brotliDecompressSync(response.body).toString()).toBe(admin.index);
    }
  });

  it('keeps an unhashed file for an hour and sends already-compressed images as they are', async () => {
    const favicon = await rawGet(t.baseUrl, '/favicon.ico', { 'accept-encoding': 'br' });
    expect(favicon.headers['cache-control']).toBe('public, max-age=3600');
    const png = await rawGet(t.baseUrl, '/media/logo-AB12CD34.png', { 'accept-encoding': 'gzip, br' });
    expect(png.status).toBe(200);
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('compresses API JSON; artifact reads are revalidated by their ETag every time, other answers never stored', async () => {
    const path = '/api/v1/orgs/acme/services/orders/diagrams/topology';
    const plain = await call<unknown>(t.baseUrl, 'GET', path, { headers: bearer(readToken) });
    const response = await rawGet(t.baseUrl, path, { ...bearer(readToken), 'accept-encoding': 'gzip' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['vary']).toMatch(/Accept-Encoding/i);
    // An immutable revision's artifact may be kept by the browser, but only to revalidate it (If-None-Match → 304).
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers['etag']).toMatch(/^"[\w-]+"$/);
    expect(JSON.parse(gunzipSync(response.body).toString())).toEqual(plain.body);
    const list = await rawGet(t.baseUrl, '/api/v1/orgs/acme/services/orders/revisions', { ...bearer(readToken), 'accept-encoding': 'gzip' });
    expect(list.headers['cache-control']).toBe('no-store');

    const brotli = await rawGet(t.baseUrl, path, { ...bearer(readToken), 'accept-encoding': 'br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(brotli.body).toString())).toEqual(plain.body);
  });

  it('gives each revision of the service page its own sync time', async () => {
    const revisions = (await call<ServiceRevisionItem[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders/revisions', { headers: bearer(readToken) })).body;
    const syncedAt = Object.fromEntries(revisions.map((revision) => [revision.number, revision.createdAt]));
    expect(Date.parse(syncedAt[2]) - Date.parse(syncedAt[1])).toBeGreaterThanOrEqual(24 * 3600_000);

    const first = (await call<ServiceDetail>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders?revision=1', { headers: bearer(readToken) })).body;
    expect(first).toMatchObject({ revision: 1, currentRevision: 2, revisionSyncedAt: syncedAt[1] });
    // The service's own last sync stays the latest one.
    expect(first.lastSyncedAt).not.toBe(syncedAt[1]);
    const current = (await call<ServiceDetail>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders', { headers: bearer(readToken) })).body;
    expect(current).toMatchObject({ revision: 2, revisionSyncedAt: syncedAt[2] });
  });
});
