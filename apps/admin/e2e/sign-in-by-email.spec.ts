import { startDnsServer, type TestDnsServer } from '@sc/testing-idp';
import { containsText, screenshot, visible } from './support/browser';
import { useE2eSession } from './support/session';

/**
 * Issue 27 items 3 and 4 in a real browser: the owner verifies an email domain against a DNS server on loopback and
 * creates a SCIM token in the SSO settings; then /sign-in sends a work email to the organization's provider, offers a
 * choice when there are several, and says the same for any address at an unknown domain.
 */
describe('email domains, SCIM tokens and sign-in by work email, in a real browser', () => {
  let dns: TestDnsServer;
  beforeAll(async () => {
    dns = await startDnsServer();
  });
  afterAll(() => dns?.close());
  const e2e = useE2eSession({
    setupToken: `e2e-domains-${Date.now()}-0123456789`,
    browser: { viewport: { width: 1280, height: 900 } },
    timeout: 20000,
    organization: true,
    serverEnv: () => ({ SERVICE_DNS_SERVERS: dns.address }),
  });
  const api = async (path: string, method: string, data?: unknown) => {
    const csrf = (await e2e.context.cookies()).find((cookie) => cookie.name === 'sc_csrf')?.value ?? '';
    return e2e.page.request.fetch(`${e2e.server.baseUrl}/api/v1/orgs/acme${path}`, { method, data, headers: { 'x-csrf-token': csrf } });
  };

  it('adds and verifies a domain with its DNS TXT record, and shows its state', async () => {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/settings/sso`);
    await e2e.page.getByTestId('domain-input').fill('acme.test');
    await e2e.page.getByTestId('domain-add').click();
    const state = e2e.page.getByTestId('domain-state-acme.test');
    await containsText(state, 'Pending');
    const txt = await e2e.page.locator('[data-testid="domain-acme.test"] sc-copy-field input').inputValue();
    expect(txt).toMatch(/^service-verification=/);

    await e2e.page.getByTestId('domain-verify-acme.test').click();
    await containsText(state, 'Failed');
    await containsText(e2e.page.getByTestId('domain-acme.test'), 'has no TXT records');

    dns.records.set('acme.test', [txt]);
    await e2e.page.getByTestId('domain-verify-acme.test').click();
    await containsText(state, 'Verified');
    expect(await e2e.page.locator('[data-testid="domain-acme.test"] sc-copy-field').count()).toBe(0);
    await screenshot(e2e.page, 'sso-settings-domains');
  });

  it('shows the SCIM base URL and creates a SCIM token shown once, which the SCIM API accepts', async () => {
    const baseUrl = await e2e.page.getByTestId('scim-base-url').inputValue();
    expect(baseUrl).toBe(`${e2e.server.baseUrl}/scim/v2/orgs/acme`);
    await e2e.page.getByTestId('scim-token-name').fill('Entra ID');
    await e2e.page.getByTestId('scim-token-create').click();
    const secret = e2e.page.locator('[data-testid="scim-card"] sc-one-time-secret input');
    await visible(secret);
    const token = await secret.inputValue();
    expect(token).toMatch(/^scim_/);
    await visible(e2e.page.getByTestId('scim-token-Entra ID'));
    await screenshot(e2e.page, 'sso-settings-scim');
    const users = await fetch(`${baseUrl}/Users`, { headers: { authorization: `Bearer ${token}` } });
    expect(users.status).toBe(200);
    expect(users.headers.get('content-type')).toMatch(/^application\/scim\+json/);
  });

  it('/sign-in goes straight to the one provider of the organization that verified the domain', async () => {
    const provider = { slug: 'corp', displayName: 'Corp login', type: 'okta', domain: 'acme.okta.com', clientId: 'client', clientSecret: 'secret-value-1234', enabled: true, confirmUntested: true };
    expect((await api('/sso/providers', 'POST', provider)).status()).toBe(201);
    // The provider itself is outside this test: the login start is answered here instead of redirecting to Okta.
    await e2e.page.route('**/api/v1/auth/orgs/acme/login/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'login started' }));
    await e2e.page.goto(`${e2e.server.baseUrl}/sign-in`);
    await e2e.page.getByTestId('sign-in-email').fill('New.Person@ACME.test');
    await e2e.page.getByTestId('sign-in-continue').click();
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/api/v1/auth/orgs/acme/login/corp?redirect=%2Forgs%2Facme`);
  });

  it('/sign-in offers a choice with several providers, and says the same for any address at an unknown domain', async () => {
    const second = { slug: 'entra', displayName: 'Entra ID', type: 'entra', tenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47', clientId: 'client', clientSecret: 'secret-value-1234', enabled: true, confirmUntested: true };
    expect((await api('/sso/providers', 'POST', second)).status()).toBe(201);
    await e2e.page.goto(`${e2e.server.baseUrl}/sign-in`);
    await e2e.page.getByTestId('sign-in-email').fill('owner@acme.test');
    await e2e.page.getByTestId('sign-in-continue').click();
    const choice = e2e.page.getByTestId('sign-in-choice-acme');
    await containsText(choice, 'Acme');
    await containsText(choice, 'Sign in with Corp login');
    await containsText(choice, 'Sign in with Entra ID');
    await screenshot(e2e.page, 'sign-in-by-email-choice');

    for (const email of ['owner@unknown.test', 'nobody@unknown.test']) {
      await e2e.page.goto(`${e2e.server.baseUrl}/sign-in`);
      await e2e.page.getByTestId('sign-in-email').fill(email);
      await e2e.page.getByTestId('sign-in-continue').click();
      await containsText(e2e.page.getByTestId('sign-in-no-destination'), 'No organization signs in with addresses at this domain');
    }
    await screenshot(e2e.page, 'sign-in-by-email-unknown');
  });
});
