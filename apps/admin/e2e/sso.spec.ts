// The same certified oidc-provider set-up (client, interactions) that the server's integration tests drive,
// from the shared test library.
import { OidcIdp } from '@sc/testing-idp';
import type { BrowserContext, Page } from 'playwright-core';
import { containsText, eventually, openWatchedPage, screenshot, visible } from './support/browser';
import { useE2eSession } from './support/session';

/**
 * Issue 3 "done when", in a real browser: an owner configures a generic provider against a real OpenID
 * provider (oidc-provider on 127.0.0.1, confidential client_secret_post client), copies the callback URL,
 * runs a test sign-in, signs out, signs in through the organization's sign-in page, and sees an
 * understandable page for each failure. Needs NODE_OPTIONS=--experimental-vm-modules: the harness loads
 * the ESM-only oidc-provider with import().
 */
describe('organization SSO in a real browser', () => {
  const setupToken = `e2e-sso-setup-${Date.now()}-0123456789`;
  const orgId = 'acme-corp';
  const slug = 'acme-idp';
  const clientId = 'system-context';
  const clientSecret = 'e2e-client-secret-5b0c1f7e9a';
  const e2e = useE2eSession({ setupToken, browser: { viewport: { width: 1280, height: 900 } }, timeout: 15000 });
  let idp: OidcIdp;
  let callbackUrl: string;

  beforeAll(async () => {
    callbackUrl = `${e2e.server.baseUrl}/api/v1/auth/orgs/${orgId}/callback/${slug}`;
    idp = await OidcIdp.start({
      clientId,
      clientSecret,
      redirectUris: [callbackUrl],
      accounts: {
        olga: { email: 'owner@acme.test', name: 'Olga Owner', groups: ['platform-admins'] },
        eve: { email: 'eve@elsewhere.test', name: 'Eve Outsider' },
        nina: { email: 'nina@acme.test', name: 'Nina Newcomer' },
      },
    });
    await e2e.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.baseUrl });
  });

  afterAll(() => idp?.close());

  /** Answers the provider's login and consent pages until the browser leaves the provider. */
  async function completeIdpLogin(target: Page, account: string, shotPrefix?: string): Promise<void> {
    for (let step = 0; step < 4 && new URL(target.url()).origin === idp.issuer; step++) {
      const form = target.locator('form[data-prompt]');
      const prompt = await form.getAttribute('data-prompt');
      if (prompt === 'login') await target.locator('input[name=login]').fill(account);
      if (shotPrefix) await screenshot(target, `${shotPrefix}-idp-${prompt ?? 'page'}`);
      await Promise.all([target.waitForNavigation(), form.getByRole('button', { name: 'Continue' }).click()]);
    }
  }

  async function startAtSignInPage(target: Page): Promise<void> {
    await target.goto(`${e2e.server.baseUrl}/orgs/${orgId}/sign-in`);
    await visible(target.getByRole('link', { name: 'Sign in with Acme Login' }));
    await Promise.all([target.waitForURL((url) => url.origin === idp.issuer), target.getByRole('link', { name: 'Sign in with Acme Login' }).click()]);
  }

  it('sets up the organization with an owner session', async () => {
    await e2e.page.goto(e2e.server.setupUrl);
    await e2e.page.getByLabel('Organization name').fill('Acme Corp');
    await eventually(async () => expect(await e2e.page.getByLabel('Organization ID').inputValue()).toBe(orgId));
    await e2e.page.getByLabel('Email').fill('owner@acme.test');
    await e2e.page.getByLabel('Display name').fill('Olga Owner');
    await e2e.page.getByRole('button', { name: 'Create organization' }).click();
    await e2e.page.getByRole('button', { name: /continue to Acme Corp/ }).click();
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/orgs/${orgId}`);
    await visible(e2e.page.getByText('You are owner of this organization.'));
  });

  it('opens the SSO settings from the navigation, with no providers yet', async () => {
    await e2e.page.getByRole('navigation', { name: 'Organization sections' }).getByRole('link', { name: 'Single sign-on', exact: true }).click();
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/orgs/${orgId}/settings/sso`);
    await visible(e2e.page.getByTestId('providers-empty'));
    await containsText(e2e.page.getByTestId('sign-in-page-url'), `/orgs/${orgId}/sign-in`);
    await screenshot(e2e.page, 'sso-01-settings-empty');
  });

  it('shows only the chosen type’s fields and previews the derived endpoints', async () => {
    await e2e.page.getByTestId('provider-new').click();
    await e2e.page.waitForURL(/\/settings\/sso\/new$/);
    await visible(e2e.page.getByLabel('Authorization URL'));

    await e2e.page.getByRole('radio', { name: 'Okta' }).click();
    await eventually(async () => expect(await e2e.page.getByLabel('Authorization URL').count()).toBe(0));
    await e2e.page.getByLabel('Okta domain').fill('https://acme.okta.com/');
    await e2e.page.getByLabel('Okta domain').blur();
    await visible(e2e.page.getByText('Enter the hostname only, e.g. acme.okta.com'));
    await e2e.page.getByLabel('Okta domain').fill('acme.okta.com');
    await containsText(e2e.page.getByTestId('endpoint-preview'), 'https://acme.okta.com/oauth2/v1/authorize');
    await screenshot(e2e.page, 'sso-02-okta-preview');

    await e2e.page.getByRole('radio', { name: 'Microsoft Entra ID' }).click();
    await e2e.page.getByLabel('Directory (tenant) ID').fill('72f988bf-86f1-41af-91ab-2d7cd011db47');
    await containsText(e2e.page.getByTestId('endpoint-preview'), 'https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/oauth2/v2.0/token');
    await containsText(e2e.page.getByTestId('endpoint-preview'), 'https://graph.microsoft.com/oidc/userinfo');
    expect(await e2e.page.getByLabel('Okta domain').count()).toBe(0);
    await screenshot(e2e.page, 'sso-03-entra-preview');

    await e2e.page.getByRole('radio', { name: /Generic/ }).click();
    await visible(e2e.page.getByLabel('Authorization URL'));
  });

  it('imports the endpoints from the provider’s discovery document', async () => {
    await e2e.page.getByLabel('Issuer URL').fill(idp.issuer);
    await e2e.page.getByTestId('discovery-import').click();
    await containsText(e2e.page.getByTestId('discovery-result'), 'Endpoints imported');
    await containsText(e2e.page.getByTestId('discovery-post'), 'supports client_secret_post');
    expect(await e2e.page.getByLabel('Authorization URL').inputValue()).toBe(`${idp.issuer}/auth`);
    expect(await e2e.page.getByLabel('Token URL').inputValue()).toBe(`${idp.issuer}/token`);
    expect(await e2e.page.getByLabel('UserInfo URL').inputValue()).toBe(`${idp.issuer}/me`);
    await containsText(e2e.page.getByTestId('endpoint-preview'), `${idp.issuer}/token`);
    await screenshot(e2e.page, 'sso-04-discovery');
  });

  it('shows the server’s validation message next to the field, then creates the provider', async () => {
    await e2e.page.getByLabel('Display name').fill('Acme Login');
    await e2e.page.getByLabel('Slug').fill(slug);
    await e2e.page.getByLabel('Client ID').fill(clientId);
    await e2e.page.getByLabel('Client secret').fill(clientSecret);
    // A quote is not a valid scope token: only the server knows, and says so under the field.
    await e2e.page.getByLabel('Scopes').fill('openid email profile "groups');
    await e2e.page.getByLabel('Allowed email domains').fill('acme.test');
    await e2e.page.getByTestId('rule-add').click();
    await e2e.page.getByTestId('rule-0').getByLabel('Value').fill('platform-admins');
    await e2e.page.getByTestId('rule-add').click();
    await e2e.page.getByTestId('rule-1').getByLabel('Claim').fill('email');
    await e2e.page.getByTestId('rule-1').getByLabel('Value').fill('@acme.test');
    // Reordering: the first matching rule wins, so the order is what the admin sets.
    await e2e.page.getByRole('button', { name: 'Move rule 2 up' }).click();
    await eventually(async () => expect(await e2e.page.getByTestId('rule-0').getByLabel('Claim').inputValue()).toBe('email'));
    await e2e.page.getByRole('button', { name: 'Move rule 1 down' }).click();
    await eventually(async () => expect(await e2e.page.getByTestId('rule-0').getByLabel('Claim').inputValue()).toBe('groups'));

    await e2e.page.getByTestId('provider-save').click();
    const scopesField = e2e.page.locator('mat-form-field', { has: e2e.page.getByLabel('Scopes') });
    await containsText(scopesField, 'is not a valid scope token');
    await screenshot(e2e.page, 'sso-05-server-validation');

    await e2e.page.getByLabel('Scopes').fill('openid email profile groups');
    await e2e.page.getByTestId('provider-save').click();
    await e2e.page.waitForURL(new RegExp(`/settings/sso/${slug}\\?tab=configuration`));
    await visible(e2e.page.getByTestId('provider-created'));
  });

  it('shows the callback URL on the Configuration tab and copies exactly the registered value', async () => {
    expect(await e2e.page.getByTestId('callback-url').inputValue()).toBe(callbackUrl);
    // A loopback http callback is fine for tests: no warning.
    expect(await e2e.page.getByTestId('callback-warning').count()).toBe(0);
    await e2e.page.getByTestId('callback-copy').click();
    await containsText(e2e.page.getByTestId('callback-copy'), 'Copied');
    const copied = await e2e.page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(callbackUrl);
    expect(idp.options.redirectUris).toContain(copied);
    await screenshot(e2e.page, 'sso-06-configuration');
  });

  it('keeps the slug and the secret write-only when editing', async () => {
    await e2e.page.getByRole('tab', { name: 'Settings' }).click();
    expect(await e2e.page.getByLabel('Slug').isDisabled()).toBe(true);
    await visible(e2e.page.getByTestId('slug-immutable'));
    await containsText(e2e.page.getByTestId('secret-state'), 'Set');
    expect(await e2e.page.content()).not.toContain(clientSecret);
    const rules = e2e.page.locator('[data-testid^=rule-]').filter({ has: e2e.page.getByLabel('Claim') });
    expect(await rules.count()).toBe(2);
    await screenshot(e2e.page, 'sso-07-edit');
  });

  it('runs a test sign-in and shows the report without signing anyone in', async () => {
    await e2e.page.getByRole('tab', { name: 'Configuration' }).click();
    await Promise.all([e2e.page.waitForURL((url) => url.origin === idp.issuer), e2e.page.getByTestId('provider-test').click()]);
    await completeIdpLogin(e2e.page, 'olga', 'sso-08');
    await e2e.page.waitForURL((url) => url.pathname.startsWith(`/api/v1/auth/orgs/${orgId}/callback/${slug}`));
    await visible(e2e.page.getByRole('heading', { name: `Test sign-in report: ${slug}` }));
    await containsText(e2e.page.locator('body'), 'The sign-in would succeed');
    await containsText(e2e.page.locator('body'), 'owner@acme.test');
    // Olga is the owner: her membership keeps its role whatever the claim rules say, and the report says why.
    await containsText(e2e.page.locator('[data-outcome]'), 'with the role owner: this person\'s membership was created by hand');
    expect(await e2e.page.locator('body').innerText()).not.toContain('manual_membership_unchanged');
    await screenshot(e2e.page, 'sso-09-test-report');
    // Not followed: going back to the report would reload the one-time callback.
    expect(await e2e.page.getByRole('link', { name: 'Back to SSO settings' }).getAttribute('href')).toBe(`/orgs/${orgId}/settings/sso/${slug}`);
    await e2e.page.getByRole('link', { name: 'Run the test again' }).click();
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/orgs/${orgId}/settings/sso/${slug}?tab=configuration`);
    await visible(e2e.page.getByTestId('provider-test'));
  });

  it('enables the provider after its passed test without a confirmation, and lists the test', async () => {
    await e2e.page.getByRole('tab', { name: 'Settings' }).click();
    await e2e.page.getByTestId('provider-enabled').click();
    await e2e.page.getByTestId('provider-save').click();
    await containsText(e2e.page.locator('body'), '“Acme Login” saved.');
    expect(await e2e.page.locator('mat-dialog-container').count()).toBe(0);
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/${orgId}/settings/sso`);
    await containsText(e2e.page.getByTestId(`last-test-${slug}`), 'Passed');
    await screenshot(e2e.page, 'sso-09b-providers-tested');
  });

  it('signs out, then signs in through the organization sign-in page', async () => {
    await e2e.page.getByTestId('user-menu').click();
    await e2e.page.getByRole('menuitem', { name: 'Sign out' }).click();
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/signed-out`);

    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/${orgId}/sign-in`);
    await visible(e2e.page.getByRole('link', { name: 'Sign in with Acme Login' }));
    const href = await e2e.page.getByRole('link', { name: 'Sign in with Acme Login' }).getAttribute('href');
    expect(href).toBe(`/api/v1/auth/orgs/${orgId}/login/${slug}?redirect=${encodeURIComponent(`/orgs/${orgId}`)}`);
    await screenshot(e2e.page, 'sso-10-sign-in-page');

    await Promise.all([e2e.page.waitForURL((url) => url.origin === idp.issuer || url.origin === e2e.server.baseUrl), e2e.page.getByRole('link', { name: 'Sign in with Acme Login' }).click()]);
    await completeIdpLogin(e2e.page, 'olga');
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/orgs/${orgId}`);
    await eventually(async () => expect((await e2e.page.getByTestId('org-name').innerText()).trim()).toBe('Acme Corp'));
    await visible(e2e.page.getByText('You are owner of this organization.'));
    await screenshot(e2e.page, 'sso-11-signed-in');
  });

  describe('failures, in a fresh browser', () => {
    let failing: BrowserContext;
    let failPage: Page;
    let failProblems: string[];

    beforeEach(async () => {
      failing = await e2e.browser.newContext({ viewport: { width: 1280, height: 800 } });
      ({ page: failPage, problems: failProblems } = await openWatchedPage(failing, 15000));
    });

    afterEach(async () => {
      expect(failProblems).toEqual([]);
      await failing.close();
    });

    it('explains a sign-in from an email domain that is not allowed', async () => {
      await startAtSignInPage(failPage);
      await completeIdpLogin(failPage, 'eve');
      await visible(failPage.getByRole('heading', { name: 'This email domain is not allowed' }));
      expect(await failPage.locator('[data-error-code]').innerText()).toBe('email_domain_not_allowed');
      await containsText(failPage.locator('body'), 'What to do');
      await screenshot(failPage, 'sso-13-error-domain');

      // Reloading the callback replays a consumed state: a different, equally readable page.
      await failPage.reload();
      expect(await failPage.locator('[data-error-code]').innerText()).toBe('invalid_or_expired_state');
      await screenshot(failPage, 'sso-14-error-replayed-state');

      await visible(failPage.getByRole('heading', { name: 'This sign-in cannot be completed' }));
      await containsText(failPage.locator('[data-error-message]'), 'This sign-in attempt was already used:');

      await failPage.getByRole('link', { name: 'Back to sign-in' }).click();
      await failPage.waitForURL(`${e2e.server.baseUrl}/orgs/${orgId}/sign-in?error=invalid_or_expired_state`);
      await containsText(failPage.getByTestId('sign-in-error'), 'Your sign-in took too long or was already used.');
      await visible(failPage.getByRole('link', { name: 'Sign in with Acme Login' }));
      // Nobody was signed in.
      expect((await failPage.request.get(`${e2e.server.baseUrl}/api/v1/me`)).status()).toBe(401);
    });

    it('explains that sign-up is off for a person who is not a member', async () => {
      await startAtSignInPage(failPage);
      await completeIdpLogin(failPage, 'nina');
      await visible(failPage.getByRole('heading', { name: 'You are not a member yet' }));
      expect(await failPage.locator('[data-error-code]').innerText()).toBe('signup_disabled');
      await screenshot(failPage, 'sso-15-error-signup');
    });

    it('explains a sign-in the person cancelled at the provider', async () => {
      // The harness has no "cancel" button: answer the callback the way a provider reports a refusal.
      const authorization = failPage.waitForRequest((request) => request.url().startsWith(`${idp.issuer}/auth?`));
      await startAtSignInPage(failPage);
      const state = new URL((await authorization).url()).searchParams.get('state') ?? '';
      await failPage.goto(`${callbackUrl}?error=access_denied&error_description=${encodeURIComponent('The user cancelled the sign-in.')}&state=${encodeURIComponent(state)}`);
      expect(await failPage.locator('[data-error-code]').innerText()).toBe('provider_error');
      await containsText(failPage.locator('body'), 'access_denied');
      expect(await failPage.locator('[data-error-message]').innerText()).toBe('The identity provider refused the sign-in: access_denied — The user cancelled the sign-in.');
      await containsText(failPage.locator('body'), 'If you cancelled at the provider, simply start again.');
      await screenshot(failPage, 'sso-19-error-cancelled');
    });

    it('shows a readable message on the sign-in page when sent back with an error, and nothing for an unknown organization', async () => {
      await failPage.goto(`${e2e.server.baseUrl}/orgs/${orgId}/sign-in?error=email_domain_not_allowed`);
      await containsText(failPage.getByTestId('sign-in-error'), 'Your email domain is not allowed');
      await screenshot(failPage, 'sso-16-sign-in-with-error');

      await failPage.goto(`${e2e.server.baseUrl}/orgs/no-such-org/sign-in`);
      await visible(failPage.getByTestId('sign-in-unavailable'));
      expect(await failPage.getByRole('link', { name: /Sign in with/ }).count()).toBe(0);
      await screenshot(failPage, 'sso-17-sign-in-unavailable');
    });
  });

  it('lists every attempt, failures included, in the audit log', async () => {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/${orgId}/settings/sso?tab=audit`);
    const table = e2e.page.getByTestId('audit-table');
    await visible(table);
    // The test sign-in, the sign-in, the refused domain, its replayed state, the refused newcomer, the cancellation.
    await eventually(async () => expect(await table.locator('tr[mat-row]').count()).toBe(6));
    const rows = await table.locator('tr[mat-row]').allInnerTexts();
    expect(rows[0]).toContain('provider_error');
    expect(rows[1]).toContain('signup_disabled');
    expect(rows.filter((row) => row.includes('invalid_or_expired_state'))).toHaveLength(1);
    expect(rows.find((row) => row.includes('nina@acme.test'))).toContain('signup_disabled');
    expect(rows.find((row) => row.includes('eve@elsewhere.test'))).toContain('email_domain_not_allowed');
    expect(rows.filter((row) => row.includes('success'))).toHaveLength(2);
    // Oldest last: the test sign-in, flagged as such.
    expect(rows[5]).toContain('test');
    await screenshot(e2e.page, 'sso-12-audit');

    await e2e.page.getByRole('combobox', { name: 'Outcome' }).click();
    await e2e.page.getByRole('option', { name: 'Failure' }).click();
    await eventually(async () => expect(await table.locator('tr[mat-row]').count()).toBe(4));
    await screenshot(e2e.page, 'sso-18-audit-failures');
  });

  it('reports where a test sign-in fails after the secret was replaced with a wrong one', async () => {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/${orgId}/settings/sso/${slug}`);
    await e2e.page.getByTestId('secret-replace').click();
    await e2e.page.getByLabel('New client secret').fill('not-the-secret');
    await e2e.page.getByTestId('provider-save').click();
    await containsText(e2e.page.getByTestId('secret-state'), 'Set');
    expect(await e2e.page.content()).not.toContain('not-the-secret');

    await e2e.page.getByRole('tab', { name: 'Configuration' }).click();
    await Promise.all([e2e.page.waitForURL((url) => url.origin === idp.issuer || url.pathname.includes('/callback/')), e2e.page.getByTestId('provider-test').click()]);
    await completeIdpLogin(e2e.page, 'olga');
    await visible(e2e.page.getByRole('heading', { name: `Test sign-in report: ${slug}` }));
    expect(await e2e.page.locator('[data-error-code]').innerText()).toBe('token_exchange_failed');
    await containsText(e2e.page.locator('body'), 'client_secret_post');
    await containsText(e2e.page.locator('[data-claim-rules-summary]'), 'The claim rules were not evaluated: the test stopped at the token exchange');
    await screenshot(e2e.page, 'sso-20-test-report-failure');
  });
});
