import { eventually, visible } from './support/browser';
import { useE2eSession } from './support/session';
import { pushBundle, syncFile as file } from './support/sync';

/**
 * The organization search (issue 30) in the browser: Ctrl+K on an organization page opens it, a node hit opens the
 * diagram at `?node=`, on a diagram page Ctrl+K stays the canvas's node search and Ctrl+Shift+K opens the
 * organization's, and a column hit opens the schema at its table.
 */
describe('organization search', () => {
  const e2e = useE2eSession({ setupToken: `e2e-search-${Date.now()}-0123456789`, browser: { viewport: { width: 1400, height: 900 } }, timeout: 20000, organization: true });

  beforeAll(async () => {
    await pushBundle(e2e.server, e2e.syncToken, { name: 'payments', description: 'Takes card payments.' }, [
      { kind: 'architecture-diagram', name: 'topology', file: file('.service/diagrams/topology.mmd', 'flowchart LR\n  api[Payments API] --> ledgerDb[(Ledger DB)]\n') },
      { kind: 'database-schema', name: 'ledger', engine: 'postgres', file: file('.service/schemas/ledger.sql', 'CREATE TABLE entries (\n  id uuid PRIMARY KEY,\n  amount_minor bigint NOT NULL\n);\n') },
    ]);
  });

  it('finds a node and a column across the organization and opens each where it is', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.baseUrl}/orgs/acme/services`);
    await visible(page.getByTestId('open-org-search'));
    await page.keyboard.press('Control+k');
    await page.getByTestId('org-search').fill('Ledger DB');
    await visible(page.getByTestId('search-hit'));
    await page.getByTestId('search-hit').first().click();
    await eventually(async () => expect(page.url()).toContain('/orgs/acme/services/payments/diagrams/topology?node=ledgerDb'));

    await visible(page.getByTestId('diagram-search'));
    await page.keyboard.press('Control+k');
    await eventually(async () => expect(await page.getByTestId('diagram-search').evaluate((box) => box === document.activeElement)).toBe(true));
    expect(await page.getByTestId('org-search').count()).toBe(0);

    await page.keyboard.press('Control+Shift+K');
    await page.getByTestId('org-search').fill('amount_minor');
    await visible(page.getByTestId('search-hit'));
    await page.getByTestId('org-search').press('Enter');
    await eventually(async () => expect(page.url()).toContain('/orgs/acme/services/payments/databases/ledger#table-entries'));
    await visible(page.locator('#table-entries'));
  });
});
