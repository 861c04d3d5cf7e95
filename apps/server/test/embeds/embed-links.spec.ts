import { createHash } from 'node:crypto';
import type { AuditEntry, EmbedLinkResponse, ErrorBody } from '@sc/contracts';
import { bearer, call, createOrganization, useSeededApp, createToken, memberWithSession, sessionHeaders } from '../support';
import { COLD_WORKER_TIMEOUT, createLink, publicGet, syncOrders } from './embeds-support';

/**
 * Embed links (issue 26): admins create, list and revoke read-only links; the public /embed routes answer the image
 * the link names (and nothing else) without signing in, until the link is revoked or expires.
 */
describe('embed links', () => {
  const { t, org: acme } = useSeededApp({ orgId: 'acme' }, { env: COLD_WORKER_TIMEOUT });
  const links = (query = '') => call<EmbedLinkResponse[]>(t.baseUrl, 'GET', `/api/v1/orgs/acme/embed-links${query}`, { headers: sessionHeaders(acme.owner) });
  const errorCode = (answer: { body: Buffer }) => (JSON.parse(answer.body.toString('utf8')) as ErrorBody).error.code;
  const pathOf = (url: string) => new URL(url).pathname;

  beforeAll(async () => {
    await syncOrders(t, acme);
    await syncOrders(t, acme, { second: true });
  }, 240_000);

  it('lifecycle: created once with its token, read without signing in, listed with its last use, revoked → 404 at once, audited', async () => {
    const created = await createLink(t, acme.owner, 'acme', { service: 'orders', diagram: 'topology' });
    expect(created.status).toBe(201);
    const { token, url, svgUrl, pngUrl, embedLink } = created.body;
    expect(token).toMatch(/^sce_[a-z0-9]{8}_[A-Za-z0-9_-]{32}$/);
    expect([url, svgUrl, pngUrl]).toEqual([`${t.baseUrl}/embed/${token}`, `${t.baseUrl}/embed/${token}.svg`, `${t.baseUrl}/embed/${token}.png`]);
    expect(embedLink).toMatchObject({ service: 'orders', diagram: 'topology', revision: null, prefix: token.slice(0, 12), frameAncestors: null, lastUsedAt: null, revokedAt: null });
    expect(JSON.stringify(embedLink)).not.toContain(token);

    const svg = await publicGet(t.baseUrl, pathOf(svgUrl ?? ''));
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.headers.get('cache-control')).toBe('public, no-cache');
    expect(svg.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(svg.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(svg.headers.get('x-content-type-options')).toBe('nosniff');
    expect(svg.headers.get('x-robots-tag')).toBe('noindex');
    expect(svg.body.toString('utf8')).toContain('Orders API');
    // The image the signed-in route draws, byte for byte.
    const signedIn = await fetch(`${t.baseUrl}/api/v1/orgs/acme/services/orders/diagrams/topology/image.svg`, { headers: bearer(acme.adminToken) });
    expect(Buffer.from(await signedIn.arrayBuffer()).equals(svg.body)).toBe(true);
    expect((await publicGet(t.baseUrl, pathOf(svgUrl ?? ''), { 'if-none-match': svg.headers.get('etag') ?? '' })).status).toBe(304);
    const png = await publicGet(t.baseUrl, pathOf(pngUrl ?? ''));
    expect([png.status, png.headers.get('content-type'), png.body.subarray(1, 4).toString('latin1')]).toEqual([200, 'image/png', 'PNG']);
    expect((await publicGet(t.baseUrl, `/embed/${token}/topology.svg`)).body.equals(svg.body)).toBe(true);

    const listed = (await links()).body.find((link) => link.id === created.body.id);
    expect(listed?.lastUsedAt).not.toBeNull();

    const revoked = await call<EmbedLinkResponse>(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/embed-links/${created.body.id}`, { headers: sessionHeaders(acme.owner) });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    for (const path of [`/embed/${token}.svg`, `/embed/${token}.png`, `/embed/${token}/topology.svg`]) {
      const answer = await publicGet(t.baseUrl, path);
      expect([path, answer.status, errorCode(answer)]).toEqual([path, 404, 'embed_link_not_found']);
    }
    // The page says so in HTML any site may frame (a portal's iframe shows the sentence, not a refused frame).
    for (const path of [`/embed/${token}`, `/embed/${token}/topology`]) {
      const page = await publicGet(t.baseUrl, path);
      expect([path, page.status, page.headers.get('content-type'), page.headers.get('content-security-policy')?.endsWith('frame-ancestors *')]).toEqual([path, 404, 'text/html; charset=utf-8', true]);
      expect(page.body.toString('utf8')).toContain('This embed link is not available');
    }
    // Revoking again keeps the first time and records nothing more.
    const again = await call<EmbedLinkResponse>(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/embed-links/${created.body.id}`, { headers: sessionHeaders(acme.owner) });
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);

    const audit = await call<AuditEntry[]>(t.baseUrl, 'GET', `/api/v1/orgs/acme/audit?target=${created.body.id}`, { headers: sessionHeaders(acme.owner) });
    expect(audit.body.map((entry) => entry.action).sort()).toEqual(['embed_link.created', 'embed_link.revoked']);
    expect(JSON.stringify(audit.body)).not.toContain(token.slice(13));
  });

  it('latest follows each sync; a pinned revision keeps its image', async () => {
    const latest = (await createLink(t, acme.owner, 'acme', { service: 'orders', diagram: 'topology' })).body;
    const pinned = (await createLink(t, acme.owner, 'acme', { service: 'orders', diagram: 'topology', revision: 1 })).body;
    expect(pinned.embedLink.revision).toBe(1);
    expect((await publicGet(t.baseUrl, pathOf(latest.svgUrl ?? ''))).body.toString('utf8')).toContain('Billing');
    expect((await publicGet(t.baseUrl, pathOf(pinned.svgUrl ?? ''))).body.toString('utf8')).not.toContain('Billing');
    const missing = await createLink(t, acme.owner, 'acme', { service: 'orders', diagram: 'topology', revision: 9 });
    expect([missing.status, (missing.body as unknown as ErrorBody).error.code]).toEqual([404, 'revision_not_found']);
  });

  it('a service link shows any architecture diagram of the service by name, lists them on its page, and nothing else', async () => {
    const { token, svgUrl } = (await createLink(t, acme.owner, 'acme', { service: 'orders' })).body;
    expect(svgUrl).toBeNull();
    expect((await publicGet(t.baseUrl, `/embed/${token}/topology.svg`)).status).toBe(200);
    const page = await publicGet(t.baseUrl, `/embed/${token}`);
    expect(page.status).toBe(200);
    expect(page.body.toString('utf8')).toContain(`href="${token}/topology"`);
    expect((await publicGet(t.baseUrl, `/embed/${token}/topology`)).body.toString('utf8')).toContain('src="topology.svg"');
    // Its own path has no single image; a flow, a schema or an unknown name is not an architecture diagram of it.
    expect(errorCode(await publicGet(t.baseUrl, `/embed/${token}.svg`))).toBe('embed_link_not_found');
    for (const name of ['checkout', 'orders-db', 'nope']) expect((await publicGet(t.baseUrl, `/embed/${token}/${name}.svg`)).status).toBe(404);

    const single = (await createLink(t, acme.owner, 'acme', { service: 'orders', diagram: 'topology' })).body.token;
    expect(errorCode(await publicGet(t.baseUrl, `/embed/${single}/job-dependencies.svg`))).toBe('embed_link_not_found');
    // Never anything but reading: no other method, and no API route takes the token.
    for (const method of ['POST', 'PUT', 'DELETE']) expect((await fetch(`${t.baseUrl}/embed/${single}.svg`, { method })).status).toBe(404);
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/services', { headers: bearer(single) })).status).toBe(401);
    // One character off: its last one replaced by another (a random token ends in 'x' one time in 64).
    const altered = `${single.slice(0, -1)}${single.endsWith('x') ? 'y' : 'x'}`;
    expect((await publicGet(t.baseUrl, `/embed/${altered}.svg`)).status).toBe(404);
  });

  it('expiry: a link answers until its expiresAt and 404 from then on; a past expiresAt is refused', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const { token, embedLink } = (await createLink(t, acme.owner, 'acme', { service: 'orders', diagram: 'topology', expiresAt })).body;
    expect(embedLink.expiresAt).toBe(expiresAt);
    expect((await publicGet(t.baseUrl, `/embed/${token}.svg`)).status).toBe(200);
    t.clock.advance(3_600_000);
    try {
      expect(errorCode(await publicGet(t.baseUrl, `/embed/${token}.svg`))).toBe('embed_link_not_found');
    } finally {
      t.clock.advance(-3_600_000);
    }
    const past = await createLink(t, acme.owner, 'acme', { service: 'orders', expiresAt: new Date(t.clock.now().getTime() - 1000).toISOString() });
    expect([past.status, (past.body as unknown as ErrorBody).error.code]).toEqual([400, 'embed_link_expiry_in_past']);
  });

  it('records the last use at most once a minute', async () => {
    const { token, id } = (await createLink(t, acme.owner, 'acme', { service: 'orders', diagram: 'topology' })).body;
    const lastUsed = async () => (await links()).body.find((link) => link.id === id)?.lastUsedAt ?? null;
    await publicGet(t.baseUrl, `/embed/${token}.svg`);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    t.clock.advance(30_000);
    await publicGet(t.baseUrl, `/embed/${token}.svg`);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(31_000);
    await publicGet(t.baseUrl, `/embed/${token}.svg`);
    expect(Date.parse((await lastUsed()) ?? '')).toBeGreaterThan(Date.parse(first ?? ''));
  });

  it('the page: zoom and pan for an iframe, its script and style allowed by hash, frame-ancestors from the link', async () => {
    const any = (await createLink(t, acme.owner, 'acme', { service: 'orders', diagram: 'topology' })).body.token;
    const portal = (await createLink(t, acme.owner, 'acme', { service: 'orders', diagram: 'topology', frameAncestors: ['https://portal.example.com', 'https://*.wiki.example'] })).body.token;
    const none = (await createLink(t, acme.owner, 'acme', { service: 'orders', diagram: 'topology', frameAncestors: [] })).body.token;
    const page = await publicGet(t.baseUrl, `/embed/${any}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('x-frame-options')).toBeNull();
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
    const html = page.body.toString('utf8');
    expect(html).toContain(`src="${any}.svg"`);
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    expect(page.headers.get('content-security-policy')).toBe(
      `default-src 'none'; img-src 'self'; style-src ${hash(style)}; script-src ${hash(script)}; base-uri 'none'; form-action 'none'; frame-ancestors *`,
    );
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect((await publicGet(t.baseUrl, `/embed/${portal}`)).headers.get('content-security-policy')).toMatch(/; frame-ancestors https:\/\/portal\.example\.com https:\/\/\*\.wiki\.example$/);
    const closed = await publicGet(t.baseUrl, `/embed/${none}`);
    expect([closed.headers.get('content-security-policy')?.endsWith("frame-ancestors 'none'"), closed.headers.get('x-frame-options')]).toEqual([true, 'DENY']);

    const bad = await createLink(t, acme.owner, 'acme', { service: 'orders', frameAncestors: ["'self'", 'https://ok.example/path'] });
    expect([bad.status, (bad.body as unknown as ErrorBody).error.code]).toEqual([400, 'validation_failed']);
    expect(JSON.stringify(bad.body)).toContain('frameAncestors');
  });

  it('admins only: editors, viewers and read tokens are refused; the filter narrows the list', async () => {
    const editor = await memberWithSession(t, acme, 'editor');
    const viewer = await memberWithSession(t, acme, 'viewer');
    const admin = await memberWithSession(t, acme, 'admin');
    const { token: readToken } = await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] });
    const mine = await createLink(t, admin.session, 'acme', { service: 'orders', diagram: 'topology' });
    expect(mine.status).toBe(201);
    expect(mine.body.embedLink.createdByUserId).toBe(admin.userId);
    for (const headers of [sessionHeaders(editor.session), sessionHeaders(viewer.session), bearer(readToken)]) {
      for (const [method, path, body] of [
        ['GET', '', undefined],
        ['POST', '', { service: 'orders' }],
        ['DELETE', `/${mine.body.id}`, undefined],
      ] as const) {
        const answer = await call<ErrorBody>(t.baseUrl, method, `/api/v1/orgs/acme/embed-links${path}`, { headers, body });
        expect([method, answer.status]).toEqual([method, 403]);
      }
    }
    expect((await publicGet(t.baseUrl, `/embed/${mine.body.token}.svg`)).status).toBe(200);
    const filtered = (await links('?service=orders&diagram=job-dependencies')).body;
    expect(filtered.every((link) => link.diagram === null)).toBe(true);
    expect((await links('?service=other')).body).toEqual([]);
  });

  it("isolation: another organization can neither see, revoke nor create links to this organization's services", async () => {
    const globex = await createOrganization(t, acme, { orgId: 'globex' });
    const { id, token } = (await createLink(t, acme.owner, 'acme', { service: 'orders', diagram: 'topology' })).body;
    expect((await call<EmbedLinkResponse[]>(t.baseUrl, 'GET', '/api/v1/orgs/globex/embed-links', { headers: sessionHeaders(globex.owner) })).body).toEqual([]);
    const revoke = await call<ErrorBody>(t.baseUrl, 'DELETE', `/api/v1/orgs/globex/embed-links/${id}`, { headers: sessionHeaders(globex.owner) });
    expect([revoke.status, revoke.body.error.code]).toEqual([404, 'embed_link_not_found']);
    const create = await createLink(t, globex.owner, 'globex', { service: 'orders', diagram: 'topology' });
    expect([create.status, (create.body as unknown as ErrorBody).error.code]).toEqual([404, 'service_not_found']);
    expect((await publicGet(t.baseUrl, `/embed/${token}.svg`)).status).toBe(200);
  });
});

describe('embed links: the public routes are rate-limited per client address', () => {
  const { t, org } = useSeededApp({ orgId: 'acme' }, { env: { ...COLD_WORKER_TIMEOUT, SERVICE_EMBED_RATE_LIMIT: '3', SERVICE_EMBED_RATE_WINDOW: '10m' } });
  beforeAll(async () => {
    await syncOrders(t, org);
  }, 240_000);

  it('answers 429 rate_limited over SERVICE_EMBED_RATE_LIMIT, and the organization routes and sign-in are not counted with it', async () => {
    const { token } = (await createLink(t, org.owner, 'acme', { service: 'orders', diagram: 'topology' })).body;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await publicGet(t.baseUrl, `/embed/${token}.svg`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await publicGet(t.baseUrl, `/embed/${token}.svg`);
    expect((JSON.parse(limited.body.toString('utf8')) as ErrorBody).error.code).toBe('rate_limited');
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/embed-links', { headers: sessionHeaders(org.owner) })).status).toBe(200);
  });
});
