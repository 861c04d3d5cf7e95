import { CSRF_COOKIE, CSRF_HEADER, type MeResponse, type ErrorBody } from '@sc/contracts';
import { OidcIdp, signInAtIdp, TestBrowser } from '@sc/testing-idp';
import { addMember, call, createOrganization, useTestApp, sessionFrom, sessionHeaders, setupOrganization, type SeededOrganization, type SessionCredentials } from './support';
import { callbackUrl, CLIENT_ID, CLIENT_SECRET, createProvider, isSpaPage, loginUrl } from './sso/sso-support';

const HOST = '127.0.0.1';

/** What a browser can send: its cookies and, for state changes, the CSRF header. */
interface Caller {
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

/**
 * Issue 9 §1: the owner of one organization must never become anything in another one. E owns only `evil`;
 * V owns only `beta`; victim2 is an admin of beta and was never a member of evil. Both reproductions of the
 * audit are tried exactly as reported (a sign-in link minted in evil, and an SSO login through a provider E
 * configured in evil against a real OpenID provider), and each ends with the attacker having no foothold in beta.
 */
describe('cross-organization takeover', () => {
  const t = useTestApp();
  let beta: SeededOrganization;
  let evil: SeededOrganization;
  let idp: OidcIdp;
  let betaTokensBefore: number;

  beforeAll(async () => {
    // An operator's organization creates both, so neither owner is a member of the other's organization.
    const host = await setupOrganization(t, { orgId: 'host', ownerEmail: 'operator@host.test' });
    beta = await createOrganization(t, host, { orgId: 'beta', ownerEmail: 'victim@beta.test' });
    evil = await createOrganization(t, host, { orgId: 'evil', ownerEmail: 'e@evil.test' });
    await addMember(t, beta.owner, 'beta', { email: 'victim2@beta.test', role: 'admin' });
    betaTokensBefore = (await call<unknown[]>(t.baseUrl, 'GET', '/api/v1/orgs/beta/tokens', { headers: sessionHeaders(beta.owner) })).body.length;

    idp = await OidcIdp.start({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [callbackUrl(t, 'evil', 'corp'), callbackUrl(t, 'beta', 'corp')],
      accounts: { victim2: { email: 'victim2@beta.test', name: 'Victim Two' }, stranger: { email: 'stranger@elsewhere.test', name: 'Stranger' } },
    });
    const endpoints = { type: 'generic', authUrl: `${idp.issuer}/auth`, tokenUrl: `${idp.issuer}/token`, userinfoUrl: `${idp.issuer}/me`, jwksUri: `${idp.issuer}/jwks`, issuer: idp.issuer, scopes: 'openid email profile' };
    // E's provider: sign-up on, any domain, so whatever the IdP asserts gets in — to evil.
    await createProvider(t, evil, { slug: 'corp', displayName: 'Evil IdP', allowSignUp: true, allowedDomains: [], defaultRole: 'viewer', ...endpoints });
    // Beta's own provider at the same IdP, members only.
    await createProvider(t, beta, { slug: 'corp', displayName: 'Beta IdP', allowSignUp: false, allowedDomains: [], defaultRole: 'viewer', ...endpoints });
  });

  afterAll(async () => {
    await idp?.close();
  });

  function fromSession(initial: SessionCredentials): Caller {
    let session = initial;
    return {
      async request(method, path, body) {
        const response = await call(t.baseUrl, method, path, { headers: sessionHeaders(session), body });
        // Follow whatever session the server hands out, as a browser would.
        if (response.setCookie.some((cookie) => cookie.startsWith('sc_session=') && !cookie.startsWith('sc_session=;'))) session = sessionFrom(response.setCookie);
        return response;
      },
    };
  }

  function fromBrowser(browser: TestBrowser): Caller {
    return {
      async request(method, path, body) {
        const csrf = browser.cookie(HOST, CSRF_COOKIE);
        const page = await browser.request(`${t.baseUrl}${path}`, { method, json: body, headers: { accept: 'application/json', ...(csrf ? { [CSRF_HEADER]: csrf } : {}) } });
        return { status: page.status, body: page.text ? (JSON.parse(page.text) as unknown) : undefined };
      },
    };
  }

  /**
   * Everything the audit did after the switch, collected before asserting, so a failure shows the whole
   * outcome (on the code before the fix: switch 204, /me in beta as owner, members and tokens read, a token
   * created and E added as beta's owner).
   */
  async function expectNoFootholdInBeta(attacker: Caller): Promise<void> {
    const switched = await attacker.request('POST', '/api/v1/auth/switch-organization', { organizationId: 'beta' });
    const me = await attacker.request('GET', '/api/v1/me');
    const attempts: [string, string, unknown?][] = [
      ['GET', '/api/v1/orgs/beta'],
      ['GET', '/api/v1/orgs/beta/members'],
      ['GET', '/api/v1/orgs/beta/tokens'],
      ['POST', '/api/v1/orgs/beta/tokens', { name: 'backdoor', scopes: ['admin'] }],
      ['POST', '/api/v1/orgs/beta/members', { email: 'e@evil.test', role: 'owner' }],
    ];
    const answers: string[] = [];
    for (const [method, path, body] of attempts) {
      const response = await attacker.request(method, path, body);
      answers.push(`${method} ${path} → ${response.status} ${(response.body as ErrorBody | undefined)?.error?.code ?? ''}`);
    }
    // Seen from beta's real owner.
    const members = await call<{ email: string }[]>(t.baseUrl, 'GET', '/api/v1/orgs/beta/members', { headers: sessionHeaders(beta.owner) });
    const tokens = await call<unknown[]>(t.baseUrl, 'GET', '/api/v1/orgs/beta/tokens', { headers: sessionHeaders(beta.owner) });

    expect({
      switch: `${switched.status} ${(switched.body as ErrorBody | undefined)?.error?.code ?? ''}`,
      meOrganization: (me.body as MeResponse).organization.id,
      // The session proves nothing about the person's other organizations, so it reveals none of them.
      meMentionsBeta: JSON.stringify(me.body).includes('"beta"') || JSON.stringify(me.body).includes('Org beta'),
      answers,
      betaMembers: members.body.map((member) => member.email).sort(),
      betaTokens: tokens.body.length,
    }).toEqual({
      switch: '410 organization_switch_removed',
      meOrganization: 'evil',
      meMentionsBeta: false,
      answers: attempts.map(([method, path]) => `${method} ${path} → 404 organization_not_found`),
      betaMembers: ['operator@host.test', 'victim2@beta.test', 'victim@beta.test'],
      betaTokens: betaTokensBefore,
    });
  }

  it('through a sign-in link: E adds V to evil, mints and redeems a link for V, and gets nowhere in beta', async () => {
    const added = await addMember(t, evil.owner, 'evil', { email: 'victim@beta.test', role: 'viewer' });
    expect(added.userId).toBe(beta.ownerUserId);
    const minted = await call<{ url: string }>(t.baseUrl, 'POST', `/api/v1/orgs/evil/members/${added.userId}/sign-in-link`, { headers: sessionHeaders(evil.owner) });
    expect(minted.status).toBe(201);
    // A fresh browser: no cookies at all.
    const redeemed = await call<{ redirect: string }>(t.baseUrl, 'POST', '/api/v1/auth/sign-in-link/redeem', { body: { token: new URL(minted.body.url).hash.slice(1) } });
    expect(redeemed.body).toEqual({ redirect: '/orgs/evil' });
    const attacker = fromSession(sessionFrom(redeemed.setCookie));

    await expectNoFootholdInBeta(attacker);
    // V owns beta, but that is not proven in evil, where V is a viewer: no organization is created on that strength.
    const created = await attacker.request('POST', '/api/v1/orgs', { id: 'evil-two', name: 'Evil two' });
    expect(`${created.status} ${(created.body as ErrorBody).error?.code}`).toBe('403 owner_required');
  });

  it("through SSO: evil's provider asserts victim2@beta.test; the session is evil's and gets nowhere in beta", async () => {
    const browser = new TestBrowser();
    const page = await signInAtIdp(browser, idp, loginUrl(t, 'evil', 'corp'), 'victim2', { stopBefore: isSpaPage(t) });
    expect(page.stoppedAt).toBe(`${t.baseUrl}/orgs/evil`);
    await expectNoFootholdInBeta(fromBrowser(browser));

    // The identity link evil's provider stored belongs to evil's provider only.
    const links = (await t.dataSource.query(
      `SELECT i.organization_id AS "organizationId", p.organization_id AS "providerOrganization" FROM sso_identities i JOIN sso_providers p ON p.id = i.provider_id JOIN users u ON u.id = i.user_id WHERE u.email = 'victim2@beta.test'`,
    )) as { organizationId: string; providerOrganization: string }[];
    expect(links).toEqual([{ organizationId: 'evil', providerOrganization: 'evil' }]);
  });

  it("adding beta's people to evil by email changes nothing that beta, or they in beta, see", async () => {
    await addMember(t, beta.owner, 'beta', { email: 'quiet@beta.test', role: 'editor' });
    // E picks the name beta's members would see, and makes quiet an owner of evil.
    await addMember(t, evil.owner, 'evil', { email: 'quiet@beta.test', role: 'owner', displayName: 'Beta IT: reset your password at evil.example' });
    const members = await call<{ email: string; displayName: string; role: string }[]>(t.baseUrl, 'GET', '/api/v1/orgs/beta/members', { headers: sessionHeaders(beta.owner) });
    expect(members.body.find((member) => member.email === 'quiet@beta.test')).toMatchObject({ displayName: 'quiet@beta.test', role: 'editor' });
    // Nor did evil's identity provider name victim2 (an SSO login through evil happened in the test above).
    expect(members.body.find((member) => member.email === 'victim2@beta.test')).toMatchObject({ displayName: 'victim2@beta.test', role: 'admin' });
    // V's own session in beta does not show evil either: memberships others created are not listed.
    const me = await call(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(beta.owner) });
    expect(JSON.stringify(me.body)).not.toContain('evil');
  });

  it("moving to beta means signing in there by beta's own provider: one click with the IdP session still open", async () => {
    const browser = new TestBrowser();
    expect((await signInAtIdp(browser, idp, loginUrl(t, 'evil', 'corp'), 'victim2', { stopBefore: isSpaPage(t) })).stoppedAt).toBe(`${t.baseUrl}/orgs/evil`);
    // The IdP remembers victim2: beta's login goes straight through, and beta's rules decide (victim2 is a beta admin).
    const there = await browser.follow(loginUrl(t, 'beta', 'corp'), { stopBefore: isSpaPage(t) });
    expect(there.stoppedAt).toBe(`${t.baseUrl}/orgs/beta`);
    const me = await fromBrowser(browser).request('GET', '/api/v1/me');
    expect(me.body).toMatchObject({ organization: { id: 'beta' }, role: 'admin', user: { email: 'victim2@beta.test' } });
  });

  it("an identity that evil's provider admitted is not admitted by beta's provider", async () => {
    const browser = new TestBrowser({ accept: 'application/json' });
    expect((await signInAtIdp(browser, idp, loginUrl(t, 'evil', 'corp'), 'stranger', { stopBefore: isSpaPage(t) })).stoppedAt).toBe(`${t.baseUrl}/orgs/evil`);
    const refused = await browser.follow(loginUrl(t, 'beta', 'corp'), { stopBefore: isSpaPage(t) });
    expect(refused.status).toBe(403);
    expect((JSON.parse(refused.text) as ErrorBody).error.code).toBe('signup_disabled');
  });
});
