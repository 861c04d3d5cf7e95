import type { AuditEntry, DomainResponse, SignInByEmailResponse } from '@sc/contracts';
import { DomainRecheckJob } from '../../src/modules/domains/domain-recheck.job';
import { bearer, call, createOrganization, useSeededApp, expectError, memberWithSession, sessionHeaders, type SeededOrganization } from '../support';
import { createProvider } from '../sso/sso-support';
import { startDnsServer, type TestDnsServer } from '@sc/testing-idp';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Domain verification against a DNS server on loopback, the daily re-check, and routing by work email. */
describe('verified domains and sign-in by work email', () => {
  let dns: TestDnsServer;
  let globex: SeededOrganization;

  beforeAll(async () => {
    dns = await startDnsServer();
  });
  const { t, org } = useSeededApp({}, () => ({ env: { SERVICE_DNS_SERVERS: dns.address, SERVICE_DNS_TIMEOUT: '500ms' } }));
  afterAll(() => dns?.close());
  beforeAll(async () => {
    globex = await createOrganization(t, org, { orgId: 'globex' });
  });

  const domainsPath = (orgId: string) => `/api/v1/orgs/${orgId}/domains`;
  const add = (as: SeededOrganization, domain: string) => call<DomainResponse>(t.baseUrl, 'POST', domainsPath(as.organizationId), { headers: sessionHeaders(as.owner), body: { domain } });
  const verify = (as: SeededOrganization, id: string) => call<DomainResponse>(t.baseUrl, 'POST', `${domainsPath(as.organizationId)}/${id}/verify`, { headers: sessionHeaders(as.owner) });
  const route = (email: string) => call<SignInByEmailResponse>(t.baseUrl, 'POST', '/api/v1/auth/sign-in-by-email', { body: { email } });

  it('adds a domain (owners only) in state pending with its TXT record, and refuses duplicates and bad names', async () => {
    const admin = await memberWithSession(t, org, 'admin');
    expectError(await call(t.baseUrl, 'POST', domainsPath('acme'), { headers: sessionHeaders(admin.session), body: { domain: 'acme.example' } }), 403, 'insufficient_role');
    const added = await add(org, 'acme.example');
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ domain: 'acme.example', state: 'pending', verifiedAt: null, lastCheckedAt: null });
    expect(added.body.txtRecord).toMatch(/^service-verification=[A-Za-z0-9_-]{32}$/);
    expectError(await add(org, 'acme.example'), 409, 'domain_exists');
    for (const bad of ['Acme.example', 'localhost', '*.acme.example', 'acme.example.', '-a.example']) expectError(await add(org, bad), 400, 'validation_failed');
    // Admins see the list.
    expect((await call<DomainResponse[]>(t.baseUrl, 'GET', domainsPath('acme'), { headers: sessionHeaders(admin.session) })).body.map((d) => d.domain)).toEqual(['acme.example']);
  });

  it('verifies by the DNS TXT record on the configured resolver, and fails with a reason without it', async () => {
    const [domain] = (await call<DomainResponse[]>(t.baseUrl, 'GET', domainsPath('acme'), { headers: sessionHeaders(org.owner) })).body;
    const failed = await verify(org, domain.id);
    expect(failed.body).toMatchObject({ state: 'failed', verifiedAt: null });
    expect(failed.body.lastError).toContain(domain.txtRecord);
    expect(dns.queries).toContain('acme.example');

    dns.records.set('acme.example', ['v=spf1 -all', 'service-verification=someone-else', domain.txtRecord]);
    const verified = await verify(org, domain.id);
    expect(verified.body).toMatchObject({ state: 'verified', lastError: null });
    expect(verified.body.verifiedAt).not.toBeNull();
    const audit = await call<AuditEntry[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/audit?limit=3', { headers: bearer(org.adminToken) });
    expect(audit.body.map((entry) => `${entry.action} ${entry.target.label}`).slice(0, 2)).toEqual(['domain.verified acme.example', 'domain.verification_failed acme.example']);
  });

  it('routes a work email to the organization that verified its domain, only through enabled providers, with the same answer shape for any address', async () => {
    // Without an enabled provider the organization is no destination.
    expect((await route('someone@acme.example')).body).toEqual({ destinations: [] });
    await createProvider(t, org, { slug: 'entra', displayName: 'Contoso Entra', type: 'entra', tenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47' });
    const one = await route('Somebody@ACME.example');
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      destinations: [{ organizationId: 'acme', organizationName: 'Org acme', signInPath: '/orgs/acme/sign-in', providers: [{ slug: 'entra', displayName: 'Contoso Entra', loginUrl: '/api/v1/auth/orgs/acme/login/entra' }] }],
    });
    // An address with an account and one without get the same answer; an unknown domain the same shape.
    expect((await route('owner@acme.example')).body).toEqual(one.body);
    const unknown = await route('someone@unknown-domain.example');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ destinations: [] });
    expectError(await route('not-an-email'), 400, 'validation_failed');
  });

  it('offers a choice when several organizations verified the domain, and never routes through an unverified one', async () => {
    const globexDomain = await add(globex, 'acme.example');
    await createProvider(t, globex, { slug: 'okta', displayName: 'Okta', type: 'okta', domain: 'globex.okta.com' });
    // Pending: not routed.
    expect((await route('a@acme.example')).body.destinations.map((d) => d.organizationId)).toEqual(['acme']);
    dns.records.set('acme.example', [...(dns.records.get('acme.example') ?? []), globexDomain.body.txtRecord]);
    expect((await verify(globex, globexDomain.body.id)).body.state).toBe('verified');
    expect((await route('a@acme.example')).body.destinations.map((d) => d.organizationId)).toEqual(['acme', 'globex']);
    // Another organization's domain id is not found from this one.
    expectError(await verify(org, globexDomain.body.id), 404, 'domain_not_found');
  });

  it('removes a domain (owners only), audited', async () => {
    const added = await add(org, 'remove-me.example');
    expectError(await call(t.baseUrl, 'DELETE', `${domainsPath('acme')}/${added.body.id}`, { headers: bearer(org.adminToken) }), 403, 'insufficient_scope');
    expect((await call(t.baseUrl, 'DELETE', `${domainsPath('acme')}/${added.body.id}`, { headers: sessionHeaders(org.owner) })).status).toBe(204);
    expect((await call<DomainResponse[]>(t.baseUrl, 'GET', domainsPath('acme'), { headers: sessionHeaders(org.owner) })).body.map((d) => d.domain)).toEqual(['acme.example']);
    const audit = await call<AuditEntry[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/audit?action=domain.removed', { headers: bearer(org.adminToken) });
    expect(audit.body.map((entry) => entry.target.label)).toEqual(['remove-me.example']);
  });

  it('re-checks daily: a removed record stops the routing, a resolver failure changes no state', async () => {
    const job = t.app.get(DomainRecheckJob);
    // Checked just now: nothing is due.
    expect(await job.runOnce()).toBe(0);
    const [acme] = (await call<DomainResponse[]>(t.baseUrl, 'GET', domainsPath('acme'), { headers: bearer(org.adminToken) })).body;
    dns.records.set('acme.example', (dns.records.get('acme.example') ?? []).filter((record) => record !== acme.txtRecord));

    t.clock.advance(DAY_MS + 60_000);
    expect(await job.runOnce()).toBe(2);
    const [after] = (await call<DomainResponse[]>(t.baseUrl, 'GET', domainsPath('acme'), { headers: bearer(org.adminToken) })).body;
    expect(after).toMatchObject({ state: 'failed', verifiedAt: null });
    expect(Date.parse(after.lastCheckedAt ?? '')).toBeGreaterThan(Date.parse(acme.lastCheckedAt ?? '') + DAY_MS);
    expect((await route('a@acme.example')).body.destinations.map((d) => d.organizationId)).toEqual(['globex']);

    // A DNS outage: the verified globex domain stays verified, with the reason recorded.
    dns.failing.add('acme.example');
    t.clock.advance(DAY_MS + 60_000);
    expect(await job.runOnce()).toBe(2);
    const [globexAfter] = (await call<DomainResponse[]>(t.baseUrl, 'GET', domainsPath('globex'), { headers: bearer(globex.adminToken) })).body;
    expect(globexAfter.state).toBe('verified');
    expect(globexAfter.lastError).toMatch(/failed/);
    dns.failing.clear();
  });
});
