import type { AuditEntry, MemberResponse, SsoAuditEntry, SsoDiscoveryResponse, SsoProviderResponse, SsoTestReport, SsoTestStartResponse, ErrorBody } from '@sc/contracts';
import { addMember, call, createOrganization, sessionHeaders, type SeededOrganization, useSeededApp } from '../support';
import { OidcIdp, signInAtIdp, TestBrowser } from '@sc/testing-idp';
import { callbackUrl, CLIENT_ID, CLIENT_SECRET, countRows, createProvider, databaseText, isCallback, isSpaPage, loginUrl, meOf, patchProvider } from './sso-support';

const HOST = '127.0.0.1';
const BINDING = 'sc_sso_binding';

/**
 * The whole redirect flow against a real, certified OpenID provider (oidc-provider) on loopback: login
 * and consent interactions, PKCE, client_secret_post, signed ID tokens, UserInfo — plus the one-time state
 * (replay, expiry, other browser, other provider or organization, 50 concurrent callbacks), open
 * redirects, organization-scoped sessions, test sign-in, and no secret or token in logs or the database.
 */
describe('SSO sign-in through a real OpenID provider', () => {
  const logLines: string[] = [];
  const { t, org } = useSeededApp({ orgId: 'acme' }, { env: { SERVICE_LOG_LEVEL: 'debug' }, logLines });
  let globex: SeededOrganization;
  let idp: OidcIdp;
  let provider: SsoProviderResponse;
  const authorizationCodes: string[] = [];
  const stateValues: string[] = [];

  beforeAll(async () => {
    globex = await createOrganization(t, org, { orgId: 'globex' });
    idp = await OidcIdp.start({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [callbackUrl(t, 'acme', 'corp'), callbackUrl(t, 'acme', 'corp2'), callbackUrl(t, 'globex', 'corp')],
      accounts: {
        ada: { email: 'Ada@Example.com', name: 'Ada Lovelace', groups: ['eng', 'sc-admins'] },
        bob: { email: 'bob@example.com', name: 'Bob', groups: ['eng'] },
        carol: { email: 'carol@example.com', name: 'Carol', groups: [] },
        dave: { email: 'dave@example.com', name: 'Dave', groups: ['sc-admins'] },
        mallory: { email: 'mallory@evil.example', name: 'Mallory', groups: [] },
        erin: { email: 'erin@example.com', name: 'Erin', groups: ['eng'] },
        owner: { email: org.ownerEmail, name: 'Olga Owner', groups: ['sc-admins'] },
      },
    });
    const discovery = await call<SsoDiscoveryResponse>(t.baseUrl, 'POST', '/api/v1/orgs/acme/sso/discovery', { headers: sessionHeaders(org.owner), body: { issuer: idp.issuer } });
    expect(discovery.status).toBe(200);
    const fromDiscovery = {
      type: 'generic',
      authUrl: discovery.body.authorization_endpoint,
      tokenUrl: discovery.body.token_endpoint,
      userinfoUrl: discovery.body.userinfo_endpoint,
      jwksUri: discovery.body.jwks_uri,
      issuer: discovery.body.issuer,
      scopes: 'openid email profile groups',
      allowSignUp: true,
      allowedDomains: ['example.com'],
      claimRules: [{ claim: 'groups', operator: 'equals', value: 'sc-admins', role: 'admin' }],
      defaultRole: 'viewer',
    };
    provider = await createProvider(t, org, { slug: 'corp', displayName: 'Corp IdP', ...fromDiscovery });
    await createProvider(t, org, { slug: 'corp2', displayName: 'Corp IdP (second)', ...fromDiscovery });
    await createProvider(t, globex, { slug: 'corp', displayName: 'Globex IdP', ...fromDiscovery });
  });

  afterAll(async () => {
    await idp?.close();
  });

  /** Runs the provider part and holds the callback URL (with code and state) without calling it. */
  async function holdCallback(browser: TestBrowser, account: string, redirect = '/orgs/acme'): Promise<string> {
    const page = await signInAtIdp(browser, idp, loginUrl(t, 'acme', 'corp', redirect), account, { stopBefore: isCallback(t) });
    if (!page.stoppedAt) throw new Error(`The provider did not redirect to the callback: ${page.status} ${page.text.slice(0, 300)}`);
    authorizationCodes.push(new URL(page.stoppedAt).searchParams.get('code') ?? '');
    stateValues.push(new URL(page.stoppedAt).searchParams.get('state') ?? '');
    return page.stoppedAt;
  }

  async function jsonCall(url: string, cookie: string) {
    const response = await fetch(url, { redirect: 'manual', headers: { accept: 'application/json', cookie } });
    const text = await response.text();
    return { status: response.status, location: response.headers.get('location'), body: text ? (JSON.parse(text) as ErrorBody) : undefined };
  }

  async function lastAudit(): Promise<SsoAuditEntry> {
    const page = await call<SsoAuditEntry[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/sso/audit?limit=1', { headers: sessionHeaders(org.owner) });
    return page.body[0];
  }

  it('discovery reads the provider document', async () => {
    const discovery = await call<SsoDiscoveryResponse>(t.baseUrl, 'POST', '/api/v1/orgs/acme/sso/discovery', { headers: sessionHeaders(org.owner), body: { issuer: idp.issuer } });
    expect(discovery.body).toMatchObject({
      issuer: idp.issuer,
      authorization_endpoint: `${idp.issuer}/auth`,
      token_endpoint: `${idp.issuer}/token`,
      userinfo_endpoint: `${idp.issuer}/me`,
      jwks_uri: `${idp.issuer}/jwks`,
      client_secret_post_supported: true,
    });
    expect(provider.callbackUrl).toBe(callbackUrl(t, 'acme', 'corp'));
  });

  it('signs a new user in: state, PKCE, client_secret_post, ID token, UserInfo, claim rule role, session, redirect', async () => {
    const browser = new TestBrowser();
    const callback = await holdCallback(browser, 'ada', '/orgs/acme/diagrams?tab=1');
    expect(browser.cookie(HOST, BINDING)).toMatch(/^[\w-]{43}$/);
    const page = await browser.follow(callback, { stopBefore: isSpaPage(t) });
    expect(page.stoppedAt).toBe(`${t.baseUrl}/orgs/acme/diagrams?tab=1`);
    expect(browser.cookie(HOST, BINDING)).toBeUndefined();
    expect(idp.tokenRequestAuthorization.at(-1)).toBeUndefined();
    const me = await meOf(t, browser);
    expect(me.status).toBe(200);
    expect(me.body.organization.id).toBe('acme');
    expect(me.body.user).toMatchObject({ email: 'ada@example.com', displayName: 'Ada Lovelace' });
    expect(me.body.role).toBe('admin');
    expect(await lastAudit()).toMatchObject({ outcome: 'success', email: 'ada@example.com', role: 'admin', test: false, providerSlug: 'corp' });
    // The organization audit log: the sign-in added the user, who acted through SSO, from the browser's address.
    const added = await call<AuditEntry[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/audit?action=member.added&target=ada@example.com', { headers: sessionHeaders(org.owner) });
    expect(added.body).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ type: 'sso', email: 'ada@example.com' }), after: { role: 'admin', source: 'sso', disabled: false }, ipAddress: expect.stringMatching(/127\.0\.0\.1$/) }),
    ]);
    // Members → "Added by": an SSO sign-up through this provider.
    const members = await call<MemberResponse[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: sessionHeaders(org.owner) });
    expect(members.body.find((member) => member.email === 'ada@example.com')?.addedBy).toEqual({ kind: 'sso', providerSlug: 'corp', providerName: 'Corp IdP' });
  });

  it('refuses a replayed callback: the state is consumed (400 invalid_or_expired_state)', async () => {
    const browser = new TestBrowser();
    const callback = await holdCallback(browser, 'bob');
    const binding = browser.cookie(HOST, BINDING) as string;
    expect((await browser.follow(callback, { stopBefore: isSpaPage(t) })).stoppedAt).toBe(`${t.baseUrl}/orgs/acme`);
    const replay = await jsonCall(callback, `${BINDING}=${binding}`);
    expect(replay.status).toBe(400);
    expect(replay.body?.error.code).toBe('invalid_or_expired_state');
    expect((await lastAudit()).message).toMatch(/already used/);
    const html = await fetch(callback, { redirect: 'manual', headers: { cookie: `${BINDING}=${binding}` } });
    expect(html.status).toBe(400);
    const text = await html.text();
    expect(text).toContain('<code data-error-code>invalid_or_expired_state</code>');
    // The person clicked a button, not a link; the page says what happened, then (differently) what to do.
    expect(text).toContain('<h1>This sign-in cannot be completed</h1>');
    expect(text).not.toContain('link is no longer valid');
    expect(text).toMatch(/<p data-error-message>This sign-in attempt was already used: each attempt can be finished only once/);
    expect(text).toMatch(/<p data-what-to-do>Start a new sign-in from the sign-in page in this browser/);
    expect(text).toContain('href="/orgs/acme/sign-in?error=invalid_or_expired_state">Back to sign-in</a>');
    // A real reload: the finished callback cleared the binding cookie, and the page still says "already used".
    const reload = await browser.request(callback);
    expect(reload.status).toBe(400);
    expect(reload.text).toContain('<p data-error-message>This sign-in attempt was already used:');
  });

  it('refuses a state after 10 minutes (the clock moves)', async () => {
    const browser = new TestBrowser({ accept: 'application/json' });
    const callback = await holdCallback(browser, 'bob');
    // The clock stays moved: audit entries are ordered by time, and nothing later depends on the real time.
    t.clock.advance(10 * 60_000 + 1000);
    const late = await browser.follow(callback, { stopBefore: isSpaPage(t) });
    expect(late.status).toBe(400);
    expect((JSON.parse(late.text) as ErrorBody).error.code).toBe('invalid_or_expired_state');
    expect((await lastAudit()).message).toMatch(/expired/);
  });

  it('refuses a callback from another browser (no binding cookie) and keeps the state for the right one', async () => {
    const browser = new TestBrowser();
    const callback = await holdCallback(browser, 'bob');
    const stranger = await jsonCall(callback, '');
    expect(stranger.status).toBe(400);
    expect(stranger.body?.error.code).toBe('invalid_or_expired_state');
    const wrongBinding = await jsonCall(callback, `${BINDING}=someone-elses-value`);
    expect(wrongBinding.status).toBe(400);
    expect((await browser.follow(callback, { stopBefore: isSpaPage(t) })).stoppedAt).toBe(`${t.baseUrl}/orgs/acme`);
  });

  it('refuses a state at another provider’s or another organization’s callback, leaving it usable', async () => {
    const browser = new TestBrowser();
    const callback = await holdCallback(browser, 'bob');
    const binding = browser.cookie(HOST, BINDING) as string;
    const query = new URL(callback).search;
    const otherProvider = await jsonCall(`${callbackUrl(t, 'acme', 'corp2')}${query}`, `${BINDING}=${binding}`);
    expect(otherProvider.status).toBe(400);
    expect(otherProvider.body?.error.code).toBe('invalid_or_expired_state');
    expect((await lastAudit()).message).toMatch(/another provider/);
    const otherOrg = await jsonCall(`${callbackUrl(t, 'globex', 'corp')}${query}`, `${BINDING}=${binding}`);
    expect(otherOrg.status).toBe(400);
    expect(otherOrg.body?.error.code).toBe('invalid_or_expired_state');
    const globexAudit = await call<SsoAuditEntry[]>(t.baseUrl, 'GET', '/api/v1/orgs/globex/sso/audit?limit=1', { headers: sessionHeaders(globex.owner) });
    expect(globexAudit.body[0].message).toMatch(/another organization/);
    expect((await browser.follow(callback, { stopBefore: isSpaPage(t) })).stoppedAt).toBe(`${t.baseUrl}/orgs/acme`);
  });

  it('lets exactly one of 50 concurrent callbacks with one state through', async () => {
    const browser = new TestBrowser();
    const callback = await holdCallback(browser, 'carol');
    const cookie = `${BINDING}=${browser.cookie(HOST, BINDING) as string}`;
    const sessionsBefore = await countRows(t, 'sessions');
    const results = await Promise.all(Array.from({ length: 50 }, () => jsonCall(callback, cookie)));
    const successes = results.filter((r) => r.status === 302);
    expect(successes).toHaveLength(1);
    expect(successes[0].location).toBe('/orgs/acme');
    const refused = results.filter((r) => r.status === 400);
    expect(refused).toHaveLength(49);
    expect(refused.every((r) => r.body?.error.code === 'invalid_or_expired_state')).toBe(true);
    expect(await countRows(t, 'sessions')).toBe(sessionsBefore + 1);
  });

  it('creates one user when the same new person finishes two sign-ins at once', async () => {
    const first = new TestBrowser();
    const second = new TestBrowser();
    const callbacks = [await holdCallback(first, 'erin'), await holdCallback(second, 'erin')];
    const cookies = [first, second].map((browser) => `${BINDING}=${browser.cookie(HOST, BINDING) as string}`);
    const results = await Promise.all(callbacks.map((url, index) => jsonCall(url, cookies[index])));
    expect(results.map((r) => r.status)).toEqual([302, 302]);
    const users = (await t.dataSource.query(`SELECT id FROM users WHERE email = 'erin@example.com'`)) as unknown[];
    expect(users).toHaveLength(1);
    const links = (await t.dataSource.query(`SELECT subject FROM sso_identities WHERE email = 'erin@example.com'`)) as unknown[];
    expect(links).toEqual([{ subject: 'erin' }]);
  });

  it.each([['//evil.example/steal'], ['https://evil.example/'], ['/\\evil.example'], ['javascript:alert(1)'], ['http:evil.example']])('never redirects off-site (redirect=%s)', async (target) => {
    const browser = new TestBrowser();
    const page = await signInAtIdp(browser, idp, loginUrl(t, 'acme', 'corp', target), 'bob', { stopBefore: isSpaPage(t) });
    expect(page.stoppedAt).toBe(`${t.baseUrl}/orgs/acme`);
  });

  it('scopes the session to the organization whose provider signed the user in', async () => {
    await addMember(t, globex.owner, 'globex', { email: 'carol@example.com', role: 'admin' });
    const browser = new TestBrowser({ accept: 'application/json' });
    const page = await signInAtIdp(browser, idp, loginUrl(t, 'acme', 'corp'), 'carol', { stopBefore: isSpaPage(t) });
    expect(page.stoppedAt).toBe(`${t.baseUrl}/orgs/acme`);
    const me = await meOf(t, browser);
    expect(me.body.organization.id).toBe('acme');
    expect(me.body.role).toBe('viewer');
    const foreign = await browser.request(`${t.baseUrl}/api/v1/orgs/globex/members`);
    expect(foreign.status).toBe(404);
    expect((JSON.parse(foreign.text) as ErrorBody).error.code).toBe('organization_not_found');
    expect((await browser.request(`${t.baseUrl}/api/v1/orgs/acme/members`)).status).toBe(200);
  });

  describe('test sign-in', () => {
    async function adminBrowser(accept?: string): Promise<TestBrowser> {
      const browser = new TestBrowser(accept ? { accept } : {});
      for (const pair of org.owner.cookieHeader.split('; ')) {
        const [name, value] = pair.split('=');
        browser.setCookie(HOST, name, value);
      }
      return browser;
    }

    async function startTest(browser: TestBrowser, slug = 'corp'): Promise<SsoTestStartResponse> {
      const started = await browser.request(`${t.baseUrl}/api/v1/orgs/acme/sso/providers/${slug}/test`, { method: 'POST', json: {}, headers: { 'x-csrf-token': org.owner.csrfToken, accept: 'application/json' } });
      expect(started.status).toBe(200);
      return JSON.parse(started.text) as SsoTestStartResponse;
    }

    async function rowCounts() {
      return Promise.all(['users', 'memberships', 'sessions', 'sso_identities'].map((table) => countRows(t, table)));
    }

    it('runs the real flow, creates nothing and reports claims, decisions and every rule', async () => {
      const before = await rowCounts();
      const browser = await adminBrowser('application/json');
      const started = await startTest(browser);
      expect(started.authorizationUrl.startsWith(`${idp.issuer}/auth?`)).toBe(true);
      const page = await signInAtIdp(browser, idp, started.authorizationUrl, 'dave', { stopBefore: isSpaPage(t) });
      expect(page.status).toBe(200);
      const report = JSON.parse(page.text) as SsoTestReport;
      expect(report).toMatchObject({
        providerSlug: 'corp',
        ok: true,
        errorCode: null,
        email: { claim: 'email', value: 'dave@example.com' },
        name: { claim: 'name', value: 'Dave', fallbackToEmail: false },
        subject: { claim: 'sub', value: 'dave' },
        domain: { outcome: 'pass' },
        disabled: { outcome: 'pass' },
        signUp: { outcome: 'pass' },
        role: 'admin',
        roleSource: 'claim_rule',
      });
      expect(report.claims).toMatchObject({ sub: 'dave', email: 'dave@example.com', groups: ['sc-admins'] });
      expect(report.claimRules).toEqual([expect.objectContaining({ index: 0, matched: true, selected: true })]);
      expect(report.idTokenVerification).toMatch(/signature \(JWKS\), iss, aud, exp and nonce verified/);
      expect(JSON.stringify(report)).not.toMatch(/access_token|id_token|eyJ/);
      expect(await rowCounts()).toEqual(before);
      expect(await lastAudit()).toMatchObject({ test: true, outcome: 'success', email: 'dave@example.com' });
    });

    it('shows where a sign-in would fail, as an HTML page for the browser', async () => {
      const before = await rowCounts();
      const browser = await adminBrowser();
      const started = await startTest(browser);
      const page = await signInAtIdp(browser, idp, started.authorizationUrl, 'mallory', { stopBefore: isSpaPage(t) });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(page.text).toContain('Test sign-in report: corp');
      expect(page.text).toContain('<code data-error-code>email_domain_not_allowed</code>');
      expect(page.text).toContain('Nothing was created');
      expect(page.text).toContain('<strong>The sign-in would fail</strong> at the allowed domains check');
      // The claims were read: the rule was evaluated even though the domain check failed.
      expect(page.text).toMatch(/<tr data-claim-rule="1">.*<td class="muted">no match<\/td>/);
      expect(page.text).toContain('<a class="button" href="/orgs/acme/settings/sso/corp?tab=configuration">Run the test again</a>');
      expect(page.text).toContain('<a class="button secondary" href="/orgs/acme/settings/sso/corp">Back to SSO settings</a>');
      expect(await rowCounts()).toEqual(before);
      expect(await lastAudit()).toMatchObject({ test: true, outcome: 'failure', errorCode: 'email_domain_not_allowed' });
    });

    it('works on a disabled provider and needs an admin session', async () => {
      await patchProvider(t, org, 'corp2', { enabled: false });
      const browser = await adminBrowser('application/json');
      const started = await startTest(browser, 'corp2');
      const report = JSON.parse((await signInAtIdp(browser, idp, started.authorizationUrl, 'bob', { stopBefore: isSpaPage(t) })).text) as SsoTestReport;
      expect(report).toMatchObject({ ok: true, role: 'viewer', roleSource: 'default_role' });
      const login = await new TestBrowser({ accept: 'application/json' }).request(loginUrl(t, 'acme', 'corp2'));
      expect(login.status).toBe(403);
      const token = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs/acme/sso/providers/corp/test', { headers: { authorization: `Bearer ${org.adminToken}` }, body: {} });
      expect(token.status).toBe(403);
      expect(token.body.error.code).toBe('session_required');
    });

    it('tells an owner the role is kept although a claim rule matches, and what a sign-in would store', async () => {
      await patchProvider(t, org, 'corp2', { allowedDomains: [] });
      try {
        const before = await rowCounts();
        const browser = await adminBrowser();
        const started = await startTest(browser, 'corp2');
        const page = await signInAtIdp(browser, idp, started.authorizationUrl, 'owner', { stopBefore: isSpaPage(t) });
        expect(page.status).toBe(200);
        expect(page.text).toContain(
          '<strong>The sign-in would succeed</strong> with the role <code>owner</code>: this person&#39;s membership was created by hand (or is an owner&#39;s), and SSO never changes the role of such a membership.',
        );
        expect(page.text).not.toContain('manual_membership_unchanged');
        expect(page.text).not.toContain('selected → admin');
        expect(page.text).toMatch(/<tr data-claim-rule="1">.*<td class="muted">match, not applied<\/td>.*Not applied: the membership was created by hand/);
        expect(page.text).toMatch(/<tr data-decision="Identity link">.*No identity link yet; a sign-in would store one for this subject\./);
        expect(page.text).not.toContain('A new identity link is stored');
        expect(await rowCounts()).toEqual(before);
      } finally {
        await patchProvider(t, org, 'corp2', { allowedDomains: ['example.com'] });
      }
    });

    it('says the claim rules were not evaluated when the test stops at the token exchange', async () => {
      await patchProvider(t, org, 'corp2', { clientSecret: 'not-the-client-secret' });
      try {
        const browser = await adminBrowser();
        const started = await startTest(browser, 'corp2');
        const page = await signInAtIdp(browser, idp, started.authorizationUrl, 'bob', { stopBefore: isSpaPage(t) });
        expect(page.status).toBe(200);
        expect(page.text).toContain('<code data-error-code>token_exchange_failed</code>');
        expect(page.text).toContain('The claim rules were not evaluated: the test stopped at the token exchange (<code>token_exchange_failed</code>), before the claims were read.');
        expect(page.text).toMatch(/<tr data-claim-rule="1">.*<td class="muted">not evaluated<\/td>/);
        expect(page.text).not.toContain('No claim rules');
        expect(page.text).toContain('Not reached: the test stopped at the token exchange.');
      } finally {
        await patchProvider(t, org, 'corp2', { clientSecret: CLIENT_SECRET });
      }
    });
  });

  // Last, so it sees the logs and rows of every flow above.
  describe('secrets', () => {
    it('never writes the client secret, provider tokens, authorization codes or raw states to logs or the database', async () => {
      const logs = logLines.join('');
      expect(logs).toContain('/api/v1/auth/orgs/acme/callback/corp');
      const secrets = [CLIENT_SECRET, ...idp.issuedAccessTokens, ...idp.issuedIdTokens, ...authorizationCodes, ...stateValues].filter((s) => s.length > 10);
      expect(idp.issuedAccessTokens.length).toBeGreaterThan(5);
      expect(authorizationCodes.length).toBeGreaterThan(5);
      const stored = await databaseText(t, ['sso_providers', 'oauth_states', 'sso_identities', 'sso_audit_events', 'sessions', 'users', 'memberships', 'audit_events']);
      const leaks = secrets.filter((secret) => logs.includes(secret) || stored.includes(secret));
      expect(leaks).toEqual([]);
    });
  });
});
