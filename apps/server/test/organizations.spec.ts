import type { ErrorBody } from '@sc/contracts';
import { call, useSeededApp, expectError, memberWithSession, mintSignInLink, redeemSignInLink, sessionFrom, sessionHeaders } from './support';

describe('organizations', () => {
  const { t, org } = useSeededApp({ orgId: 'acme', orgName: 'Acme Corp' });

  it('GET /orgs/:orgId answers the organization to its members', async () => {
    const viewer = await memberWithSession(t, org, 'viewer');
    const response = await call<{ id: string; name: string; createdAt: string }>(t.baseUrl, 'GET', '/api/v1/orgs/acme', { headers: sessionHeaders(viewer.session) });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: 'acme', name: 'Acme Corp' });
  });

  it('an owner creates another organization, becomes its owner and is signed in to it (and only it)', async () => {
    const wayBack = await mintSignInLink(t, org.owner, 'acme', org.ownerUserId);
    const created = await call<{ id: string }>(t.baseUrl, 'POST', '/api/v1/orgs', { headers: sessionHeaders(org.owner), body: { id: 'acme-labs', name: 'Acme Labs' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'acme-labs', name: 'Acme Labs' });

    const labs = sessionFrom(created.setCookie);
    const there = await call<{ organization: { id: string }; role: string }>(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(labs) });
    expect(there.body).toMatchObject({ organization: { id: 'acme-labs' }, role: 'owner' });
    expect(there.body).not.toHaveProperty('organizations');
    // The session acts in exactly one organization: the old one is no longer reachable with it.
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: sessionHeaders(labs) })).status).toBe(404);
    // The new session replaced the old one.
    expect((await call(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(org.owner) })).status).toBe(401);
    // Back in acme by acme's own means (here a link the owner minted there before leaving).
    Object.assign(org.owner, await redeemSignInLink(t, wayBack));
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: sessionHeaders(org.owner) })).status).toBe(200);
  });

  it('answers the removed switch-organization with 410 organization_switch_removed, signed in or not', async () => {
    for (const headers of [sessionHeaders(org.owner), {}]) {
      const response = await call<ErrorBody & { error: { message: string } }>(t.baseUrl, 'POST', '/api/v1/auth/switch-organization', { headers, body: { organizationId: 'acme-labs' } });
      expectError(response, 410, 'organization_switch_removed');
      expect(response.body.error.message).toContain('/orgs/<organization id>/sign-in');
      expect(response.setCookie).toEqual([]);
    }
  });

  it('refuses non-owners, taken ids and invalid ids', async () => {
    const admin = await memberWithSession(t, org, 'admin');
    const byAdmin = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs', { headers: sessionHeaders(admin.session), body: { id: 'admins-org', name: 'x' } });
    expectError(byAdmin, 403, 'owner_required');
    const taken = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs', { headers: sessionHeaders(org.owner), body: { id: 'acme', name: 'again' } });
    expectError(taken, 409, 'organization_exists');
    for (const id of ['A', 'UPPER', '-dash-first', 'has space', 'x'.repeat(64)]) {
      const invalid = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs', { headers: sessionHeaders(org.owner), body: { id, name: 'n' } });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.details[0].path).toBe('id');
    }
    const byToken = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs', { headers: { authorization: `Bearer ${org.adminToken}` }, body: { id: 'by-token', name: 'x' } });
    expect(byToken.status).toBe(403);
  });
});

