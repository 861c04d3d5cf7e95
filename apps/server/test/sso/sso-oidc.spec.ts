import type { SsoDiscoveryResponse, SsoProviderResponse } from '@sc/contracts';
import { call, createTestApp, sessionHeaders, setupOrganization, type SeededOrganization, type TestApp } from '../support';
import { TestBrowser } from './harness/browser';
import { OidcIdp, signInAtIdp } from './harness/oidc-idp';
import { callbackUrl, CLIENT_ID, CLIENT_SECRET, createProvider, isSpaPage, loginUrl, meOf } from './sso-support';

/** The whole redirect flow against a real, certified OpenID provider (oidc-provider) on loopback. */
describe('SSO sign-in through a real OpenID provider', () => {
  let t: TestApp;
  let org: SeededOrganization;
  let idp: OidcIdp;
  let provider: SsoProviderResponse;

  beforeAll(async () => {
    t = await createTestApp();
    org = await setupOrganization(t, { orgId: 'acme' });
    idp = await OidcIdp.start({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [callbackUrl(t, 'acme', 'corp')],
      accounts: {
        ada: { email: 'Ada@Example.com', name: 'Ada Lovelace', groups: ['eng', 'sc-admins'] },
        bob: { email: 'bob@example.com', name: '', groups: ['eng'] },
      },
    });
    const discovery = await call<SsoDiscoveryResponse>(t.baseUrl, 'POST', '/api/v1/orgs/acme/sso/discovery', { headers: sessionHeaders(org.owner), body: { issuer: idp.issuer } });
    expect(discovery.status).toBe(200);
    provider = await createProvider(t, org, {
      slug: 'corp',
      displayName: 'Corp IdP',
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
    });
  });

  afterAll(async () => {
    await idp?.close();
    await t?.close();
  });

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
    const page = await signInAtIdp(browser, idp, loginUrl(t, 'acme', 'corp', '/orgs/acme/diagrams?tab=1'), 'ada', { stopBefore: isSpaPage(t) });
    expect(page.stoppedAt).toBe(`${t.baseUrl}/orgs/acme/diagrams?tab=1`);
    expect(idp.tokenRequestAuthorization.at(-1)).toBeUndefined();
    const me = await meOf(t, browser);
    expect(me.status).toBe(200);
    expect(me.body.organization.id).toBe('acme');
    expect(me.body.user).toMatchObject({ email: 'ada@example.com', displayName: 'Ada Lovelace' });
    expect(me.body.role).toBe('admin');
  });
});
