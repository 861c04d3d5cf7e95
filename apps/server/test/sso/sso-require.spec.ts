import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ErrorBody, SsoProviderResponse, SsoSettingsResponse, SsoSignInPageProvider, SsoTestStartResponse } from '@sc/contracts';
import type { Env } from '../../src/config/env';
import { runSignInLinkCommand, SignInLinkExit } from '../../src/modules/sign-in-links/sign-in-link.command';
import { addMember, bearer, call, createTestApp, expectError, mintSignInLink, sessionFrom, sessionHeaders, setupOrganization, type SeededOrganization, type SessionCredentials, type TestApp } from '../support';
import { loginUrl, meOf } from './sso-support';
import { SamlIdp, TestBrowser } from '@sc/testing-idp';

const HOST = '127.0.0.1';
const BINDING = 'sc_sso_binding';

/**
 * Require SSO against a real SAML IdP on loopback: the preconditions of turning it on, every other way into the
 * organization refused (sign-in links minted before or after, setup, organization creation), API tokens and SSO
 * unaffected, the break-glass command still letting an owner in, and the last provider kept.
 */
describe('Require SSO', () => {
  const base = mkdtempSync(join(tmpdir(), 'sc-require-sso-'));
  let t: TestApp;
  let org: SeededOrganization;
  let idp: SamlIdp;
  let provider: SsoProviderResponse;
  let member: { userId: string; email: string };

  const start = () => createTestApp({ embeddedDataDir: join(base, 'pglite') });
  const hostEnv = (): Env => {
    const database = t.config.database;
    return { SERVICE_PUBLIC_URL: t.baseUrl, SERVICE_SECRET_KEY: randomBytes(32).toString('base64'), ...(database.kind === 'postgres' ? { DATABASE_URL: database.url } : { SERVICE_DATA_DIR: base }) };
  };

  beforeAll(async () => {
    t = await start();
    org = await setupOrganization(t, { orgId: 'acme' });
    idp = await SamlIdp.start();
    const created = await call<SsoProviderResponse>(t.baseUrl, 'POST', '/api/v1/orgs/acme/sso/providers', {
      headers: sessionHeaders(org.owner),
      body: { slug: 'corp', displayName: 'Corp SAML', type: 'saml', idpMetadataUrl: idp.metadataUrl, allowSignUp: true, allowedDomains: ['acme.example'], enabled: true, confirmUntested: true },
    });
    expect(created.status).toBe(201);
    provider = created.body;
    const added = await addMember(t, org.owner, 'acme', { email: 'erin@acme.example', role: 'editor' });
    member = { userId: added.userId, email: 'erin@acme.example' };
  });

  afterAll(async () => {
    await idp?.close();
    await t?.close();
    rmSync(base, { recursive: true, force: true });
  });

  /** A browser signed in to acme through the SAML provider as `email`; returns its session credentials. */
  async function ssoSession(email: string): Promise<{ browser: TestBrowser; credentials: SessionCredentials }> {
    idp.user = { nameId: `id-${email}`, email };
    const browser = new TestBrowser({ accept: 'application/json' });
    const page = await browser.follow(loginUrl(t, 'acme', 'corp'));
    const form = /action="([^"]+)"><input type="hidden" name="SAMLResponse" value="([^"]+)"/.exec(page.text);
    if (!form) throw new Error(`no IdP form: ${page.status} ${page.text.slice(0, 200)}`);
    const answer = await browser.request(form[1], { method: 'POST', form: { SAMLResponse: form[2] } });
    expect(answer.status).toBe(303);
    return { browser, credentials: sessionFrom(answer.headers.getSetCookie()) };
  }

  const putSettings = (credentials: SessionCredentials | string, requireSso: boolean) =>
    call<SsoSettingsResponse & ErrorBody>(t.baseUrl, 'PUT', '/api/v1/orgs/acme/sso/settings', {
      headers: typeof credentials === 'string' ? bearer(credentials) : sessionHeaders(credentials),
      body: { requireSso },
    });

  const redeem = (url: string) => call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/auth/sign-in-link/redeem', { body: { token: new URL(url).hash.slice(1) } });

  it('turns on only with a proven enabled provider, for an owner signed in through SSO in this session', async () => {
    const notYet = await putSettings(org.owner, true);
    expectError(notYet, 409, 'sso_requirement_unmet');
    expect(notYet.body.error.details.map((detail) => detail.message)).toEqual([expect.stringMatching(/passed its last test sign-in/), expect.stringMatching(/did not sign in through SSO/)]);
    // Owners only: an API token never reaches the owner rank.
    expectError(await putSettings(org.adminToken, true), 403, 'insufficient_scope');

    // A passed test sign-in (from the setup session) proves the provider.
    const test = await call<SsoTestStartResponse>(t.baseUrl, 'POST', '/api/v1/orgs/acme/sso/providers/corp/test', { headers: sessionHeaders(org.owner), body: {} });
    const browser = new TestBrowser({ accept: 'application/json' });
    const binding = /sc_sso_binding=([^;]+)/.exec(test.setCookie.join('\n'))?.[1] as string;
    browser.setCookie(HOST, BINDING, binding, new URL(provider.saml?.acsUrl as string).pathname);
    idp.user = { nameId: 'owner', email: org.ownerEmail };
    const page = await browser.follow(test.body.authorizationUrl);
    const form = /action="([^"]+)"><input type="hidden" name="SAMLResponse" value="([^"]+)"/.exec(page.text) as RegExpExecArray;
    expect((await browser.request(form[1], { method: 'POST', form: { SAMLResponse: form[2] } })).status).toBe(200);

    const stillNotSso = await putSettings(org.owner, true);
    expectError(stillNotSso, 409, 'sso_requirement_unmet');
    expect(stillNotSso.body.error.details).toHaveLength(1);

    // A link minted while it is off, to prove it stops working once SSO is required.
    const earlierLink = await mintSignInLink(t, org.owner, 'acme', member.userId);

    const owner = await ssoSession(org.ownerEmail);
    const on = await putSettings(owner.credentials, true);
    expect([on.status, on.body.requireSso]).toEqual([200, true]);
    // Sessions that did not start through SSO ended (the setup session); the SSO one goes on.
    expectError(await call(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(org.owner) }), 401, 'session_invalid');
    expect((await meOf(t, owner.browser)).body.role).toBe('owner');
    const audit = await call<Array<{ action: string; after: unknown }>>(t.baseUrl, 'GET', '/api/v1/orgs/acme/audit?action=organization.sso_requirement_changed', { headers: sessionHeaders(owner.credentials) });
    expect(audit.body[0]).toMatchObject({ after: { requireSso: true } });
    // The public sign-in page learns that the providers are the only way in, and nothing more.
    const signInPage = await call<SsoSignInPageProvider[]>(t.baseUrl, 'GET', '/api/v1/auth/orgs/acme/providers');
    expect(signInPage.body).toEqual([{ slug: 'corp', displayName: expect.any(String), loginUrl: '/api/v1/auth/orgs/acme/login/corp', requireSso: true }]);

    // Every other way in is refused.
    expectError(await redeem(earlierLink), 403, 'sso_required');
    expectError(await call(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${member.userId}/sign-in-link`, { headers: sessionHeaders(owner.credentials) }), 403, 'sso_required');
    expectError(await call(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${org.ownerUserId}/sign-in-link`, { headers: sessionHeaders(owner.credentials) }), 403, 'sso_required');
    expect((await call(t.baseUrl, 'POST', '/api/v1/setup', { body: { token: 'x', organization: { id: 'acme', name: 'Acme' }, owner: { email: 'mallory@acme.example', name: 'M' } } })).status).toBeGreaterThanOrEqual(400);
    expect((await call(t.baseUrl, 'POST', '/api/v1/orgs', { headers: sessionHeaders(owner.credentials), body: { id: 'acme', name: 'Acme again' } })).status).toBe(409);

    // SSO and API tokens are unaffected.
    const erin = await ssoSession(member.email);
    expect((await meOf(t, erin.browser)).body.role).toBe('editor');
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(org.adminToken) })).status).toBe(200);

    // The last enabled provider stays while SSO is required.
    expectError(await call(t.baseUrl, 'PATCH', '/api/v1/orgs/acme/sso/providers/corp', { headers: sessionHeaders(owner.credentials), body: { enabled: false } }), 409, 'sso_required_last_provider');
    expectError(await call(t.baseUrl, 'DELETE', '/api/v1/orgs/acme/sso/providers/corp', { headers: sessionHeaders(owner.credentials) }), 409, 'sso_required_last_provider');
  });

  it('lets an owner in with a break-glass link from the server host, and nobody else', async () => {
    const settings = await call<SsoSettingsResponse>(t.baseUrl, 'GET', '/api/v1/orgs/acme/sso/settings', { headers: bearer(org.adminToken) });
    expect(settings.body.requireSso).toBe(true);
    const env = hostEnv();
    const links: string[] = [];
    let refusedCode: number | null = null;
    const embedded = t.config.database.kind === 'pglite';
    if (embedded) await t.close();
    try {
      let out = '';
      expect(await runSignInLinkCommand(['--org', 'acme', '--email', org.ownerEmail], env, { out: (text) => (out += text), err: () => undefined })).toBe(SignInLinkExit.Printed);
      links.push(/https?:\/\/\S+#\S+/.exec(out)?.[0] as string);
      refusedCode = await runSignInLinkCommand(['--org', 'acme', '--email', member.email], env, { out: () => undefined, err: () => undefined });
    } finally {
      if (embedded) t = await start();
    }
    expect(refusedCode).toBe(SignInLinkExit.Refused);
    const redeemed = await redeem(links[0]);
    expect(redeemed.status).toBe(200);
    const owner = sessionFrom(redeemed.setCookie);
    expect((await call<{ role: string }>(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(owner) })).body.role).toBe('owner');

    // Turned off again (an owner's decision, no precondition): links minted in the dashboard work again.
    expect((await putSettings(owner, false)).body.requireSso).toBe(false);
    const link = await mintSignInLink(t, owner, 'acme', member.userId);
    expect((await redeem(link)).status).toBe(200);
  });
});
