import { Browser, BrowserContext, Page } from 'playwright-core';
import { containsText, eventually, launchChromium, screenshot, visible, watchForPageProblems } from './support/browser';
import { RunningServer, startServer } from './support/server';
import { pushBundle, setUpOrganization, syncFile as file } from './support/sync';

/**
 * Data lifecycle in a real browser (issue 15): the services list reads the API's pages (100 per page) with
 * "Load more", and an owner deletes a service from its page after typing its name.
 */
describe('paged services list and service deletion in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  const SERVICES = 101;
  const name = (index: number) => `svc-${String(index).padStart(3, '0')}`;

  beforeAll(async () => {
    server = await startServer(`e2e-lifecycle-${Date.now()}-0123456789`);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(20000);
    problems = watchForPageProblems(page);
    const syncToken = await setUpOrganization(server, context);
    for (let index = 0; index < SERVICES; index++) {
      await pushBundle(server, syncToken, { name: name(index), description: `Service number ${index}` }, [
        { kind: 'service-summary', name: 'summary', file: file('.service/service-summary.md', `# ${name(index)}\n`) },
      ]);
    }
  }, 180000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  afterEach(() => expect(problems).toEqual([]));

  it('shows the first 100 services and the rest after "Load more"', async () => {
    await page.goto(`${server.baseUrl}/orgs/acme/services`);
    await containsText(page.locator('table'), name(99));
    expect(await page.locator('tr[mat-row]').count()).toBe(100);
    await page.getByTestId('services-more').scrollIntoViewIfNeeded();
    await screenshot(page, '60-services-load-more');
    await page.getByTestId('services-more').click();
    await containsText(page.locator('table'), name(100));
    expect(await page.locator('tr[mat-row]').count()).toBe(SERVICES);
    expect(await page.getByTestId('services-more').count()).toBe(0);
  });

  it('deletes a service after its name is typed in the confirmation', async () => {
    await page.goto(`${server.baseUrl}/orgs/acme/services/${name(5)}`);
    await page.getByTestId('delete-service').click();
    const confirm = page.getByTestId('delete-service-confirm');
    await visible(confirm);
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByTestId('delete-service-name').fill(name(5));
    await eventually(async () => expect(await confirm.isDisabled()).toBe(false));
    await screenshot(page, '61-delete-service-dialog');
    await confirm.click();
    await page.waitForURL(/\/orgs\/acme\/services$/);
    await containsText(page.locator('table'), name(0));
    await eventually(async () => expect(await page.locator('table').innerText()).not.toContain(name(5)));
    const gone = await context.request.get(`${server.baseUrl}/api/v1/orgs/acme/services/${name(5)}`);
    expect(gone.status()).toBe(404);
  });
});
