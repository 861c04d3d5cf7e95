import type { AuditEntry, ErrorBody, SsoDiscoveryResponse, SsoProviderResponse, SsoSignInStatus, SsoTestStartResponse } from '@sc/contracts';
import { OidcIdp, signInAtIdp, TestBrowser } from '@sc/testing-idp';
import { bearer, call, expectError, memberWithSession, sessionHeaders, useSeededApp } from '../support';
import { callbackUrl, CLIENT_ID, CLIENT_SECRET, isSpaPage } from './sso-support';

const HOUR = 3600_000;

/**
 * Issue 23, "Lockout": a provider is created disabled, and enabling it needs a passed test sign-in within 24 hours
 * (the test app's ManualClock moves the time) or an explicit `confirmUntested`; the dashboard's sign-out warning
 * reads /sso/sign-in-status.
 */
describe('SSO lockout protection', () => {
  const { t, org } = useSeededApp({ orgId: 'acme' });
  let idp: OidcIdp;
  let settings: Record<string, unknown>;
  const path = '/api/v1/orgs/acme/sso/providers';

  beforeAll(async () => {
    idp = await OidcIdp.start({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [callbackUrl(t, 'acme', 'corp')],
      accounts: {
        owner: { email: org.ownerEmail, name: 'Olga Owner' },
        mallory: { email: 'mallory@evil.example', name: 'Mallory' },
      },
    });
    const discovery = await call<SsoDiscoveryResponse>(t.baseUrl, 'POST', '/api/v1/orgs/acme/sso/discovery', { headers: sessionHeaders(org.owner), body: { issuer: idp.issuer } });
    settings = {
      type: 'generic',
      displayName: 'Corp IdP',
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      authUrl: discovery.body.authorization_endpoint,
      tokenUrl: discovery.body.token_endpoint,
      userinfoUrl: discovery.body.userinfo_endpoint,
      jwksUri: discovery.body.jwks_uri,
      issuer: discovery.body.issuer,
      allowedDomains: [org.ownerEmail.split('@')[1]],
    };
  });

  afterAll(async () => {
    await idp?.close();
  });

  const post = (body: unknown) => call<SsoProviderResponse & ErrorBody>(t.baseUrl, 'POST', path, { headers: sessionHeaders(org.owner), body });
  // The owner's admin API token: it outlives the session when the clock moves a day.
  const patch = (slug: string, body: unknown) => call<SsoProviderResponse & ErrorBody>(t.baseUrl, 'PATCH', `${path}/${slug}`, { headers: bearer(org.adminToken), body });
  const status = async (headers: Record<string, string> = bearer(org.adminToken)) => (await call<SsoSignInStatus>(t.baseUrl, 'GET', '/api/v1/orgs/acme/sso/sign-in-status', { headers })).body;

  /** The clock runs (ManualClock is real time plus an offset): "now" is within a minute. */
  function expectRecent(at: string | undefined): void {
    expect(Math.abs(Date.parse(at ?? '') - t.clock.now().getTime())).toBeLessThan(60_000);
  }

  /** A test sign-in in the owner's browser, as `account` at the provider. */
  async function testSignIn(account: string): Promise<void> {
    const browser = new TestBrowser({ accept: 'application/json' });
    for (const pair of org.owner.cookieHeader.split('; ')) {
      const [name, value] = pair.split('=');
      browser.setCookie('127.0.0.1', name, value);
    }
    const started = await browser.request(`${t.baseUrl}${path}/corp/test`, { method: 'POST', json: {}, headers: { 'x-csrf-token': org.owner.csrfToken, accept: 'application/json' } });
    expect(started.status).toBe(200);
    const page = await signInAtIdp(browser, idp, (JSON.parse(started.text) as SsoTestStartResponse).authorizationUrl, account, { stopBefore: isSpaPage(t) });
    expect(page.status).toBe(200);
  }

  it('refuses to create an enabled provider that was never tested (409 provider_not_tested) and creates it disabled by default', async () => {
    const refused = await post({ ...settings, slug: 'corp', enabled: true });
    expectError(refused, 409, 'provider_not_tested');
    expect(refused.body.error.message).toMatch(/test sign-in/);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ path: 'enabled' })]);
    expect((await call(t.baseUrl, 'GET', `${path}/corp`, { headers: sessionHeaders(org.owner) })).status).toBe(404);

    const created = await post({ ...settings, slug: 'corp' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ enabled: false, lastTest: null });
  });

  it('enables an untested provider only with confirmUntested, and the audit log says so', async () => {
    expectError(await patch('corp', { enabled: true }), 409, 'provider_not_tested');
    const confirmed = await patch('corp', { enabled: true, confirmUntested: true });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.enabled).toBe(true);
    const audit = await call<AuditEntry[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/audit?action=sso_provider.updated&limit=1', { headers: bearer(org.adminToken) });
    expect(audit.body[0]).toMatchObject({ before: { enabled: false }, after: { enabled: true, enabledWithoutTest: true } });
    // Saving other fields of an enabled provider asks nothing.
    expect((await patch('corp', { enabled: true, displayName: 'Corp' })).status).toBe(200);
    expect((await patch('corp', { enabled: false })).status).toBe(200);
  });

  it('answers any member whether an enabled provider has had a successful sign-in', async () => {
    const viewer = await memberWithSession(t, org, 'viewer');
    expect(await status(sessionHeaders(viewer.session))).toEqual({ enabledProviders: 0, provenProviders: 0 });
    await patch('corp', { enabled: true, confirmUntested: true });
    expect(await status()).toEqual({ enabledProviders: 1, provenProviders: 0 });
    await patch('corp', { enabled: false });
  });

  it('keeps a failed test on the provider and still refuses to enable it', async () => {
    await testSignIn('mallory');
    const provider = (await call<SsoProviderResponse>(t.baseUrl, 'GET', `${path}/corp`, { headers: sessionHeaders(org.owner) })).body;
    expect(provider.lastTest).toMatchObject({ ok: false, errorCode: 'email_domain_not_allowed' });
    expectRecent(provider.lastTest?.at);
    expectError(await patch('corp', { enabled: true }), 409, 'provider_not_tested');
  });

  it('enables a provider without confirmation for 24 hours after a passed test sign-in', async () => {
    await testSignIn('owner');
    const listed = (await call<SsoProviderResponse[]>(t.baseUrl, 'GET', path, { headers: sessionHeaders(org.owner) })).body;
    expect(listed[0].lastTest).toMatchObject({ ok: true, errorCode: null, message: expect.stringMatching(/passed/) });
    expectRecent(listed[0].lastTest?.at);

    t.clock.advance(23 * HOUR);
    const enabled = await patch('corp', { enabled: true });
    expect(enabled.status).toBe(200);
    expect(await status()).toEqual({ enabledProviders: 1, provenProviders: 1 });

    expect((await patch('corp', { enabled: false })).status).toBe(200);
    t.clock.advance(2 * HOUR);
    expectError(await patch('corp', { enabled: true }), 409, 'provider_not_tested');
  });
});
