import { call, createTestApp, memberWithSession, sessionFrom, sessionHeaders, setupOrganization, switchOrganization, type SeededOrganization, type TestApp } from './support';

type ErrorResponse = { error: { code: string; details: { path?: string }[] } };

describe('organizations', () => {
  let t: TestApp;
  let org: SeededOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    org = await setupOrganization(t, { orgId: 'acme', orgName: 'Acme Corp' });
  });
  afterAll(() => t?.close());

  it('GET /orgs/:orgId answers the organization to its members', async () => {
    const viewer = await memberWithSession(t, org, 'viewer');
    const response = await call<{ id: string; name: string; createdAt: string }>(t.baseUrl, 'GET', '/api/v1/orgs/acme', { headers: sessionHeaders(viewer.session) });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: 'acme', name: 'Acme Corp' });
  });

  it('an owner creates another organization, becomes its owner and can switch the session to it', async () => {
    const created = await call<{ id: string }>(t.baseUrl, 'POST', '/api/v1/orgs', { headers: sessionHeaders(org.owner), body: { id: 'acme-labs', name: 'Acme Labs' } });
    expect(created.status).toBe(201);
    const me = await call<{ organizations: { id: string; role: string }[] }>(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(org.owner) });
    expect(me.body.organizations).toEqual(expect.arrayContaining([{ id: 'acme-labs', name: 'Acme Labs', role: 'owner' }, { id: 'acme', name: 'Acme Corp', role: 'owner' }]));

    const labs = await switchOrganization(t, org.owner, 'acme-labs');
    const there = await call<{ organization: { id: string }; role: string }>(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(labs) });
    expect(there.body).toMatchObject({ organization: { id: 'acme-labs' }, role: 'owner' });
    // The session acts in exactly one organization: the old one is no longer reachable with it.
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: sessionHeaders(labs) })).status).toBe(404);
    // The switch replaced the old session.
    expect((await call(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(org.owner) })).status).toBe(401);
    Object.assign(org.owner, await switchOrganization(t, labs, 'acme'));
  });

  it('refuses switching to an organization the user is not a member of', async () => {
    const response = await call<ErrorResponse>(t.baseUrl, 'POST', '/api/v1/auth/switch-organization', { headers: sessionHeaders(org.owner), body: { organizationId: 'elsewhere' } });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('organization_not_found');
  });

  it('refuses non-owners, taken ids and invalid ids', async () => {
    const admin = await memberWithSession(t, org, 'admin');
    const byAdmin = await call<ErrorResponse>(t.baseUrl, 'POST', '/api/v1/orgs', { headers: sessionHeaders(admin.session), body: { id: 'admins-org', name: 'x' } });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error.code).toBe('owner_required');
    const taken = await call<ErrorResponse>(t.baseUrl, 'POST', '/api/v1/orgs', { headers: sessionHeaders(org.owner), body: { id: 'acme', name: 'again' } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('organization_exists');
    for (const id of ['A', 'UPPER', '-dash-first', 'has space', 'x'.repeat(64)]) {
      const invalid = await call<ErrorResponse>(t.baseUrl, 'POST', '/api/v1/orgs', { headers: sessionHeaders(org.owner), body: { id, name: 'n' } });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.details[0].path).toBe('id');
    }
    const byToken = await call<ErrorResponse>(t.baseUrl, 'POST', '/api/v1/orgs', { headers: { authorization: `Bearer ${org.adminToken}` }, body: { id: 'by-token', name: 'x' } });
    expect(byToken.status).toBe(403);
  });
});

describe('sign-in links', () => {
  let t: TestApp;
  let org: SeededOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    org = await setupOrganization(t, { orgId: 'acme' });
  });
  afterAll(() => t?.close());

  async function mint(userId: string) {
    const response = await call<{ url: string; expiresAt: string }>(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${userId}/sign-in-link`, { headers: sessionHeaders(org.owner) });
    expect(response.status).toBe(201);
    return response.body;
  }

  async function addMember(email: string) {
    const response = await call<{ userId: string }>(t.baseUrl, 'POST', '/api/v1/orgs/acme/members', { headers: sessionHeaders(org.owner), body: { email, role: 'editor' } });
    return response.body.userId;
  }

  it('is a single-use URL on the public address, valid 15 minutes, that signs the member in and redirects home', async () => {
    const userId = await addMember('link@acme.example');
    const link = await mint(userId);
    expect(link.url.startsWith(`${t.config.publicUrl}/api/v1/auth/sign-in-link/`)).toBe(true);
    expect(new Date(link.expiresAt).getTime() - t.clock.now().getTime()).toBeGreaterThan(14 * 60 * 1000);
    expect(new Date(link.expiresAt).getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(15 * 60 * 1000);

    const redeemed = await call(t.baseUrl, 'GET', new URL(link.url).pathname);
    expect(redeemed.status).toBe(303);
    expect(redeemed.headers.get('location')).toBe('/orgs/acme');
    const session = sessionFrom(redeemed.setCookie);
    const me = await call<{ user: { email: string }; role: string }>(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(session) });
    expect(me.body).toMatchObject({ user: { email: 'link@acme.example' }, role: 'editor' });

    const again = await call<ErrorResponse>(t.baseUrl, 'GET', new URL(link.url).pathname);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('sign_in_link_invalid');
  });

  it('expires after 15 minutes', async () => {
    const link = await mint(await addMember('late@acme.example'));
    t.clock.advance(15 * 60 * 1000 + 1000);
    try {
      const response = await call<ErrorResponse>(t.baseUrl, 'GET', new URL(link.url).pathname);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('sign_in_link_invalid');
    } finally {
      t.clock.advance(-(15 * 60 * 1000 + 1000));
    }
  });

  it('does not sign in a member disabled after the link was minted', async () => {
    const userId = await addMember('disabled@acme.example');
    const link = await mint(userId);
    await call(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${userId}/disable`, { headers: sessionHeaders(org.owner) });
    const response = await call<ErrorResponse>(t.baseUrl, 'GET', new URL(link.url).pathname);
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('account_disabled');
  });

  it('cannot be minted for someone who is not a member', async () => {
    const response = await call<ErrorResponse>(t.baseUrl, 'POST', '/api/v1/orgs/acme/members/00000000-0000-4000-8000-000000000000/sign-in-link', { headers: sessionHeaders(org.owner) });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('member_not_found');
  });
});
