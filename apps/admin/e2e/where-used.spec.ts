import { eventually, screenshot, visible } from './support/browser';
import { useE2eSession } from './support/session';
import { pushBundle, syncFile as file } from './support/sync';

const SCHEMA = 'CREATE TABLE entries (\n  id uuid PRIMARY KEY,\n  amount_minor bigint NOT NULL\n);\n';
/** A db-table node bound to ledger's `entries` table, under the given node id and name. */
const bound = (id: string, name: string) =>
  JSON.stringify({ name: 'Bindings', nodes: { [id]: { type: 'db-table', name, dbConfig: { serviceName: 'payments', databaseName: 'ledger', tableName: 'entries' } } } });

/**
 * "Where is this used" in the browser (issue 30): from a schema table card and from a db-table node's details, the
 * diagrams that bind the table are listed, and a hit opens its diagram at that node.
 */
describe('where is this used', () => {
  const e2e = useE2eSession({ setupToken: `e2e-where-used-${Date.now()}-0123456789`, browser: { viewport: { width: 1280, height: 720 } }, timeout: 20000, organization: true });

  beforeAll(async () => {
    await pushBundle(e2e.server, e2e.syncToken, { name: 'payments', description: 'Takes card payments.' }, [
      { kind: 'architecture-diagram', name: 'topology', file: file('.service/diagrams/topology.mmd', 'flowchart LR\n  api[Payments API] --> entries[(Entries)]\n'), context: file('.service/diagrams/topology.context.json', bound('entries', 'ledger.entries')) },
      { kind: 'architecture-diagram', name: 'reporting', file: file('.service/diagrams/reporting.mmd', 'flowchart LR\n  job[Nightly report] --> ledgerRows[(Ledger rows)]\n'), context: file('.service/diagrams/reporting.context.json', bound('ledgerRows', 'Ledger rows')) },
      { kind: 'database-schema', name: 'ledger', engine: 'postgres', file: file('.service/schemas/ledger.sql', SCHEMA) },
    ]);
  });

  it('lists the diagrams binding a table from its schema card and from a node, and opens a hit at its node', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.baseUrl}/orgs/acme/services/payments/databases/ledger`);
    const card = page.locator('#table-entries');
    await visible(card);
    await card.getByTestId('where-used').click();
    await visible(card.getByTestId('where-used-list'));
    await eventually(async () => expect(await card.getByTestId('where-used-hit').count()).toBe(2));
    expect((await card.getByTestId('where-used-list').innerText()).replace(/\s+/g, ' ')).toMatch(/reporting.*Ledger rows|Ledger rows.*reporting/);
    await screenshot(page, 'where-used-schema-card');

    await page.goto(`${server.baseUrl}/orgs/acme/services/payments/diagrams/topology?node=entries`);
    await visible(page.getByTestId('where-used'));
    await page.getByTestId('where-used').click();
    await eventually(async () => expect(await page.getByTestId('where-used-hit').count()).toBe(2));
    await screenshot(page, 'where-used-node-details');
    await page.getByTestId('where-used-hit').filter({ hasText: 'Ledger rows' }).click();
    await eventually(async () => expect(page.url()).toContain('/orgs/acme/services/payments/diagrams/reporting?node=ledgerRows'));
    await visible(page.locator('[data-node-id="ledgerRows"]'));
  });
});
