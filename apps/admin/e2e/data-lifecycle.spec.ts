import { containsText, eventually, screenshot, visible } from './support/browser';
import { useE2eSession } from './support/session';
import { pushBundle, syncFile as file } from './support/sync';

/**
 * Data lifecycle in a real browser (issue 15): the services list reads the API's pages (100 per page) with
 * "Load more", and an owner deletes a service from its page after typing its name.
 */
describe('paged services list and service deletion in a real browser', () => {
  const e2e = useE2eSession({ setupToken: `e2e-lifecycle-${Date.now()}-0123456789`, browser: { viewport: { width: 1400, height: 900 } }, timeout: 20000, organization: true });
  const SERVICES = 101;
  const name = (index: number) => `svc-${String(index).padStart(3, '0')}`;

  beforeAll(async () => {
    for (let index = 0; index < SERVICES; index++) {
      await pushBundle(e2e.server, e2e.syncToken, { name: name(index), description: `Service number ${index}` }, [
        { kind: 'service-summary', name: 'summary', file: file('.service/service-summary.md', `# ${name(index)}\n`) },
      ]);
    }
  }, 180000);

  it('shows the first 100 services and the rest after "Load more"', async () => {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services`);
    await containsText(e2e.page.locator('table'), name(99));
    expect(await e2e.page.locator('tr[mat-row]').count()).toBe(100);
    await e2e.page.getByTestId('services-more').scrollIntoViewIfNeeded();
    await screenshot(e2e.page, '60-services-load-more');
    await e2e.page.getByTestId('services-more').click();
    await containsText(e2e.page.locator('table'), name(100));
    expect(await e2e.page.locator('tr[mat-row]').count()).toBe(SERVICES);
    expect(await e2e.page.getByTestId('services-more').count()).toBe(0);
  });

  it('deletes a service after its name is typed in the confirmation', async () => {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/${name(5)}`);
    await e2e.page.getByTestId('delete-service').click();
    const confirm = e2e.page.getByTestId('delete-service-confirm');
    await visible(confirm);
    expect(await confirm.isDisabled()).toBe(true);
    await e2e.page.getByTestId('delete-service-name').fill(name(5));
    await eventually(async () => expect(await confirm.isDisabled()).toBe(false));
    await screenshot(e2e.page, '61-delete-service-dialog');
    await confirm.click();
    await e2e.page.waitForURL(/\/orgs\/acme\/services$/);
    await containsText(e2e.page.locator('table'), name(0));
    await eventually(async () => expect(await e2e.page.locator('table').innerText()).not.toContain(name(5)));
    const gone = await e2e.context.request.get(`${e2e.server.baseUrl}/api/v1/orgs/acme/services/${name(5)}`);
    expect(gone.status()).toBe(404);
  });
});
