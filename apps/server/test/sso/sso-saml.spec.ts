import type { ErrorBody, SsoAuditEntry, SsoProviderResponse, SsoTestReport, SsoTestStartResponse } from '@sc/contracts';
import { call, createOrganization, expectError, sessionHeaders, type SeededOrganization, useSeededApp } from '../support';
import { isSpaPage, loginUrl, meOf } from './sso-support';
import { SamlIdp, strangerKey, TestBrowser, type ResponseOptions, type SamlUser } from '@sc/testing-idp';

const HOST = '127.0.0.1';
const BINDING = 'sc_sso_binding';

const ADA: SamlUser = { nameId: 'ada-0001', email: 'Ada@Example.com', name: 'Ada Lovelace', groups: ['eng', 'sc-admins'] };
const BOB: SamlUser = { nameId: 'bob-0002', email: 'bob@example.com', name: 'Bob', groups: ['eng'] };

/**
 * SAML 2.0 Web Browser SSO against a real IdP on loopback (@sc/testing-idp's SamlIdp: metadata, HTTP-Redirect SSO endpoint, responses
 * signed with xml-crypto under a key made for this run), driven over HTTP with cookies and redirects: sign-in, every
 * refusal with its code (signature, algorithm, expiry, audience, destination, recipient, replay, IdP-initiated, other
 * organization, signature wrapping), the one-time state, test sign-in, SP metadata.
 */