describe('sign-in links', () => {
  const { t, org } = useSeededApp({ orgId: 'acme' });

  async function mint(userId: string) {
    const response = await call<{ url: string; expiresAt: string }>(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${userId}/sign-in-link`, { headers: sessionHeaders(org.owner) });
    expect(response.status).toBe(201);
    return response.body;
  }

  async function addMember(email: string) {
    const response = await call<{ userId: string }>(t.baseUrl, 'POST', '/api/v1/orgs/acme/members', { headers: sessionHeaders(org.owner), body: { email, role: 'editor' } });
    return response.body.userId;
  }

  const tokenOf = (url: string) => new URL(url).hash.slice(1);
  const redeem = (token: string, headers: Record<string, string> = {}) =>
    call<ErrorBody & { redirect: string }>(t.baseUrl, 'POST', '/api/v1/auth/sign-in-link/redeem', { headers, body: { token } });

  it('is a single-use link to the admin page with the token in the fragment, valid 15 minutes, redeemed by a JSON POST', async () => {
    const userId = await addMember('link@acme.example');
    const link = await mint(userId);
    const url = new URL(link.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${t.config.publicUrl}/sign-in-link`);
    expect(url.search).toBe('');
    expect(tokenOf(link.url).length).toBeGreaterThanOrEqual(32);
    expect(new Date(link.expiresAt).getTime() - t.clock.now().getTime()).toBeGreaterThan(14 * 60 * 1000);
    expect(new Date(link.expiresAt).getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(15 * 60 * 1000);

    const redeemed = await redeem(tokenOf(link.url));
    expect(redeemed.status).toBe(200);
    expect(redeemed.body).toEqual({ redirect: '/orgs/acme' });
    const session = sessionFrom(redeemed.setCookie);
    const me = await call<{ user: { email: string }; role: string }>(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(session) });
    expect(me.body).toMatchObject({ user: { email: 'link@acme.example' }, role: 'editor' });

    const again = await redeem(tokenOf(link.url));
    expectError(again, 400, 'sign_in_link_invalid');
  });

  it('previews who and where a link signs in without using it up', async () => {
    const link = await mint(await addMember('peek@acme.example'));
    for (let attempt = 0; attempt < 2; attempt++) {
      const preview = await call<{ organization: { id: string; name: string }; email: string; expiresAt: string }>(t.baseUrl, 'POST', '/api/v1/auth/sign-in-link/preview', { body: { token: tokenOf(link.url) } });
      expect(preview.status).toBe(200);
      expect(preview.body).toEqual({ organization: { id: 'acme', name: expect.any(String) }, email: 'peek@acme.example', expiresAt: link.expiresAt });
      expect(preview.setCookie.filter((cookie) => cookie.startsWith('sc_session='))).toEqual([]);
    }
    expect((await redeem(tokenOf(link.url))).status).toBe(200);
    const used = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/auth/sign-in-link/preview', { body: { token: tokenOf(link.url) } });
    expectError(used, 400, 'sign_in_link_invalid');
    const form = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/auth/sign-in-link/preview', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=x' });
    expect(form.status).toBe(415);
  });

  it('is not redeemed by a GET (link previews): the old GET route is gone and the link stays usable', async () => {
    const link = await mint(await addMember('preview@acme.example'));
    const fetched = await call(t.baseUrl, 'GET', `/api/v1/auth/sign-in-link/${tokenOf(link.url)}`);
    expect(fetched.status).toBe(404);
    expect(fetched.setCookie.filter((cookie) => cookie.startsWith('sc_session='))).toEqual([]);
    const page = await call(t.baseUrl, 'GET', new URL(link.url).pathname);
    expect(page.setCookie.filter((cookie) => cookie.startsWith('sc_session='))).toEqual([]);
    expect((await redeem(tokenOf(link.url))).status).toBe(200);
  });

  it('refuses a form-encoded or text POST (cross-site forms) without consuming the link', async () => {
    const link = await mint(await addMember('form@acme.example'));
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', `token=${tokenOf(link.url)}`],
      ['text/plain', JSON.stringify({ token: tokenOf(link.url) })],
    ]) {
      const response = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/auth/sign-in-link/redeem', { headers: { 'content-type': type }, body });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(response.setCookie.filter((cookie) => cookie.startsWith('sc_session='))).toEqual([]);
    }
    const form = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/auth/sign-in-link/redeem', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${tokenOf(link.url)}`,
    });
    expectError(form, 415, 'unsupported_content_type');
    expect((await redeem(tokenOf(link.url))).status).toBe(200);
  });

  it('works while the browser still holds another session cookie (with or without the CSRF header) and replaces that session', async () => {
    const link = await mint(await addMember('switch@acme.example'));
    const other = await memberWithSession(t, org, 'viewer');
    const withoutCsrf = await redeem(tokenOf(link.url), { cookie: other.session.cookieHeader });
    expect(withoutCsrf.status).toBe(200);
    const replaced = sessionFrom(withoutCsrf.setCookie);
    const me = await call<{ user: { email: string } }>(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(replaced) });
    expect(me.body.user.email).toBe('switch@acme.example');
    expect((await call(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(other.session) })).status).toBe(401);

    const second = await mint(await addMember('switch2@acme.example'));
    const withCsrf = await redeem(tokenOf(second.url), sessionHeaders(replaced));
    expect(withCsrf.status).toBe(200);
    expect(withCsrf.body).toEqual({ redirect: '/orgs/acme' });
  });

  it('expires after 15 minutes', async () => {
    const link = await mint(await addMember('late@acme.example'));
    t.clock.advance(15 * 60 * 1000 + 1000);
    try {
      const response = await redeem(tokenOf(link.url));
      expectError(response, 400, 'sign_in_link_invalid');
    } finally {
      t.clock.advance(-(15 * 60 * 1000 + 1000));
    }
  });

  it('does not sign in a member disabled after the link was minted', async () => {
    const userId = await addMember('disabled@acme.example');
    const link = await mint(userId);
    await call(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${userId}/disable`, { headers: sessionHeaders(org.owner) });
    const response = await redeem(tokenOf(link.url));
    expectError(response, 403, 'account_disabled');
  });

  it('cannot be minted for someone who is not a member', async () => {
    const response = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs/acme/members/00000000-0000-4000-8000-000000000000/sign-in-link', { headers: sessionHeaders(org.owner) });
    expectError(response, 404, 'member_not_found');
  });
});
