import { readFileSync } from 'node:fs';
import { containsText, eventually, screenshot, visible } from './support/browser';
import { useE2eSession } from './support/session';
import { pushBundle, syncFile as file } from './support/sync';

const DIAGRAM = `flowchart LR
  user([Customer])
  subgraph edge [Edge]
    web[Web app]
    gw[API gateway]
  end
  subgraph core [Payments core]
    api[Payments API]
    worker[Settlement worker]
  end
  db[(Payments DB)]
  user --> web
  web -->|HTTPS| gw
  gw --> api
  api -->|enqueue| worker
  worker --> db
  api --> db
`;
const FLOW = `sequenceDiagram
  participant C as Customer
  participant A as Payments API
  C->>A: POST /payments
  A-->>C: 201 Created
`;
const SCHEMA = `CREATE TABLE payments (
  id UUID PRIMARY KEY,
  amount NUMERIC(12,2) NOT NULL,
  customer_id UUID NOT NULL REFERENCES customers(id),
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE customers (id UUID PRIMARY KEY, email TEXT UNIQUE NOT NULL);
`;
const SUMMARY = '# Payments\n\nTakes card payments and settles them nightly. <script>alert(1)</script>\n';
const CONTEXT = JSON.stringify({
  name: 'Payments overview',
  description: 'How a card payment travels from the customer to the ledger.',
  nodes: { api: { style: { fill: '#dbeafe', stroke: '#1e40af' } }, db: { type: 'shape', shape: 'database' } },
});

