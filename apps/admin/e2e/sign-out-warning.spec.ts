import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR, containsText, eventually, visible } from './support/browser';
import { useE2eSession } from './support/session';
import { syncFile } from './support/sync';


async function reviewShot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

/**
 * Issue 23, "Lockout", in a real browser: the owner of an organization whose SSO has never let anyone in is warned
 * before signing out, gets a sign-in link for themselves (shown once), signs out and comes back with it. Then the
 * "who did what" pages as an admin reads them: members' "Added by", tokens' "Created by", the revisions' "Synced by"
 * and the audit log.
 */
describe('sign-out warning and who did what, in a real browser', () => {
  const e2e = useE2eSession({ setupToken: `e2e-trust-${Date.now()}-0123456789`, browser: { viewport: { width: 1280, height: 720 } }, timeout: 20000, organization: true });
  let link = '';

  it('warns before signing out while no SSO provider has let anyone in, and offers the owner a sign-in link once', async () => {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme`);
    await e2e.page.getByTestId('user-menu').click();
    await e2e.page.getByRole('menuitem', { name: 'Sign out' }).click();
    const warning = e2e.page.getByTestId('sign-out-warning');
    await visible(warning);
    await containsText(warning, 'Acme has no enabled single sign-on provider');
    await reviewShot(e2e.page, 'sign-out-warning');

    await e2e.page.getByTestId('sign-out-get-link').click();
    const field = e2e.page.locator('sc-one-time-secret input');
    await visible(field);
    link = await field.inputValue();
    expect(link).toMatch(/\/sign-in-link#.+/);
    // Shown once: the button to get another is gone.
    expect(await e2e.page.getByTestId('sign-out-get-link').count()).toBe(0);
    await reviewShot(e2e.page, 'sign-out-warning-link');

    await e2e.page.getByTestId('sign-out-anyway').click();
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/signed-out`);
    expect((await e2e.page.request.get(`${e2e.server.baseUrl}/api/v1/me`)).status()).toBe(401);
  });

  it('comes back with that link', async () => {
    await e2e.page.goto(link);
    await e2e.page.getByTestId('sign-in-link-confirm').click();
    await e2e.page.waitForURL(`${e2e.server.baseUrl}/orgs/acme`);
    await visible(e2e.page.getByText('You are owner of this organization.'));
  });

  it('keeps staying signed in when the person changes their mind', async () => {
    await e2e.page.getByTestId('user-menu').click();
    await e2e.page.getByRole('menuitem', { name: 'Sign out' }).click();
    await visible(e2e.page.getByTestId('sign-out-warning'));
    await e2e.page.getByTestId('sign-out-cancel').click();
    await eventually(async () => expect(await e2e.page.getByTestId('sign-out-warning').count()).toBe(0));
    expect((await e2e.page.request.get(`${e2e.server.baseUrl}/api/v1/me`)).status()).toBe(200);
  });

  it('shows who added whom, who created each token, who synced what from where, and the audit log in words', async () => {
    const api = (path: string, method: string, data?: unknown) => e2e.page.request.fetch(`${e2e.server.baseUrl}/api/v1/orgs/acme${path}`, { method, data, headers: { 'x-csrf-token': csrf } });
    const csrf = (await e2e.context.cookies()).find((cookie) => cookie.name === 'sc_csrf')?.value ?? '';
    expect((await api('/members', 'POST', { email: 'dana@acme.test', role: 'editor', displayName: 'Dana Developer' })).status()).toBe(201);
    const provider = { slug: 'corp', displayName: 'Corp login', type: 'okta', domain: 'acme.okta.com', clientId: 'client', clientSecret: 'secret-value-1234' };
    expect((await api('/sso/providers', 'POST', provider)).status()).toBe(201);
    const sync = await fetch(`${e2e.server.baseUrl}/api/v1/gateway/sync`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.syncToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        version: 1,
        service: { name: 'orders', repositoryUrl: 'https://github.com/acme/orders' },
        artifacts: [{ kind: 'service-summary', name: 'summary', file: syncFile('.service/service-summary.md', '# Orders\n') }],
        source: { commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', branch: 'main', ciRunUrl: 'https://github.com/acme/orders/actions/runs/42' },
      }),
    });
    expect(sync.status).toBe(201);

    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/members`);
    await containsText(e2e.page.locator('table'), 'First-run setup');
    await containsText(e2e.page.locator('table'), 'Added by owner@acme.test');
    await reviewShot(e2e.page, 'members');

    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/tokens`);
    await containsText(e2e.page.locator('table'), 'Olga Owner');
    await reviewShot(e2e.page, 'tokens');

    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/settings/sso`);
    await containsText(e2e.page.getByTestId('last-test-corp'), 'Never tested');
    await reviewShot(e2e.page, 'sso-providers');

    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/orders`);
    await containsText(e2e.page.getByTestId('synced-by-1'), 'owner@acme.test with CI');
    await containsText(e2e.page.getByTestId('source-1'), 'on main');
    await e2e.page.getByTestId('source-1').scrollIntoViewIfNeeded();
    await reviewShot(e2e.page, 'revisions');

    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/audit?target=rder`);
    await containsText(e2e.page.getByTestId('audit-table'), 'Service synced');
    expect(await e2e.page.getByTestId('audit-target').inputValue()).toBe('rder');
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/audit`);
    await containsText(e2e.page.getByTestId('audit-table'), 'SSO provider created');
    await reviewShot(e2e.page, 'audit-log');
  });
});
