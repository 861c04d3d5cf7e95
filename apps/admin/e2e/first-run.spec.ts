import { createHash } from 'node:crypto';
import { containsText, eventually, screenshot, visible } from './support/browser';
import { useE2eSession } from './support/session';

/**
 * Issue 2 "done when": the printed setup URL leads in a real browser to a working owner session, and the members
 * and tokens pages work. One ordered story through the built server and admin app.
 */
describe('first run in a real browser', () => {
  const setupToken = `e2e-setup-${Date.now()}-0123456789`;
  const e2e = useE2eSession({ setupToken, browser: { viewport: { width: 1280, height: 860 } }, timeout: 15000 });

  async function bearer(token: string, path: string): Promise<Response> {
    return fetch(`${e2e.server.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  }

  it('says it waits for setup without printing the configured token; the setup URL with the token opens the setup page', async () => {
    expect(e2e.server.logs()).toContain(`Open ${e2e.server.baseUrl}/setup and enter the token configured in SERVICE_SETUP_TOKEN`);
    expect(e2e.server.logs()).not.toContain(setupToken);
    await e2e.page.goto(e2e.server.setupUrl);
    await visible(e2e.page.getByRole('heading', { name: 'Set up System Context' }));
    // The token came with the URL, so the page does not ask for it.
    await eventually(async () => expect(await e2e.page.getByLabel('Setup token').count()).toBe(0));
    await screenshot(e2e.page, '01-setup');
  });

  it('validates the form, then creates the organization and owner and shows the admin token once', async () => {
    await e2e.page.getByRole('button', { name: 'Create organization' }).click();
    await visible(e2e.page.getByText("Enter the organization's name."));
    await visible(e2e.page.getByText("Enter the owner's email address."));
    await screenshot(e2e.page, '02-setup-validation');

    await e2e.page.getByLabel('Organization name').fill('Acme Corp');
    await eventually(async () => expect(await e2e.page.getByLabel('Organization ID').inputValue()).toBe('acme-corp'));
    await e2e.page.getByLabel('Email').fill('owner@acme.test');
    await e2e.page.getByLabel('Display name').fill('Olga Owner');
    await e2e.page.getByRole('button', { name: 'Create organization' }).click();

    await visible(e2e.page.getByRole('heading', { name: 'Your organization is ready' }));
    await visible(e2e.page.getByText('Copy it now — it is shown only once.'));
    const adminToken = await e2e.page.getByTestId('one-time-secret').inputValue();
    expect(adminToken.length).toBeGreaterThan(20);
    await screenshot(e2e.page, '03-setup-admin-token');

    // The token shown is a working admin token of the new organization.
    const me = await bearer(adminToken, '/api/v1/me');
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ kind: 'token', organization: { id: 'acme-corp' }, scopes: ['admin'] });
  });

  it('continues to the organization home with an owner session', async () => {
    await e2e.page.getByRole('button', { name: /continue to Acme Corp/ }).click();
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/orgs/acme-corp`);
    await eventually(async () => expect((await e2e.page.getByTestId('org-title').innerText()).trim()).toBe('Acme Corp'));
    await eventually(async () => expect((await e2e.page.getByTestId('org-name').innerText()).trim()).toBe('Acme Corp'));
    await visible(e2e.page.getByText('You are owner of this organization.'));
    await screenshot(e2e.page, '04-org-home');
  });

  it('adds a member on the members page and changes their role', async () => {
    await e2e.page.getByRole('navigation', { name: 'Organization sections' }).getByRole('link', { name: 'Members', exact: true }).click();
    await e2e.page.waitForURL(/\/orgs\/acme-corp\/members$/);
    await visible(e2e.page.getByRole('heading', { name: 'Members', level: 1 }));

    const form = e2e.page.getByTestId('member-add-form');
    await form.getByLabel('Email').fill('dev@acme.test');
    await form.getByLabel('Display name').fill('Dana Developer');
    await form.getByRole('combobox', { name: 'Role' }).click();
    await e2e.page.getByRole('option', { name: 'editor' }).click();
    await form.getByRole('button', { name: 'Add member' }).click();
    await visible(e2e.page.getByText('Dana Developer was added as editor.'));
    // The emptied form does not greet the next entry with errors.
    expect(await form.getByText('Enter an email address.').count()).toBe(0);

    const row = e2e.page.getByRole('row', { name: /Dana Developer/ });
    await containsText(row, 'dev@acme.test');
    await containsText(row.getByRole('combobox', { name: 'Role of Dana Developer' }), 'editor');

    await row.getByRole('combobox', { name: 'Role of Dana Developer' }).click();
    await e2e.page.getByRole('option', { name: 'admin' }).click();
    await visible(e2e.page.getByText('Dana Developer is now admin.'));
    await screenshot(e2e.page, '05-members');

    // The change is stored, not only shown: read it back through the API with the browser's session.
    const members = (await (await e2e.page.request.get(`${e2e.server.baseUrl}/api/v1/orgs/acme-corp/members`)).json()) as {
      email: string;
      role: string;
    }[];
    expect(members.find((m) => m.email === 'dev@acme.test')?.role).toBe('admin');
  });

  it("mints a one-time sign-in link that signs the member in, and disabling the member ends that access", async () => {
    await e2e.page.getByRole('button', { name: 'Actions for Dana Developer' }).click();
    await e2e.page.getByRole('menuitem', { name: 'Create one-time sign-in link' }).click();
    const dialog = e2e.page.getByRole('dialog');
    await containsText(dialog, 'Anyone with this link can sign in as this member.');
    const link = await dialog.getByTestId('one-time-secret').inputValue();
    expect(link.startsWith(`${e2e.server.baseUrl}/sign-in-link#`)).toBe(true);
    await screenshot(e2e.page, '05b-sign-in-link');
    await dialog.getByRole('button', { name: 'Done' }).click();

    // Dana opens the link in her own browser.
    const danaContext = await e2e.browser.newContext({ viewport: { width: 1280, height: 860 } });
    try {
      const dana = await danaContext.newPage();
      // Opening the link (as a chat preview would) signs nobody in; only the button does.
      await dana.goto(link);
      await containsText(dana.getByTestId('sign-in-link-question'), 'Sign in to Acme Corp as dev@acme.test?');
      await screenshot(dana, '05b2-sign-in-link-confirm');
      await dana.getByRole('button', { name: 'Sign in' }).click();
      await dana.waitForURL(`${e2e.server.baseUrl}/orgs/acme-corp`);
      await containsText(dana.getByTestId('user-menu'), 'Dana Developer');
      await containsText(dana.locator('nav'), 'API tokens'); // Dana is admin now
      // Single use: the same link does not work twice.
      const replayPage = await danaContext.newPage();
      await replayPage.goto(link);
      await containsText(replayPage.getByTestId('sign-in-link-error'), 'Ask an owner of your organization for a new one-time sign-in link.');
      await containsText(replayPage.getByTestId('sign-in-link-error'), 'already used');
      expect(replayPage.url()).toBe(link);
      await replayPage.close();

      // The owner disables Dana; her session stops working.
      await e2e.page.getByRole('button', { name: 'Actions for Dana Developer' }).click();
      await e2e.page.getByRole('menuitem', { name: 'Disable' }).click();
      await e2e.page.getByRole('dialog').getByRole('button', { name: 'Disable member' }).click();
      await containsText(e2e.page.getByRole('row', { name: /Dana Developer/ }), 'Disabled');
      await screenshot(e2e.page, '05c-member-disabled');
      const refused = await danaContext.request.get(`${e2e.server.baseUrl}/api/v1/orgs/acme-corp/members`);
      expect([401, 403]).toContain(refused.status());

      await e2e.page.getByRole('button', { name: 'Actions for Dana Developer' }).click();
      await e2e.page.getByRole('menuitem', { name: 'Enable' }).click();
      await containsText(e2e.page.getByRole('row', { name: /Dana Developer/ }), 'Active');
    } finally {
      await danaContext.close();
    }
  });

  it('creates an API token that is shown once, then revokes it', async () => {
    await e2e.page.getByRole('navigation', { name: 'Organization sections' }).getByRole('link', { name: 'API tokens', exact: true }).click();
    await e2e.page.waitForURL(/\/orgs\/acme-corp\/tokens$/);
    await e2e.page.getByRole('button', { name: 'Create token' }).click();
    await e2e.page.getByLabel('Name').fill('CI pipeline');
    await e2e.page.getByRole('checkbox', { name: /read/ }).check();
    await e2e.page.getByTestId('token-create').click();

    await visible(e2e.page.getByText('Token “CI pipeline” created'));
    const secret = await e2e.page.getByTestId('one-time-secret').inputValue();
    const row = e2e.page.getByTestId('token-row-CI pipeline');
    await containsText(row, 'Active');
    await containsText(row, 'sync');
    await containsText(row, 'read');
    // Only the prefix is listed, never the secret.
    expect(await e2e.page.locator('table').innerText()).not.toContain(secret);
    await screenshot(e2e.page, '06-token-created');
    expect((await bearer(secret, '/api/v1/me')).status).toBe(200);

    // Shown once: after leaving and coming back, the secret is gone from the page.
    await e2e.page.getByRole('navigation', { name: 'Organization sections' }).getByRole('link', { name: 'Overview', exact: true }).click();
    await e2e.page.getByRole('navigation', { name: 'Organization sections' }).getByRole('link', { name: 'API tokens', exact: true }).click();
    await visible(e2e.page.getByTestId('token-row-CI pipeline'));
    await eventually(async () => expect(await e2e.page.getByTestId('one-time-secret').count()).toBe(0));

    await e2e.page.getByRole('button', { name: 'Revoke token CI pipeline' }).click();
    await containsText(e2e.page.getByRole('dialog'), 'Anything using');
    await screenshot(e2e.page, '07-token-revoke-confirm');
    await e2e.page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await containsText(e2e.page.getByTestId('token-row-CI pipeline'), 'Revoked');
    await screenshot(e2e.page, '08-token-revoked');
    expect((await bearer(secret, '/api/v1/me')).status).toBe(401);
  });

  it('shows how a pipeline installs service-cli from this server, with the package’s SHA-256', async () => {
    // The server's build packed the CLI (dist/cli-package); the page shows the public URL the server was given.
    const command = e2e.page.getByTestId('cli-install-command');
    await visible(command);
    expect(await command.inputValue()).toBe(`npm install -g ${e2e.server.baseUrl}/downloads/service-cli.tgz`);
    const served = Buffer.from(await (await fetch(`${e2e.server.baseUrl}/downloads/service-cli.tgz`)).arrayBuffer());
    await containsText(e2e.page.getByTestId('cli-sha256'), `sha256: ${createHash('sha256').update(served).digest('hex')}`);
    await screenshot(e2e.page, '08b-cli-install');
  });

  it('creates a second organization and is signed in to it; switching back means signing in to the first one', async () => {
    await e2e.page.getByTestId('user-menu').click();
    await e2e.page.getByRole('menuitem', { name: 'New organization…' }).click();
    const dialog = e2e.page.getByRole('dialog');
    await dialog.getByLabel('Organization name').fill('Globex');
    await eventually(async () => expect(await dialog.getByLabel('Organization ID').inputValue()).toBe('globex'));
    await dialog.getByRole('button', { name: 'Create organization' }).click();
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/orgs/globex`);
    await eventually(async () => expect((await e2e.page.getByTestId('org-name').innerText()).trim()).toBe('Globex'));
    await visible(e2e.page.getByText('You are owner of this organization.'));
    await screenshot(e2e.page, '08b-second-organization');

    // The switcher lists the organization this browser was signed in to, and leads to its sign-in page.
    await e2e.page.getByTestId('user-menu').click();
    await visible(e2e.page.getByTestId('switch-acme-corp'));
    await screenshot(e2e.page, '08c-organization-switcher');
    await e2e.page.getByRole('menuitem', { name: /Acme Corp/ }).click();
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/orgs/acme-corp/sign-in`);
    await visible(e2e.page.getByRole('heading', { name: 'Sign in' }));
    // Acme has no SSO: the page says how to get in (a link from an owner); the Globex session does not open it.
    await visible(e2e.page.getByTestId('sign-in-unavailable'));
    await screenshot(e2e.page, '08d-switch-needs-sign-in');
    expect((await e2e.page.request.get(`${e2e.server.baseUrl}/api/v1/orgs/acme-corp/members`)).status()).toBe(404);

    // The Globex session is still there until another sign-in replaces it.
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/globex`);
    await eventually(async () => expect((await e2e.page.getByTestId('org-title').innerText()).trim()).toBe('Globex'));
  });

  it('signs out, after which the organization pages need a new sign-in', async () => {
    await e2e.page.getByTestId('user-menu').click();
    await e2e.page.getByRole('menuitem', { name: 'Sign out' }).click();
    // No SSO provider has let anyone in yet: the warning comes first (sign-out-warning.spec.ts covers it).
    await e2e.page.getByTestId('sign-out-anyway').click();
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/signed-out`);
    await visible(e2e.page.getByRole('heading', { name: 'You are signed out' }));
    await screenshot(e2e.page, '09-signed-out');

    // The session is gone on the server, and organization pages lead to the organization's sign-in page.
    expect((await e2e.page.request.get(`${e2e.server.baseUrl}/api/v1/me`)).status()).toBe(401);
    await e2e.page.getByTestId('sign-in-again').click();
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/orgs/globex/sign-in`);
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme-corp/members`);
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/orgs/acme-corp/sign-in?redirect=%2Forgs%2Facme-corp%2Fmembers`);
    await visible(e2e.page.getByRole('heading', { name: 'Sign in' }));
    await screenshot(e2e.page, '10-sign-in-needed');
  });
});
