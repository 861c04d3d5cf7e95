import type { DiagramView, ErrorBody, TextArtifactView } from '@sc/contracts';
import { bearer, createOrganization, createTestApp, createToken, setupOrganization, type SeededOrganization, type TestApp } from '../support';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts, withContent, TOPOLOGY } from './bundles';

/** Artifact reads answer with a strong ETag and 304 on If-None-Match, always behind the organization check. */
describe('artifact reads: ETag, 304 and the answer cache', () => {
  let t: TestApp;
  let acme: SeededOrganization;
  let other: SeededOrganization;
  let readToken: string;
  let otherToken: string;
  let syncToken: string;

  const get = (path: string, headers: Record<string, string>) => fetch(`${t.baseUrl}/api/v1/orgs/acme/services/orders${path}`, { headers });

  beforeAll(async () => {
    t = await createTestApp({ env: COLD_WORKER_TIMEOUT });
    acme = await setupOrganization(t, { orgId: 'acme' });
    other = await createOrganization(t, acme, { orgId: 'other' });
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    readToken = (await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
    otherToken = (await createToken(t, other.owner, 'other', { name: 'reader', scopes: ['read'] })).token;
    expect((await postSync(t.baseUrl, syncToken, bundle(sampleArtifacts()))).status).toBe(201);
  });
  afterAll(() => t?.close());

  it('answers a diagram with a strong ETag of its bytes, and 304 without a body when it matches', async () => {
    const first = await get('/diagrams/topology', bearer(readToken));
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const body = (await first.json()) as DiagramView;
    expect(body).toMatchObject({ name: 'topology', revision: 1, mermaid: TOPOLOGY });

    const again = await get('/diagrams/topology', bearer(readToken));
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.json()).toEqual(body);

    const revalidated = await get('/diagrams/topology', { ...bearer(readToken), 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    expect((await get('/diagrams/topology', { ...bearer(readToken), 'if-none-match': '"something-else"' })).status).toBe(200);
  });

  it('never answers 304 (or the cached answer) to a caller who may not read it', async () => {
    const etag = (await get('/diagrams/topology', bearer(readToken))).headers.get('etag') ?? '';
    const foreign = await get('/diagrams/topology', { ...bearer(otherToken), 'if-none-match': etag });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as ErrorBody).error.code).toBe('organization_not_found');
    const anonymous = await get('/diagrams/topology', { 'if-none-match': etag });
    expect(anonymous.status).toBe(401);
    // The other organization reading its own (missing) service learns nothing either.
    const own = await fetch(`${t.baseUrl}/api/v1/orgs/other/services/orders/diagrams/topology`, { headers: { ...bearer(otherToken), 'if-none-match': etag } });
    expect(own.status).toBe(404);
  });

  it('gives every revision its own ETag and keeps an earlier revision revalidating', async () => {
    const before = await get('/diagrams/topology', bearer(readToken));
    const oldEtag = before.headers.get('etag') ?? '';
    const docBefore = await get('/docs/runbook', bearer(readToken));
    const oldDocEtag = docBefore.headers.get('etag') ?? '';
    expect(((await docBefore.json()) as TextArtifactView).content).toBe('# Runbook\n');

    const changed = `${TOPOLOGY}  api --> cache[(Cache)]\n`;
    expect((await postSync(t.baseUrl, syncToken, bundle(withContent(sampleArtifacts(), 'topology', changed)))).status).toBe(201);

    const current = await get('/diagrams/topology', { ...bearer(readToken), 'if-none-match': oldEtag });
    expect(current.status).toBe(200);
    expect(current.headers.get('etag')).not.toBe(oldEtag);
    expect(((await current.json()) as DiagramView).mermaid).toBe(changed);
    // The doc did not change, but the answer names revision 2: a new ETag too.
    const docNow = await get('/docs/runbook', { ...bearer(readToken), 'if-none-match': oldDocEtag });
    expect(docNow.status).toBe(200);
    expect(((await docNow.json()) as TextArtifactView).revision).toBe(2);

    expect((await get('/diagrams/topology?revision=1', { ...bearer(readToken), 'if-none-match': oldEtag })).status).toBe(304);
    expect((await get('/docs/runbook?revision=1', { ...bearer(readToken), 'if-none-match': oldDocEtag })).status).toBe(304);
  });
});
