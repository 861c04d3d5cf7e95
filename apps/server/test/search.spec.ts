import type { ErrorBody, SearchAnswer, SearchHit, SyncArtifact, SyncResult, WhereUsedAnswer } from '@sc/contracts';
import { COLD_WORKER_TIMEOUT, bundle, postSync, repositoryBundle, sampleArtifacts, syncFile } from './artifacts/bundles';
import { SAMPLE_REPO } from './artifacts/cli-process';
import { bearer, call, createOrganization, createToken, sessionHeaders, type SeededOrganization, useSeeded, useSeededApp } from './support';

/**
 * GET /api/v1/orgs/:orgId/search over HTTP on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * the CLI's fixture repository (its .service.yaml read with the contracts' config rules) synced into "acme", a smaller
 * service into "globex"; hits, ranking and snippets, the index following syncs and deletions, and isolation.
 */
jest.setTimeout(180_000);

describe('organization search', () => {
  const { t, org: acme } = useSeededApp({ orgId: 'acme' }, { env: COLD_WORKER_TIMEOUT });
  const seeded = useSeeded(async () => {
    const globex = await createOrganization(t, acme, { orgId: 'globex' });
    const acmeSync = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    const globexSync = (await createToken(t, globex.owner, 'globex', { name: 'ci', scopes: ['sync'] })).token;
    const fixture = repositoryBundle(SAMPLE_REPO);
    expect((await postSync<SyncResult>(t.baseUrl, acmeSync, fixture)).status).toBe(201);
    // globex has a service of its own whose words overlap the fixture's ("API", "orders", "payments" in a description).
    const theirs = bundle(sampleArtifacts(), 'orders');
    theirs.service.description = 'Takes orders and payments (globex-secret-marker)';
    expect((await postSync<SyncResult>(t.baseUrl, globexSync, theirs)).status).toBe(201);
    return { globex, acmeSync, globexSync, fixture };
  });
  const search = (q: string, extra = '', as: SeededOrganization = acme, orgId = as.organizationId) =>
    call<SearchAnswer & ErrorBody>(t.baseUrl, 'GET', `/api/v1/orgs/${orgId}/search?q=${encodeURIComponent(q)}${extra}`, { headers: sessionHeaders(as.owner) });
  const hitsOf = async (q: string, extra = '', as?: SeededOrganization): Promise<SearchHit[]> => {
    const answer = await search(q, extra, as);
    expect(answer.status).toBe(200);
    return answer.body.hits;
  };
  const element = (hit: SearchHit) => `${hit.service}/${hit.artifact?.name ?? '-'}/${hit.element.kind}:${hit.element.id}`;

  it('finds node labels, context names, data-field values, groups, tables, columns and headings of the fixture', async () => {
    expect((await hitsOf('Settlement worker')).map(element)).toContain('payments/topology/node:worker');
    // A data-field value of the context ("Owner: payments-team") finds the node it describes.
    expect((await hitsOf('payments-team')).map(element)).toContain('payments/topology/node:api');
    expect((await hitsOf('Payments core', '&kind=group')).map(element)).toContain('payments/topology/group:core');
    expect((await hitsOf('accounts', '&kind=table')).map(element)).toContain('payments/ledger/table:accounts');
    expect((await hitsOf('amount_minor')).map(element)).toContain('payments/ledger/column:payments.amount_minor');
    expect((await hitsOf('Refunds', '&kind=heading')).map(element)).toContain('payments/refunds/heading:Refunds');
    expect((await hitsOf('settles card')).map(element)).toContain('payments/-/service:payments');
    const kinds = new Set((await hitsOf('payments', '&limit=50')).map((hit) => hit.element.kind));
    expect([...kinds]).toEqual(expect.arrayContaining(['service', 'node', 'table']));
  });

  it('finds an element by the start of its id, and ranks the exact id first', async () => {
    const prefix = await hitsOf('idempotencyK');
    expect(prefix.map(element)).toContain('payments/topology/node:idempotencyKeys');
    const exact = await hitsOf('ledgerDb');
    expect(element(exact[0] as SearchHit)).toBe('payments/topology/node:ledgerDb');
    expect((exact[0] as SearchHit).artifact).toEqual({ kind: 'architecture-diagram', name: 'topology' });
  });

  it('ranks a title match above a match in the text only, best first, with a marked snippet', async () => {
    const hits = await hitsOf('Fraud rules');
    const ranks = hits.map((hit) => hit.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect((hits[0] as SearchHit).element.title).toMatch(/fraud rules/i);
    const rules = hits.find((hit) => element(hit) === 'payments/topology/node:rules');
    expect(rules?.element).toEqual({ kind: 'node', id: 'rules', title: 'Fraud rules' });
    expect(rules?.snippet).toContain('«Fraud» «rules»');
    // "merchant" is in the title of some elements (the "Merchant checkout" node, the merchant_id columns) and only in
    // the text of others (the tables holding a merchant_id column list their columns): every title match ranks higher.
    const both = await hitsOf('merchant', '&limit=50');
    const titled = both.filter((hit) => /merchant/i.test(hit.element.title));
    const textOnly = both.filter((hit) => !/merchant/i.test(hit.element.title));
    expect(titled.length).toBeGreaterThan(0);
    expect(textOnly.length).toBeGreaterThan(0);
    expect(Math.min(...titled.map((hit) => hit.rank))).toBeGreaterThan(Math.max(...textOnly.map((hit) => hit.rank)));
  });

  it('refuses an empty or too long query, an unknown kind and a bad limit with 400 invalid_search_query, and bounds the hits', async () => {
    for (const [q, extra, path] of [
      ['', '', 'q'],
      ['   ', '', 'q'],
      ['x'.repeat(201), '', 'q'],
      ['api', '&kind=edge', 'kind'],
      ['api', '&limit=0', 'limit'],
      ['api', '&limit=51', 'limit'],
      ['api', '&limit=ten', 'limit'],
      ['api', '&q=again', 'q'],
    ] as const) {
      const answer = await search(q, extra);
      expect([answer.status, answer.body.error?.code, answer.body.error?.details?.[0]?.path]).toEqual([400, 'invalid_search_query', path]);
    }
    // A NUL (which PostgreSQL text cannot hold) is refused by the common input check before the route runs.
    const nul = await search('a\u0000b');
    expect([nul.status, nul.body.error?.code, nul.body.error?.details?.[0]?.path]).toEqual([400, 'validation_failed', 'q']);
    const bounded = await search('payments', '&limit=3');
    expect(bounded.body.hits).toHaveLength(3);
    expect(bounded.body.truncated).toBe(true);
    // Punctuation-only and operator-only queries are no error: they match nothing (or ids that start with them).
    expect((await search('"" - or', '')).status).toBe(200);
  });

  it("never returns another organization's data, and refuses its route with 404", async () => {
    expect((await hitsOf('globex-secret-marker', '', seeded.globex)).map(element)).toEqual(['orders/-/service:orders']);
    expect(await hitsOf('globex-secret-marker')).toEqual([]);
    expect((await hitsOf('Orders API')).map((hit) => hit.service)).not.toContain('orders');
    const foreign = await search('payments', '', acme, 'globex');
    expect([foreign.status, foreign.body.error?.code]).toEqual([404, 'organization_not_found']);
    const foreignToken = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/globex/search?q=orders', { headers: bearer(acme.adminToken) });
    expect([foreignToken.status, foreignToken.body.error?.code]).toEqual([404, 'organization_not_found']);
  });

  it('tells where a table is used: every diagram of the organization binding it, across services, never another organization\'s', async () => {
    // A second acme service binds the fixture's ledger table "entries" (and one of another database); globex binds it too.
    const bindingEntries = (service: string): SyncArtifact[] => [
      {
        kind: 'architecture-diagram',
        name: 'reporting',
        file: syncFile('.service/diagrams/reporting.mmd', 'flowchart LR\n  job[Nightly job] --> ledgerCopy[(Ledger entries)]\n  job --> archived[(Archived entries)]\n'),
        context: syncFile(
          '.service/diagrams/reporting.context.json',
          JSON.stringify({
            nodes: {
              ledgerCopy: { type: 'db-table', dbConfig: { serviceName: service, databaseName: 'ledger', tableName: 'Entries' } },
              archived: { type: 'db-table', dbConfig: { serviceName: service, databaseName: 'archive', tableName: 'entries' } },
            },
          }),
        ),
      },
      { kind: 'database-schema', name: 'ledger', engine: 'postgres', file: syncFile('.service/schemas/ledger.sql', 'CREATE TABLE other (id int);\n') },
      { kind: 'database-schema', name: 'archive', engine: 'postgres', file: syncFile('.service/schemas/archive.sql', 'CREATE TABLE entries (id int);\n') },
    ];
    expect((await postSync<SyncResult>(t.baseUrl, seeded.acmeSync, bundle(bindingEntries('reports'), 'reports'))).status).toBe(201);
    expect((await postSync<SyncResult>(t.baseUrl, seeded.globexSync, bundle(bindingEntries('globex-reports'), 'globex-reports'))).status).toBe(201);
    const whereUsed = (query: string, headers: Record<string, string> = sessionHeaders(acme.owner), orgId = 'acme') =>
      call<WhereUsedAnswer & ErrorBody>(t.baseUrl, 'GET', `/api/v1/orgs/${orgId}/search/where-used?${query}`, { headers });
    const nodesOf = (answer: WhereUsedAnswer) => answer.usedIn.map((hit) => `${hit.service}/${hit.diagram}/${hit.node.id}`).sort();

    const all = await whereUsed('table=entries');
    expect(all.status).toBe(200);
    expect(nodesOf(all.body)).toEqual(['payments/topology/ledgerEntries', 'reports/reporting/archived', 'reports/reporting/ledgerCopy']);
    expect(all.body.usedIn.every((hit) => hit.matchedBy === 'dbConfig.tableName')).toBe(true);
    expect(all.body.usedIn.find((hit) => hit.node.id === 'ledgerEntries')).toMatchObject({ node: { label: 'ledger.entries', type: 'db-table' }, incoming: [expect.objectContaining({ from: 'api' })] });
    expect(all.body).toMatchObject({ table: 'entries', database: null, truncated: false });
    expect(all.body.definedIn.map((definition) => `${definition.service}/${definition.database}`).sort()).toEqual(['payments/ledger', 'reports/archive']);

    // A read token answers too; with a database, nodes naming another database are left out.
    const read = (await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
    const ledger = await whereUsed('table=ENTRIES&database=ledger', bearer(read));
    expect([ledger.status, nodesOf(ledger.body)]).toEqual([200, ['payments/topology/ledgerEntries', 'reports/reporting/ledgerCopy']]);
    expect(ledger.body.definedIn).toEqual([{ service: 'payments', database: 'ledger', table: 'entries' }]);

    // globex sees its own binding only.
    expect(nodesOf((await whereUsed('table=entries', sessionHeaders(seeded.globex.owner), 'globex')).body)).toEqual(['globex-reports/reporting/archived', 'globex-reports/reporting/ledgerCopy']);
    const foreign = await whereUsed('table=entries', sessionHeaders(acme.owner), 'globex');
    expect([foreign.status, foreign.body.error?.code]).toEqual([404, 'organization_not_found']);

    // A table nobody binds (a node labelled like it does not bind it): an empty list.
    expect((await whereUsed('table=no_such_table')).body).toEqual({ table: 'no_such_table', database: null, usedIn: [], definedIn: [], truncated: false });
    expect((await whereUsed('table=job')).body.usedIn).toEqual([]);
    for (const [query, path] of [['', 'table'], ['table=%20%20', 'table'], [`table=${'x'.repeat(201)}`, 'table'], ['table=a&table=b', 'table'], [`table=a&database=${'d'.repeat(201)}`, 'database']]) {
      const bad = await whereUsed(query);
      expect([bad.status, bad.body.error?.code, bad.body.error?.details?.[0]?.path]).toEqual([400, 'invalid_search_query', path]);
      expect(bad.body.error?.message).toMatch(/table|database/);
    }
    expect((await call(t.baseUrl, 'DELETE', '/api/v1/orgs/acme/services/reports', { headers: sessionHeaders(acme.owner) })).status).toBe(204);
  });

  it('follows the next sync: a removed node is no longer found, a new one is', async () => {
    const withoutPsp = structuredClone(seeded.fixture);
    const topology = withoutPsp.artifacts.find((artifact) => artifact.name === 'topology');
    if (!topology) throw new Error('The fixture has no topology diagram.');
    const content = topology.file.content.replace('  api --> psp[Card processor]\n', '  api --> fx[Currency exchange]\n').replace('  pspLogo[PSP logo] -.- psp\n', '');
    expect(content).not.toContain('psp[');
    topology.file = syncFile(topology.file.path, content);
    // The context names the removed nodes: drop their overlays so the sync stays valid.
    const context = JSON.parse(topology.context?.content ?? '{}') as { nodes: Record<string, unknown> };
    delete context.nodes['psp'];
    delete context.nodes['pspLogo'];
    topology.context = syncFile(topology.context?.path ?? '', JSON.stringify(context));
    expect((await hitsOf('Card processor')).map(element)).toContain('payments/topology/node:psp');
    const synced = await postSync<SyncResult & ErrorBody>(t.baseUrl, seeded.acmeSync, withoutPsp);
    expect([synced.status, synced.body.revision]).toEqual([201, 2]);
    expect((await hitsOf('Card processor')).map(element)).not.toContain('payments/topology/node:psp');
    expect((await hitsOf('psp', '&kind=node&limit=50')).filter((hit) => hit.artifact?.name === 'topology')).toEqual([]);
    expect((await hitsOf('Currency exchange')).map(element)).toContain('payments/topology/node:fx');
  });

  it('after an unchanged sync: rewrites the service entry only, and indexes a service that has no entries yet', async () => {
    const services = (await t.dataSource.query(`SELECT id FROM services WHERE organization_id = 'globex' AND name = 'orders'`)) as Array<{ id: string }>;
    const serviceId = services[0]?.id;
    const count = async () => ((await t.dataSource.query('SELECT count(*)::int AS n FROM search_entries WHERE service_id = $1', [serviceId])) as Array<{ n: number }>)[0]?.n;
    const before = await count();
    // Row ids are a sequence: rewritten rows get new ones.
    const nodeRowIds = async () => ((await t.dataSource.query(`SELECT id FROM search_entries WHERE service_id = $1 AND element_kind <> 'service' ORDER BY id`, [serviceId])) as Array<{ id: string }>).map((row) => String(row.id));
    const rowIds = await nodeRowIds();
    const renamed = bundle(sampleArtifacts(), 'orders');
    renamed.service.description = 'Takes orders (globex-renamed-marker)';
    expect((await postSync<SyncResult>(t.baseUrl, seeded.globexSync, renamed)).body.status).toBe('unchanged');
    expect((await hitsOf('globex-renamed-marker', '', seeded.globex)).map(element)).toEqual(['orders/-/service:orders']);
    expect(await hitsOf('globex-secret-marker', '', seeded.globex)).toEqual([]);
    expect(await count()).toBe(before);
    expect(await nodeRowIds()).toEqual(rowIds);
    // As for a service synced before the index existed: only its service entry is there.
    await t.dataSource.query(`DELETE FROM search_entries WHERE service_id = $1 AND element_kind <> 'service'`, [serviceId]);
    expect(await hitsOf('Orders API', '', seeded.globex)).toEqual([]);
    expect((await postSync<SyncResult>(t.baseUrl, seeded.globexSync, renamed)).body.status).toBe('unchanged');
    expect((await hitsOf('Orders API', '', seeded.globex)).map(element)).toContain('orders/topology/node:api');
    expect(await count()).toBe(before);
  });

  it("drops a deleted service's entries and keeps the others", async () => {
    expect((await call(t.baseUrl, 'DELETE', '/api/v1/orgs/acme/services/payments', { headers: sessionHeaders(acme.owner) })).status).toBe(204);
    expect(await hitsOf('payments', '&limit=50')).toEqual([]);
    expect(await hitsOf('Settlement')).toEqual([]);
    const rows = (await t.dataSource.query(`SELECT count(*)::int AS n FROM search_entries WHERE organization_id = 'acme'`)) as Array<{ n: number }>;
    expect(rows[0]?.n).toBe(0);
    expect(await hitsOf('globex-renamed-marker', '', seeded.globex)).toHaveLength(1);
  });
});
