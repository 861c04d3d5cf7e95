import type { DiagramView, ErrorBody, ServiceRevisionItem, TextArtifactView } from '@sc/contracts';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { bearer, createOrganization, createTestApp, createToken, rawGet, seedSyncAndRead, setupOrganization, useSeeded, useTestApp } from '../support';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts, withContent, TOPOLOGY } from './bundles';

/**
 * Artifact reads answer with a strong ETag and 304 on If-None-Match, always behind the organization check; the
 * revision list comes in pages.
 */
describe('artifact reads at scale: ETag, 304, the answer cache and revision pages', () => {
  const t = useTestApp({ env: COLD_WORKER_TIMEOUT });
  const seeded = useSeeded(async () => {
    const { acme, syncToken, readToken } = await seedSyncAndRead(t);
    const other = await createOrganization(t, acme, { orgId: 'other' });
    const otherToken = (await createToken(t, other.owner, 'other', { name: 'reader', scopes: ['read'] })).token;
    expect((await postSync(t.baseUrl, syncToken, bundle(sampleArtifacts()))).status).toBe(201);
    return { other, syncToken, readToken, otherToken };
  });

  const get = (path: string, headers: Record<string, string>) => fetch(`${t.baseUrl}/api/v1/orgs/acme/services/orders${path}`, { headers });

  it('answers a diagram with a strong ETag of its bytes, and 304 without a body when it matches', async () => {
    const first = await get('/diagrams/topology', bearer(seeded.readToken));
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const body = (await first.json()) as DiagramView;
    expect(body).toMatchObject({ name: 'topology', revision: 1, mermaid: TOPOLOGY });

    const again = await get('/diagrams/topology', bearer(seeded.readToken));
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.json()).toEqual(body);

    const revalidated = await get('/diagrams/topology', { ...bearer(seeded.readToken), 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    expect((await get('/diagrams/topology', { ...bearer(seeded.readToken), 'if-none-match': '"something-else"' })).status).toBe(200);
  });

  it('sends a cached answer as the brotli or gzip bytes kept beside it, identical once decoded to the answer with the cache off', async () => {
    const uncached = await createTestApp({ env: { ...COLD_WORKER_TIMEOUT, SERVICE_READ_CACHE_SIZE: '0' } });
    try {
      const owner = (await setupOrganization(uncached, { orgId: 'acme' })).owner;
      const sync = (await createToken(uncached, owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
      const reader = (await createToken(uncached, owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
      expect((await postSync(uncached.baseUrl, sync, bundle(sampleArtifacts()))).status).toBe(201);
      const path = '/api/v1/orgs/acme/services/orders/diagrams/topology?revision=1';
      const plain = await rawGet(uncached.baseUrl, path, { ...bearer(reader), 'accept-encoding': 'identity' });
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const expected = plain.body.toString();
      expect(JSON.parse(expected)).toMatchObject({ name: 'topology', revision: 1, mermaid: TOPOLOGY });

      const decoders = { br: brotliDecompressSync, gzip: gunzipSync };
      for (const [encoding, decode] of Object.entries(decoders)) {
        // The uncached server compresses in the middleware; the cached one fills its cache, then answers from it.
        const answers = [
          { server: 'uncached', response: await rawGet(uncached.baseUrl, path, { ...bearer(reader), 'accept-encoding': encoding }) },
          { server: 'cached, first', response: await rawGet(t.baseUrl, path, { ...bearer(seeded.readToken), 'accept-encoding': encoding }) },
          { server: 'cached, again', response: await rawGet(t.baseUrl, path, { ...bearer(seeded.readToken), 'accept-encoding': `${encoding}, identity` }) },
        ];
        for (const { server, response } of answers) {
          expect({ server, encoding, status: response.status, contentEncoding: response.headers['content-encoding'], etag: response.headers['etag'] }).toEqual({
            server,
            encoding,
            status: 200,
            contentEncoding: encoding,
            etag: plain.headers['etag'],
          });
          expect(String(response.headers['vary'])).toMatch(/Accept-Encoding/i);
          expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(decode(response.body).toString()).toBe(expected);
        }
      }
      const both = await rawGet(t.baseUrl, path, { ...bearer(seeded.readToken), 'accept-encoding': 'gzip, deflate, br' });
      expect(both.headers['content-encoding']).toBe('br');
      const revalidated = await rawGet(t.baseUrl, path, { ...bearer(seeded.readToken), 'accept-encoding': 'br', 'if-none-match': String(plain.headers['etag']) });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body.length).toBe(0);
      // Answers under the 1 KB compression threshold go out as they are, cached or not.
      const doc = await rawGet(t.baseUrl, '/api/v1/orgs/acme/services/orders/docs/runbook?revision=1', { ...bearer(seeded.readToken), 'accept-encoding': 'br' });
      expect(doc.status).toBe(200);
      expect(doc.headers['content-encoding']).toBeUndefined();
      expect((JSON.parse(doc.body.toString()) as TextArtifactView).content).toBe('# Runbook\n');
      // A caller of another organization gets no cached bytes, in any encoding.
      const foreign = await rawGet(t.baseUrl, path, { ...bearer(seeded.otherToken), 'accept-encoding': 'br' });
      expect(foreign.status).toBe(404);
      expect(foreign.headers['content-encoding']).toBeUndefined();
    } finally {
      await uncached.close();
    }
  });

  it('never answers 304 (or the cached answer) to a caller who may not read it', async () => {
    const etag = (await get('/diagrams/topology', bearer(seeded.readToken))).headers.get('etag') ?? '';
    const foreign = await get('/diagrams/topology', { ...bearer(seeded.otherToken), 'if-none-match': etag });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as ErrorBody).error.code).toBe('organization_not_found');
    const anonymous = await get('/diagrams/topology', { 'if-none-match': etag });
    expect(anonymous.status).toBe(401);
    // The other organization reading its own (missing) service learns nothing either.
    const own = await fetch(`${t.baseUrl}/api/v1/orgs/other/services/orders/diagrams/topology`, { headers: { ...bearer(seeded.otherToken), 'if-none-match': etag } });
    expect(own.status).toBe(404);
  });

  it('gives every revision its own ETag and keeps an earlier revision revalidating', async () => {
    const before = await get('/diagrams/topology', bearer(seeded.readToken));
    const oldEtag = before.headers.get('etag') ?? '';
    const docBefore = await get('/docs/runbook', bearer(seeded.readToken));
    const oldDocEtag = docBefore.headers.get('etag') ?? '';
    expect(((await docBefore.json()) as TextArtifactView).content).toBe('# Runbook\n');

    const changed = `${TOPOLOGY}  api --> cache[(Cache)]\n`;
    expect((await postSync(t.baseUrl, seeded.syncToken, bundle(withContent(sampleArtifacts(), 'topology', changed)))).status).toBe(201);

    const current = await get('/diagrams/topology', { ...bearer(seeded.readToken), 'if-none-match': oldEtag });
    expect(current.status).toBe(200);
    expect(current.headers.get('etag')).not.toBe(oldEtag);
    expect(((await current.json()) as DiagramView).mermaid).toBe(changed);
    // The doc did not change, but the answer names revision 2: a new ETag too.
    const docNow = await get('/docs/runbook', { ...bearer(seeded.readToken), 'if-none-match': oldDocEtag });
    expect(docNow.status).toBe(200);
    expect(((await docNow.json()) as TextArtifactView).revision).toBe(2);

    expect((await get('/diagrams/topology?revision=1', { ...bearer(seeded.readToken), 'if-none-match': oldEtag })).status).toBe(304);
    expect((await get('/docs/runbook?revision=1', { ...bearer(seeded.readToken), 'if-none-match': oldDocEtag })).status).toBe(304);
  });

  it('pages the revision list newest first with a Link to the next page (limit up to 100)', async () => {
    for (const extra of ['search', 'audit']) {
      expect((await postSync(t.baseUrl, seeded.syncToken, bundle(withContent(sampleArtifacts(), 'topology', `${TOPOLOGY}  api --> ${extra}[(X)]\n`)))).status).toBe(201);
    }
    const numbers = async (response: Response) => ((await response.json()) as ServiceRevisionItem[]).map((revision) => revision.number);
    const all = await get('/revisions', bearer(seeded.readToken));
    expect(await numbers(all)).toEqual([4, 3, 2, 1]);
    expect(all.headers.get('link')).toBeNull();

    const first = await get('/revisions?limit=2', bearer(seeded.readToken));
    expect(await numbers(first)).toEqual([4, 3]);
    const link = first.headers.get('link') ?? '';
    // The cursor is opaque: base64url of the last revision number shown, ["3"].
    expect(link).toBe('</api/v1/orgs/acme/services/orders/revisions?limit=2&cursor=WyIzIl0>; rel="next"');
    const second = await fetch(`${t.baseUrl}${/^<([^>]+)>/.exec(link)?.[1]}`, { headers: bearer(seeded.readToken) });
    expect(await numbers(second)).toEqual([2, 1]);
    expect(second.headers.get('link')).toBeNull();

    for (const bad of ['limit=101', 'limit=0', 'before=abc', 'limit=x']) {
      const refused = await get(`/revisions?${bad}`, bearer(seeded.readToken));
      expect({ bad, status: refused.status, code: ((await refused.json()) as ErrorBody).error.code }).toEqual({ bad, status: 400, code: 'validation_failed' });
    }
    expect((await get('/revisions?limit=2', bearer(seeded.otherToken))).status).toBe(404);
  });
});