describe('SSO sign-in through a real SAML identity provider', () => {
  const { t, org } = useSeededApp({ orgId: 'acme' });
  let globex: SeededOrganization;
  let idp: SamlIdp;
  let corp: SsoProviderResponse;

  const samlBody = { type: 'saml', allowSignUp: true, allowedDomains: ['example.com'], claimRules: [{ claim: 'groups', operator: 'equals', value: 'sc-admins', role: 'admin' }], defaultRole: 'viewer' };

  async function createSaml(owner: SeededOrganization, body: Record<string, unknown>): Promise<SsoProviderResponse> {
    const response = await call<SsoProviderResponse>(t.baseUrl, 'POST', `/api/v1/orgs/${owner.organizationId}/sso/providers`, {
      headers: sessionHeaders(owner.owner),
      body: { ...samlBody, enabled: true, confirmUntested: true, ...body },
    });
    if (response.status !== 201) throw new Error(`create provider: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }

  beforeAll(async () => {
    globex = await createOrganization(t, org, { orgId: 'globex' });
    idp = await SamlIdp.start();
    corp = await createSaml(org, { slug: 'corp', displayName: 'Corp SAML', idpMetadataUrl: idp.metadataUrl });
    await createSaml(org, { slug: 'pasted', displayName: 'Pasted metadata', idpMetadataXml: idp.metadata(), allowIdpInitiated: true });
    await createSaml(globex, { slug: 'corp', displayName: 'Globex SAML', idpMetadataUrl: idp.metadataUrl, allowIdpInitiated: true });
  });

  afterAll(async () => {
    await idp?.close();
  });

  /** Login start → the IdP's SSO endpoint; returns the browser (holding the binding cookie) and the IdP's form. */
  async function atIdp(user: SamlUser, slug = 'corp', orgId = 'acme', redirect = '/orgs/acme') {
    idp.user = user;
    const browser = new TestBrowser({ accept: 'application/json' });
    const page = await browser.follow(loginUrl(t, orgId, slug, redirect));
    expect(page.url.startsWith(`${idp.origin}/sso?SAMLRequest=`)).toBe(true);
    const form = /<form method="post" action="([^"]+)"><input type="hidden" name="SAMLResponse" value="([^"]+)">/.exec(page.text);
    if (!form) throw new Error(`The IdP answered no form: ${page.status} ${page.text.slice(0, 200)}`);
    return { browser, acsUrl: form[1], samlResponse: form[2], request: idp.requests.at(-1) as NonNullable<(typeof idp.requests)[number]> };
  }

  async function post(browser: TestBrowser, acsUrl: string, samlResponse: string) {
    const page = await browser.request(acsUrl, { method: 'POST', form: { SAMLResponse: samlResponse } });
    return { status: page.status, location: page.headers.get('location'), body: page.text.startsWith('{') ? (JSON.parse(page.text) as ErrorBody & SsoTestReport) : undefined };
  }

  /** A response the IdP would build for this sign-in, with one thing changed. */
  async function tampered(change: Partial<ResponseOptions>, user = BOB) {
    const started = await atIdp(user);
    const options: ResponseOptions = { user, acsUrl: started.request.acsUrl, audience: started.request.issuer, inResponseTo: started.request.id, ...change };
    return { ...started, samlResponse: idp.response(options), options };
  }

  async function lastAudit(owner = org): Promise<SsoAuditEntry> {
    const page = await call<SsoAuditEntry[]>(t.baseUrl, 'GET', `/api/v1/orgs/${owner.organizationId}/sso/audit?limit=1`, { headers: sessionHeaders(owner.owner) });
    return page.body[0];
  }

  it('shows what to register at the IdP and serves the SP metadata', async () => {
    const base = `${t.baseUrl}/api/v1/auth/orgs/acme/saml/corp`;
    expect(corp.saml).toEqual({ spEntityId: `${base}/metadata`, acsUrl: `${base}/acs`, metadataUrl: `${base}/metadata`, idpEntityId: idp.entityId, idpSsoUrl: `${idp.origin}/sso`, idpSigningCertificates: 1 });
    expect(corp.idpMetadataXml).toContain(idp.entityId);
    expect(corp.hasClientSecret).toBe(false);
    const metadata = await fetch(`${base}/metadata`);
    expect(metadata.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${base}/metadata"`);
    expect(xml).toMatch(new RegExp(`AssertionConsumerService[^>]+Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]+Location="${base}/acs"`));
    const publicList = await call<{ slug: string; loginUrl: string }[]>(t.baseUrl, 'GET', '/api/v1/auth/orgs/acme/providers');
    expect(publicList.body.map((p) => p.slug)).toEqual(expect.arrayContaining(['corp', 'pasted']));
  });

  it('refuses metadata that is not an IdP, or a URL the outbound guard refuses', async () => {
    const bad = await call(t.baseUrl, 'POST', '/api/v1/orgs/acme/sso/providers', { headers: sessionHeaders(org.owner), body: { ...samlBody, slug: 'bad', displayName: 'Bad', idpMetadataXml: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>' } });
    expectError(bad, 400, 'invalid_provider_config');
    expect((bad.body as ErrorBody).error.details[0]).toMatchObject({ path: 'idpMetadataXml', message: expect.stringMatching(/IDPSSODescriptor/) });
    const none = await call(t.baseUrl, 'POST', '/api/v1/orgs/acme/sso/providers', { headers: sessionHeaders(org.owner), body: { ...samlBody, slug: 'none', displayName: 'None' } });
    expectError(none, 400, 'invalid_provider_config');
    const metadataService = await call(t.baseUrl, 'POST', '/api/v1/orgs/acme/sso/providers', { headers: sessionHeaders(org.owner), body: { ...samlBody, slug: 'meta', displayName: 'Meta', idpMetadataUrl: 'http://169.254.169.254/metadata' } });
    expectError(metadataService, 400, 'invalid_provider_config');
  });

  it('signs a new user in: AuthnRequest, signed assertion, attributes, claim rule role, session, redirect (303)', async () => {
    const { browser, acsUrl, samlResponse, request } = await atIdp(ADA, 'corp', 'acme', '/orgs/acme/diagrams?tab=1');
    expect(request.acsUrl).toBe(corp.saml?.acsUrl);
    expect(request.issuer).toBe(corp.saml?.spEntityId);
    expect(browser.cookie(HOST, BINDING)).toMatch(/^[\w-]{43}$/);
    const answer = await browser.request(acsUrl, { method: 'POST', form: { SAMLResponse: samlResponse } });
    expect([answer.status, answer.headers.get('location')]).toEqual([303, '/orgs/acme/diagrams?tab=1']);
    expect(browser.cookie(HOST, BINDING)).toBeUndefined();
    const me = await meOf(t, browser);
    expect(me.body.user).toMatchObject({ email: 'ada@example.com', displayName: 'Ada Lovelace' });
    expect(me.body.role).toBe('admin');
    expect(await lastAudit()).toMatchObject({ outcome: 'success', email: 'ada@example.com', subject: 'ada-0001', role: 'admin', providerSlug: 'corp', claimNames: expect.objectContaining({ groups: 'array(2)' }) });
  });

  it('accepts a signed response (assertion unsigned) and a response with both signed', async () => {
    for (const sign of ['response', 'both'] as const) {
      const { browser, acsUrl, samlResponse } = await tampered({ sign });
      expect((await post(browser, acsUrl, samlResponse)).status).toBe(303);
    }
  });

  it.each([
    ['unsigned', { sign: 'none' }, 'saml_signature_invalid'],
    ['signed by a key the metadata does not list', { signingKey: strangerKey() }, 'saml_signature_invalid'],
    ['signed with RSA-SHA1', { sha1: true }, 'saml_signature_invalid'],
    ['expired (10 minutes ago)', { timeShiftMs: -11 * 60_000 }, 'saml_assertion_expired'],
    ['not yet valid (10 minutes ahead)', { timeShiftMs: 11 * 60_000 }, 'saml_assertion_expired'],
    ['for another audience', { audience: 'https://other-sp.example/metadata' }, 'saml_audience_mismatch'],
    ['for another destination', { destination: 'https://other-sp.example/acs' }, 'saml_destination_mismatch'],
    ['for another recipient', { recipient: 'https://other-sp.example/acs' }, 'saml_destination_mismatch'],
    ['from another issuer', { issuer: 'https://evil-idp.example/entity' }, 'saml_response_invalid'],
  ] as [string, Partial<ResponseOptions>, string][])('refuses a response %s', async (_name, change, code) => {
    const { browser, acsUrl, samlResponse } = await tampered(change);
    const answer = await post(browser, acsUrl, samlResponse);
    expect([answer.status, answer.body?.error.code]).toEqual([400, code]);
    expect(await lastAudit()).toMatchObject({ outcome: 'failure', errorCode: code, providerSlug: 'corp' });
  });

  it('answers malformed posts with saml_response_invalid (never 500), and a page for browsers', async () => {
    const acs = corp.saml?.acsUrl as string;
    for (const form of [{}, { SAMLResponse: 'not base64 xml' }, { SAMLResponse: Buffer.from('<a/>').toString('base64') }] as Record<string, string>[]) {
      const answer = await new TestBrowser({ accept: 'application/json' }).request(acs, { method: 'POST', form });
      expect([answer.status, (JSON.parse(answer.text) as ErrorBody).error.code]).toEqual([400, 'saml_response_invalid']);
    }
    const page = await new TestBrowser().request(acs, { method: 'POST', form: { SAMLResponse: 'x' } });
    expect([page.status, page.headers.get('content-type')]).toEqual([400, expect.stringMatching(/^text\/html/)]);
    expect(page.text).toContain('<code data-error-code>saml_response_invalid</code>');
  });

  it('accepts an assertion within the 3-minute clock skew', async () => {
    // Every timestamp 7 minutes back: NotOnOrAfter (issued + 5 min) passed 2 minutes ago.
    const { browser, acsUrl, samlResponse } = await tampered({ timeShiftMs: -7 * 60_000 });
    expect((await post(browser, acsUrl, samlResponse)).status).toBe(303);
  });

  it('refuses a tampered signed assertion and XML signature wrapping', async () => {
    // Tampering: the signed assertion's email changed after signing.
    const started = await atIdp(BOB);
    const xml = Buffer.from(started.samlResponse, 'base64').toString('utf8');
    const edited = xml.replace('bob@example.com', 'eve@example.com');
    expect((await post(started.browser, started.acsUrl, Buffer.from(edited).toString('base64'))).body?.error.code).toBe('saml_signature_invalid');

    // Wrapping 1: the genuine signed assertion hidden in Extensions, a forged unsigned one where the SP reads.
    const second = await atIdp(BOB);
    const genuine = Buffer.from(second.samlResponse, 'base64').toString('utf8');
    const signedAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(genuine)?.[0] as string;
    const forged = signedAssertion.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '').replace(/ID="[^"]+"/, 'ID="_forged"').replace('bob@example.com', 'eve@example.com').replace('<saml:AttributeValue>eng', '<saml:AttributeValue>sc-admins');
    const wrapped = genuine.replace(signedAssertion, `${forged}`).replace('<samlp:Status>', `<samlp:Extensions>${signedAssertion}</samlp:Extensions><samlp:Status>`);
    const first = await post(second.browser, second.acsUrl, Buffer.from(wrapped).toString('base64'));
    expect([first.status, first.body?.error.code]).toEqual([400, 'saml_signature_invalid']);

    // Wrapping 2: the forged assertion beside the genuine one.
    const third = await atIdp(BOB);
    const genuine3 = Buffer.from(third.samlResponse, 'base64').toString('utf8');
    const signed3 = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(genuine3)?.[0] as string;
    const beside = genuine3.replace(signed3, `${forged}${signed3}`);
    const two = await post(third.browser, third.acsUrl, Buffer.from(beside).toString('base64'));
    expect([two.status, two.body?.error.code]).toEqual([400, 'saml_signature_invalid']);
    const eve = await call<{ email: string }[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: sessionHeaders(org.owner) });
    expect(eve.body.map((member) => member.email)).not.toContain('eve@example.com');
  });

  it('binds InResponseTo to the one-time state: replay, another browser, another organization', async () => {
    const { browser, acsUrl, samlResponse } = await atIdp(BOB);
    const binding = browser.cookie(HOST, BINDING) as string;
    // Another browser (no binding cookie) is refused and leaves the state usable.
    const stranger = await post(new TestBrowser({ accept: 'application/json' }), acsUrl, samlResponse);
    expect([stranger.status, stranger.body?.error.code]).toEqual([400, 'invalid_or_expired_state']);
    expect((await lastAudit()).message).toMatch(/browser-binding cookie is missing/);
    // Another organization's ACS (its own provider, the same IdP): the state is acme's.
    const globexAcs = acsUrl.replace('/orgs/acme/', '/orgs/globex/');
    const other = await fetch(globexAcs, { method: 'POST', redirect: 'manual', headers: { accept: 'application/json', cookie: `${BINDING}=${binding}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ SAMLResponse: samlResponse }) });
    expect([other.status, ((await other.json()) as ErrorBody).error.code]).toEqual([400, 'invalid_or_expired_state']);
    expect((await lastAudit(globex)).message).toMatch(/another organization/);
    expect((await post(browser, acsUrl, samlResponse)).status).toBe(303);
    // Replayed with the binding cookie put back: the state is used.
    browser.setCookie(HOST, BINDING, binding, new URL(acsUrl).pathname);
    const replay = await post(browser, acsUrl, samlResponse);
    expect([replay.status, replay.body?.error.code]).toEqual([400, 'invalid_or_expired_state']);
    expect((await lastAudit()).message).toMatch(/already used/);
  });

  it('refuses IdP-initiated responses unless the provider allows them, and never accepts an assertion ID twice', async () => {
    const browser = new TestBrowser({ accept: 'application/json' });
    const corpAcs = corp.saml?.acsUrl as string;
    const unsolicited = idp.response({ user: BOB, acsUrl: corpAcs, audience: corp.saml?.spEntityId as string, inResponseTo: null });
    const refused = await post(browser, corpAcs, unsolicited);
    expect([refused.status, refused.body?.error.code]).toEqual([400, 'saml_idp_initiated_refused']);

    const pasted = (await call<SsoProviderResponse>(t.baseUrl, 'GET', '/api/v1/orgs/acme/sso/providers/pasted', { headers: sessionHeaders(org.owner) })).body;
    const allowed = idp.response({ user: BOB, acsUrl: pasted.saml?.acsUrl as string, audience: pasted.saml?.spEntityId as string, inResponseTo: null });
    const accepted = await post(browser, pasted.saml?.acsUrl as string, allowed);
    expect([accepted.status, accepted.location]).toEqual([303, '/orgs/acme']);
    const replayed = await post(new TestBrowser({ accept: 'application/json' }), pasted.saml?.acsUrl as string, allowed);
    expect([replayed.status, replayed.body?.error.code]).toEqual([400, 'saml_assertion_replayed']);

    // globex's provider allows IdP-initiated too; acme's response posted there names acme's ACS and audience.
    const toGlobex = await post(new TestBrowser({ accept: 'application/json' }), pasted.saml?.acsUrl.replace('/orgs/acme/saml/pasted/', '/orgs/globex/saml/corp/') as string, idp.response({ user: BOB, acsUrl: pasted.saml?.acsUrl as string, audience: pasted.saml?.spEntityId as string, inResponseTo: null }));
    expect([toGlobex.status, toGlobex.body?.error.code]).toEqual([400, 'saml_destination_mismatch']);
  });

  it('runs a test sign-in: report with assertion attributes, nothing created', async () => {
    const start = await call<SsoTestStartResponse>(t.baseUrl, 'POST', '/api/v1/orgs/acme/sso/providers/corp/test', { headers: sessionHeaders(org.owner), body: {} });
    expect(start.status).toBe(200);
    const browser = new TestBrowser({ accept: 'application/json' });
    for (const cookie of start.setCookie) {
      const [pair] = cookie.split(';');
      const [name, value] = pair.split('=');
      if (name === BINDING) browser.setCookie(HOST, BINDING, value, new URL(corp.saml?.acsUrl as string).pathname);
    }
    idp.user = { nameId: 'carol-3', email: 'carol@example.com', name: 'Carol', groups: ['eng'] };
    const page = await browser.follow(start.body.authorizationUrl);
    const form = /action="([^"]+)"><input type="hidden" name="SAMLResponse" value="([^"]+)"/.exec(page.text) as RegExpExecArray;
    const report = await post(browser, form[1], form[2]);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ ok: true, role: 'viewer', email: { claim: 'email', value: 'carol@example.com' }, subject: { claim: 'nameID', value: 'carol-3' } });
    expect(report.body?.claimSources.assertion).toEqual(['email', 'name', 'groups']);
    expect(report.body?.idTokenVerification).toMatch(/assertion signature verified/);
    expect(await lastAudit()).toMatchObject({ test: true, outcome: 'success', providerSlug: 'corp' });
    const provider = await call<SsoProviderResponse>(t.baseUrl, 'GET', '/api/v1/orgs/acme/sso/providers/corp', { headers: sessionHeaders(org.owner) });
    expect(provider.body.lastTest).toMatchObject({ ok: true });
    const me = await meOf(t, browser);
    expect(me.status).toBe(401);
  });

  it('refuses a state after 10 minutes (the clock moves; last: the clock stays moved)', async () => {
    const { browser, acsUrl, samlResponse } = await atIdp(BOB);
    t.clock.advance(10 * 60_000 + 1000);
    const late = await post(browser, acsUrl, samlResponse);
    expect([late.status, late.body?.error.code]).toEqual([400, 'invalid_or_expired_state']);
    expect((await lastAudit()).message).toMatch(/expired/);
    expect(isSpaPage(t)(new URL(`${t.baseUrl}/orgs/acme`))).toBe(true);
  });
});