/** Services area: a synced service, its detail page, and a diagram with group collapse and Mermaid export. */
describe('services and diagrams in a real browser', () => {
  // Signed in as the owner; CI pushes with a token that has the sync scope, as the dashboard tells people to create.
  const e2e = useE2eSession({ setupToken: `e2e-services-${Date.now()}-0123456789`, browser: { viewport: { width: 1400, height: 900 }, acceptDownloads: true }, timeout: 20000, organization: true });

  /** Pushes a bundle exactly as service-cli sync does. */
  async function sync(artifacts: unknown[]): Promise<void> {
    await pushBundle(e2e.server, e2e.syncToken, { name: 'payments', description: 'Takes card payments.', repositoryUrl: 'https://example.com/acme/payments' }, artifacts);
  }

  function bundle(diagram: string) {
    return [
      {
        kind: 'architecture-diagram',
        name: 'overview',
        file: file('.service/diagrams/overview.mmd', diagram),
        context: file('.service/diagrams/overview.context.json', CONTEXT),
      },
      {
        kind: 'flow',
        name: 'create-payment',
        file: file('.service/flows/create-payment.mmd', FLOW),
        notes: file('.service/flows/create-payment.md', 'Idempotent by the Idempotency-Key header.\n'),
      },
      { kind: 'database-schema', name: 'payments-db', engine: 'postgres', file: file('.service/schemas/payments.sql', SCHEMA) },
      { kind: 'service-summary', name: 'summary', file: file('.service/service-summary.md', SUMMARY) },
    ];
  }

  beforeAll(() => sync(bundle(DIAGRAM)));

  it('lists the synced service and shows its artifacts and revisions', async () => {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services`);
    await containsText(e2e.page.locator('table'), 'payments');
    await containsText(e2e.page.locator('table'), 'Takes card payments.');
    await screenshot(e2e.page, '20-services');

    await e2e.page.getByRole('link', { name: 'payments' }).click();
    await e2e.page.waitForURL(/\/orgs\/acme\/services\/payments$/);
    await containsText(e2e.page.getByRole('table', { name: 'Artifacts' }), '.service/diagrams/overview.mmd');
    await containsText(e2e.page.getByRole('table', { name: 'Revisions' }), '4 added');
    // The revision picker ends the row of facts (it stood alone on a row of its own, leaving a gap above them).
    await visible(e2e.page.getByTestId('revision-picker'));
    const facts = await e2e.page.locator('dl.facts').boundingBox();
    const picker = await e2e.page.getByTestId('revision-picker').boundingBox();
    const middle = (picker?.y ?? 0) + (picker?.height ?? 0) / 2;
    expect([middle > (facts?.y ?? 0), middle < (facts?.y ?? 0) + (facts?.height ?? 0)]).toEqual([true, true]);
    expect(picker?.x ?? 0).toBeGreaterThan((facts?.x ?? 0) + (facts?.width ?? 0));
    await screenshot(e2e.page, '21-service-detail');
  });

  it('draws the diagram, collapses and expands a group, and exports the synced Mermaid plus context', async () => {
    await e2e.page.getByRole('link', { name: 'View diagram overview' }).click();
    await e2e.page.waitForURL(/\/services\/payments\/diagrams\/overview$/);
    await visible(e2e.page.getByRole('heading', { name: 'Payments overview' }));
    const canvas = e2e.page.getByTestId('diagram-canvas');
    await visible(canvas.locator('[data-node-id=api]'));
    await containsText(canvas, 'Payments API');
    // Long labels wrap into separate SVG lines, so look for one word.
    await containsText(canvas, 'Settlement');
    await screenshot(e2e.page, '22-diagram');

    await e2e.page.getByRole('button', { name: 'Collapse Payments core' }).click();
    await visible(canvas.locator('[data-group-id=core]').getByRole('button', { name: 'Show details', exact: true }));
    await eventually(async () => expect(await canvas.innerText()).not.toContain('Settlement'));
    expect(await e2e.page.getByRole('button', { name: 'Expand Payments core' }).getAttribute('aria-pressed')).toBe('true');
    await screenshot(e2e.page, '23-diagram-collapsed');

    await e2e.page.getByRole('button', { name: 'Expand Payments core' }).click();
    await containsText(canvas, 'Settlement');

    const downloads: { name: string; text: string }[] = [];
    e2e.page.on('download', (download) => {
      void download.path().then((path) => downloads.push({ name: download.suggestedFilename(), text: readFileSync(path, 'utf8') }));
    });
    // Export is one menu in the page's header: SVG, PNG and Export to Mermaid with what it gives.
    await e2e.page.getByTestId('export-menu').click();
    await containsText(e2e.page.getByTestId('export-mermaid-kind'), 'Exact files as synced in revision');
    await e2e.page.getByTestId('export-mermaid').click();
    await eventually(async () => expect(downloads.map((d) => d.name).sort()).toEqual(['overview.context.json', 'overview.mmd']));
    // A synced diagram is exported as the files it was synced from, byte for byte.
    expect(downloads.find((d) => d.name === 'overview.mmd')?.text).toBe(DIAGRAM);
    expect(downloads.find((d) => d.name === 'overview.context.json')?.text).toBe(CONTEXT);
  });

  it('shows a flow with its notes, a database schema and the summary as markdown', async () => {
    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/payments`);
    await e2e.page.getByRole('link', { name: 'View flow create-payment' }).click();
    await e2e.page.waitForURL(/\/flows\/create-payment$/);
    // A sequence flow is drawn by Mermaid from its source (SequenceDiagramComponent).
    await containsText(e2e.page.getByTestId('sequence-diagram'), 'Payments API');
    await containsText(e2e.page.getByTestId('artifact-notes'), 'Idempotency-Key');
    await screenshot(e2e.page, '24-flow');

    await e2e.page.getByRole('link', { name: 'payments' }).click();
    await e2e.page.getByRole('link', { name: 'View schema payments-db' }).click();
    await e2e.page.waitForURL(/\/databases\/payments-db$/);
    const columns = e2e.page.getByRole('table', { name: 'Columns of payments' });
    await containsText(columns, 'numeric(12, 2)'); // as PostgreSQL's parser prints the type (libpg-query + pgsql-deparser)
    await containsText(columns, 'customers.id');
    await screenshot(e2e.page, '25-database');

    await e2e.page.getByRole('link', { name: 'payments' }).click();
    await e2e.page.getByRole('link', { name: 'Read summary summary' }).click();
    await e2e.page.waitForURL(/\/summary$/);
    // Rendered as markdown; the script in it is dropped, neither run nor shown.
    await containsText(e2e.page.getByTestId('artifact-text'), 'Takes card payments and settles them nightly.');
    expect(await e2e.page.getByTestId('artifact-text').innerText()).not.toContain('alert(1)');
    await screenshot(e2e.page, '26-summary');
  });

  it('shows what a later sync changed, and earlier revisions on request', async () => {
    await sync(bundle(DIAGRAM.replace('  db[(Payments DB)]\n', '  db[(Payments DB)]\n  fraud[Fraud check]\n  api --> fraud\n')));

    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/payments/diagrams/overview`);
    const changes = e2e.page.getByTestId('diagram-changes');
    await containsText(changes, 'Changes since revision 1');
    await containsText(changes, 'added node fraud Fraud check');
    await containsText(changes, 'added edge api → fraud');
    await eventually(async () => expect(await e2e.page.getByTestId('diagram-canvas').locator('[data-node-id=fraud]').getAttribute('data-status')).toBe('added'));
    await screenshot(e2e.page, '27-diagram-changes');

    await e2e.page.goto(`${e2e.server.baseUrl}/orgs/acme/services/payments`);
    await containsText(e2e.page.getByRole('table', { name: 'Revisions' }), '1 changed');
    await e2e.page.getByRole('link', { name: 'Show revision 1' }).click();
    await e2e.page.waitForURL(/\/services\/payments\?revision=1$/);
    await containsText(e2e.page.getByTestId('old-revision'), 'You are viewing revision 1 of 2');
    await e2e.page.getByRole('link', { name: 'View diagram overview' }).click();
    await e2e.page.waitForURL(/\/diagrams\/overview\?revision=1$/);
    await containsText(e2e.page.getByTestId('diagram-canvas'), 'Payments API');
    await eventually(async () => expect(await e2e.page.getByTestId('diagram-canvas').innerText()).not.toContain('Fraud'));
    await screenshot(e2e.page, '28-diagram-revision-1');
  });
});
