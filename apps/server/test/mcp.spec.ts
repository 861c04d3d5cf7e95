import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP_MAX_ANSWER_BYTES, type SyncArtifact, type SyncBundle, type SyncResult } from '@sc/contracts';
import { COLD_WORKER_TIMEOUT, TOPOLOGY, bundle, postSync, sampleArtifacts, syncFile } from './artifacts/bundles';
import { bearer, call, createOrganization, createToken, expectError, memberWithSession, sessionHeaders, type SeededOrganization, useSeededApp } from './support';

/**
 * The MCP server at /mcp over HTTP on loopback, driven by the SDK's own Client and StreamableHTTPClientTransport:
 * the tools with good and bad input, the resources, the token rules of the guard, organization isolation, and answers
 * bounded and paged on a diagram of 1,000 nodes.
 */
jest.setTimeout(240_000);

/** The sample service, its database node bound to the `orders` table by the context (dbConfig.tableName). */
function ordersArtifacts(): SyncArtifact[] {
  const context = {
    name: 'Orders topology',
    nodes: {
      api: { name: 'Orders API' },
      db: { type: 'db-table', dbConfig: { serviceName: 'orders', databaseName: 'orders-db', tableName: 'orders' } },
    },
    edges: { 'api-db': { label: 'writes' } },
  };
  return sampleArtifacts().map((artifact) =>
    artifact.name === 'topology' ? { ...artifact, context: syncFile('.service/diagrams/topology.context.json', JSON.stringify(context, null, 2)) } : artifact,
  );
}

const BIG_NODES = 1000;

/** A flowchart of 1,000 nodes in a chain with a context naming each: its graph alone is well over 100 KB. */
function bigArtifacts(): SyncArtifact[] {
  const ids = Array.from({ length: BIG_NODES }, (_, index) => `component${index}`);
  const mermaid = [
    'flowchart LR',
    ...ids.map((id, index) => `  ${id}[Component ${index} of the large estate]`),
    ...ids.slice(1).map((id, index) => `  ${ids[index]} --> ${id}`),
  ].join('\n');
  const context = { nodes: Object.fromEntries(ids.map((id, index) => [id, { name: `Estate component ${index}`, description: `Part ${index} of the thousand-node fixture.` }])) };
  return [
    {
      kind: 'architecture-diagram',
      name: 'estate',
      file: syncFile('.service/diagrams/estate.mmd', `${mermaid}\n`),
      context: syncFile('.service/diagrams/estate.context.json', JSON.stringify(context)),
    },
  ];
}

const textOf = (result: unknown) => ((result as CallToolResult).content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('\n');
const bytesOf = (result: unknown) => Buffer.byteLength(textOf(result));
const CONTINUES = /\[This answer continues: (\d+) characters in all; call \w+ again with the same arguments and offset=(\d+)\.\]/;

describe('MCP server (/mcp)', () => {
  const clients: Client[] = [];
  // Before the app's close (registered by useSeededApp below): a client's open stream would hold the server open.
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
  });
  // The SQL schema's parser thread starts cold under Jest too (a busy machine took over 30 s).
  const { t, org: acme } = useSeededApp({ orgId: 'acme' }, { env: { ...COLD_WORKER_TIMEOUT, SERVICE_SQL_PARSE_TIMEOUT: '120s' } });
  let globex: SeededOrganization;
  let acmeRead: string;
  let globexRead: string;
  let acmeSync: string;

  async function connect(token: string | null): Promise<Client> {
    const client = new Client({ name: 'mcp-spec', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), token ? { requestInit: { headers: bearer(token) } } : {});
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const tool = async (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  /** A sync that must be stored; a refusal shows its problems (under load, a parse timeout is one). */
  async function sync(token: string, body: SyncBundle): Promise<void> {
    const answer = await postSync<SyncResult>(t.baseUrl, token, body);
    expect({ status: answer.status, refusal: answer.status === 201 ? null : answer.body }).toEqual({ status: 201, refusal: null });
  }

  beforeAll(async () => {
    globex = await createOrganization(t, acme, { orgId: 'globex' });
    acmeSync = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    const globexSync = (await createToken(t, globex.owner, 'globex', { name: 'ci', scopes: ['sync'] })).token;
    acmeRead = (await createToken(t, acme.owner, 'acme', { name: 'assistant', scopes: ['read'] })).token;
    globexRead = (await createToken(t, globex.owner, 'globex', { name: 'assistant', scopes: ['read'] })).token;
    await sync(acmeSync, bundle(ordersArtifacts(), 'orders'));
    // Revision 2 of orders adds a node to the topology (diff_revisions compares 1 and 2).
    const second = ordersArtifacts().map((artifact) =>
      artifact.name === 'topology' ? { ...artifact, file: syncFile(artifact.file.path, `${TOPOLOGY}  api --> cache[(Cache)]\n`) } : artifact,
    );
    await sync(acmeSync, bundle(second, 'orders'));
    await sync(acmeSync, bundle(bigArtifacts(), 'estate'));
    const theirs = bundle(sampleArtifacts(), 'globex-billing');
    theirs.service.description = 'globex-secret-marker';
    await sync(globexSync, theirs);
  });

  it('lists its tools and resources to a read token', async () => {
    const client = await connect(acmeRead);
    const tools = await client.listTools();
    expect(tools.tools.map((entry) => entry.name).sort()).toEqual(['diff_revisions', 'get_diagram', 'get_service', 'list_services', 'search', 'validate_diagram', 'where_used']);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((entry) => entry.uriTemplate).sort()).toEqual([
      'service://{service}/diagrams/{name}',
      'service://{service}/flows/{name}',
      'service://{service}/jobs',
      'service://{service}/schemas/{name}',
      'service://{service}/summary',
    ]);
    const resources = (await client.listResources()).resources.map((entry) => entry.uri);
    expect(resources).toEqual(
      expect.arrayContaining([
        'service://orders/summary',
        'service://orders/diagrams/topology',
        'service://orders/flows/checkout',
        'service://orders/schemas/orders-db',
        'service://orders/jobs',
        'service://estate/diagrams/estate',
      ]),
    );
    expect(resources.some((uri) => uri.includes('globex'))).toBe(false);
    // An admin token reads too, as on the API's read routes.
    const asAdmin = await connect(acme.adminToken);
    expect((await asAdmin.listTools()).tools).toHaveLength(7);
  });

  it('answers search, list_services and get_service, and refuses bad input with a tool error in words', async () => {
    const client = await connect(acmeRead);
    const search = await tool(client, 'search', { query: 'Orders API', kind: 'node' });
    expect(search.isError).toBeFalsy();
    expect(JSON.parse(textOf(search)).hits[0]).toMatchObject({ service: 'orders', artifact: { kind: 'architecture-diagram', name: 'topology' }, element: { kind: 'node', id: 'api' } });

    const services = JSON.parse(textOf(await tool(client, 'list_services', {})));
    expect(services.items.map((item: { name: string }) => item.name)).toEqual(['estate', 'orders']);
    const firstPage = JSON.parse(textOf(await tool(client, 'list_services', { limit: 1 })));
    expect(firstPage.items.map((item: { name: string }) => item.name)).toEqual(['estate']);
    const secondPage = JSON.parse(textOf(await tool(client, 'list_services', { limit: 1, cursor: firstPage.nextCursor })));
    expect(secondPage).toMatchObject({ items: [{ name: 'orders' }], nextCursor: null });

    const service = JSON.parse(textOf(await tool(client, 'get_service', { service: 'orders' })));
    expect(service).toMatchObject({ name: 'orders', revision: 2 });
    expect(service.artifacts.map((artifact: { name: string }) => artifact.name)).toEqual(expect.arrayContaining(['topology', 'checkout', 'orders-db', 'summary']));
    expect(JSON.parse(textOf(await tool(client, 'get_service', { service: 'orders', revision: 1 }))).revision).toBe(1);

    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['search', { query: '' }, /query/i],
      ['search', { query: 'x', kind: 'planet' }, /kind/i],
      ['list_services', { cursor: 'not-a-cursor' }, /cursor/i],
      ['list_services', { limit: 0 }, /limit/i],
      ['get_service', { service: 'nowhere' }, /no service named "nowhere"/],
      ['get_service', { service: 'orders', revision: 9 }, /has no revision 9/],
      ['get_service', {}, /service/],
      ['get_service', { service: 'orders', offset: 10_000_000 }, /offset 10000000 is past the end/],
    ];
    for (const [name, args, words] of cases) {
      const result = await tool(client, name, args);
      expect({ name, args, isError: result.isError, text: textOf(result) }).toEqual({ name, args, isError: true, text: expect.stringMatching(words) });
    }
  });

  it('gives a diagram as Mermaid, context and graph, for the current or an earlier revision, and refuses unknown ones', async () => {
    const client = await connect(acmeRead);
    const whole = textOf(await tool(client, 'get_diagram', { service: 'orders', name: 'topology' }));
    expect(whole).toContain('Diagram "topology" of service "orders", revision 2: flowchart');
    expect(whole).toContain(`--- Mermaid ---\n${TOPOLOGY}  api --> cache[(Cache)]`);
    expect(whole).toContain('"tableName": "orders"');
    const graph = JSON.parse(textOf(await tool(client, 'get_diagram', { service: 'orders', name: 'topology', part: 'graph' })).split('--- Graph (JSON, one node, edge or group per line) ---\n')[1] ?? '');
    expect(graph.nodes.map((node: { id: string }) => node.id)).toEqual(expect.arrayContaining(['api', 'db', 'cache']));
    const earlier = textOf(await tool(client, 'get_diagram', { service: 'orders', name: 'topology', revision: 1, part: 'mermaid' }));
    expect(earlier).toContain('revision 1');
    expect(earlier).not.toContain('cache');

    for (const [args, words] of [
      [{ service: 'orders', name: 'nothing' }, /no architecture diagram named "nothing"/],
      [{ service: 'orders', name: 'topology', revision: 0 }, /revision/],
      [{ service: 'orders', name: 'topology', part: 'everything' }, /part/],
    ] as const) {
      const result = await tool(client, 'get_diagram', args);
      expect([result.isError, textOf(result)]).toEqual([true, expect.stringMatching(words)]);
    }
  });

  it('compares a diagram between revisions', async () => {
    const client = await connect(acmeRead);
    const diff = JSON.parse(textOf(await tool(client, 'diff_revisions', { service: 'orders', name: 'topology', from: 1, to: 2 })));
    expect(diff).toMatchObject({ name: 'topology', from: 1, to: 2, changed: true });
    expect(JSON.stringify(diff.nodes.added)).toContain('cache');
    const refused = await tool(client, 'diff_revisions', { service: 'orders', name: 'topology', from: 1, to: 7 });
    expect([refused.isError, textOf(refused)]).toEqual([true, expect.stringMatching(/has no revision 7/)]);
    const missing = await tool(client, 'diff_revisions', { service: 'orders', name: 'topology', from: 1 });
    expect([missing.isError, textOf(missing)]).toEqual([true, expect.stringMatching(/to/)]);
  });

  it('tells where a table is used: the diagrams binding it, the edges that reach it, and the schema defining it', async () => {
    const client = await connect(acmeRead);
    const answer = JSON.parse(textOf(await tool(client, 'where_used', { name: 'orders' })));
    expect(answer.usedIn).toEqual([
      expect.objectContaining({
        service: 'orders',
        diagram: 'topology',
        node: expect.objectContaining({ id: 'db', dbConfig: expect.objectContaining({ tableName: 'orders' }) }),
        matchedBy: 'dbConfig.tableName',
        incoming: [{ from: 'api', to: 'db', label: 'writes' }],
      }),
    ]);
    expect(answer.definedIn).toEqual([{ service: 'orders', database: 'orders-db', table: 'orders' }]);
    expect(JSON.parse(textOf(await tool(client, 'where_used', { name: 'no-such-table' })))).toMatchObject({ usedIn: [], definedIn: [] });
    const bad = await tool(client, 'where_used', { name: '   ' });
    expect([bad.isError, textOf(bad)]).toEqual([true, expect.stringMatching(/name/)]);
  });

  it('validates Mermaid and context with the sync engine, problems in words with line and path', async () => {
    const client = await connect(acmeRead);
    const valid = await tool(client, 'validate_diagram', { mermaid: TOPOLOGY, context: JSON.stringify({ nodes: { api: { name: 'API' } } }) });
    expect([valid.isError, textOf(valid)]).toEqual([undefined, expect.stringMatching(/^Valid flowchart diagram: 4 nodes, 3 edges, 1 groups\./)]);

    const broken = textOf(await tool(client, 'validate_diagram', { mermaid: 'flowchart LR\n  a --> b\n  c -->> \n' }));
    expect(broken).toMatch(/^Not valid: \d+ problems?\./);
    expect(broken).toMatch(/diagram\.mmd:3/);

    const badContext = textOf(await tool(client, 'validate_diagram', { mermaid: TOPOLOGY, context: '{"nodes": {"api": {"name": 5}}}' }));
    expect(badContext).toMatch(/^Not valid/);
    expect(badContext).toContain('diagram.context.json');
    expect(badContext).toContain('$.nodes.api.name');

    // dbConfig.databaseName is checked against the service's databases when the service is named.
    const bound = JSON.stringify({ nodes: { db: { type: 'db-table', dbConfig: { serviceName: 'orders', databaseName: 'orders-db', tableName: 'orders' } } } });
    expect(textOf(await tool(client, 'validate_diagram', { mermaid: TOPOLOGY, context: bound, service: 'orders' }))).toMatch(/^Valid/);
    expect(textOf(await tool(client, 'validate_diagram', { mermaid: TOPOLOGY, context: bound }))).toMatch(/^Not valid/);

    const empty = await tool(client, 'validate_diagram', { mermaid: '' });
    expect([empty.isError, textOf(empty)]).toEqual([true, expect.stringMatching(/mermaid/)]);
  });

  it('reads each kind of resource, and refuses an unknown one in words', async () => {
    const client = await connect(acmeRead);
    const read = async (uri: string) => (await client.readResource({ uri })).contents.map((content) => ('text' in content ? content.text : '')).join('');
    expect(await read('service://orders/summary')).toBe('# Orders\nTakes orders.\n');
    expect(await read('service://orders/diagrams/topology')).toContain('--- Mermaid ---');
    expect(await read('service://orders/flows/checkout')).toContain('# Checkout');
    expect(await read('service://orders/schemas/orders-db')).toContain('CREATE TABLE orders');
    expect(await read('service://orders/jobs')).toContain('nightly-report');
    await expect(client.readResource({ uri: 'service://orders/diagrams/nothing' })).rejects.toThrow(/no architecture diagram named "nothing"/);
  });

  it('keeps every answer within its limit on the 1,000-node diagram and pages through all of it', async () => {
    const client = await connect(acmeRead);
    for (const part of ['all', 'graph'] as const) {
      const pages: string[] = [];
      let offset: number | undefined = 0;
      while (offset !== undefined) {
        const result = await tool(client, 'get_diagram', { service: 'estate', name: 'estate', part, offset });
        expect(result.isError).toBeFalsy();
        expect(bytesOf(result)).toBeLessThanOrEqual(MCP_MAX_ANSWER_BYTES);
        const [page, note] = result.content.map((content) => (content.type === 'text' ? content.text : ''));
        pages.push(page ?? '');
        const next = note ? CONTINUES.exec(note) : null;
        offset = next ? Number(next[2]) : undefined;
        expect(pages.length).toBeLessThan(50);
      }
      expect(pages.length).toBeGreaterThan(1);
      const whole = pages.join('');
      const graph = JSON.parse(whole.split('--- Graph (JSON, one node, edge or group per line) ---\n')[1] ?? '');
      expect([graph.nodes.length, graph.edges.length]).toEqual([BIG_NODES, BIG_NODES - 1]);
      // Pages end after whole lines: each element of the graph is on one line of one page.
      for (const page of pages.slice(0, -1)) expect(page.endsWith('\n')).toBe(true);
    }
    const resource = await client.readResource({ uri: 'service://estate/diagrams/estate' });
    const text = resource.contents.map((content) => ('text' in content ? content.text : '')).join('');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MCP_MAX_ANSWER_BYTES);
    expect(text).toMatch(/This answer continues/);
    for (const [name, args] of [
      ['where_used', { name: 'component1' }],
      ['search', { query: 'component', limit: 50 }],
      ['get_service', { service: 'estate' }],
    ] as const) {
      expect(bytesOf(await tool(client, name, args))).toBeLessThanOrEqual(MCP_MAX_ANSWER_BYTES);
    }
  });

  it('shows a token of another organization nothing of this one', async () => {
    const client = await connect(globexRead);
    const services = JSON.parse(textOf(await tool(client, 'list_services', {})));
    expect(services.items.map((item: { name: string }) => item.name)).toEqual(['globex-billing']);
    expect(JSON.stringify(JSON.parse(textOf(await tool(client, 'search', { query: 'orders', limit: 50 }))).hits.map((hit: { service: string }) => hit.service))).not.toContain('"orders"');
    expect(JSON.parse(textOf(await tool(client, 'where_used', { name: 'orders' }))).usedIn.every((use: { service: string }) => use.service === 'globex-billing')).toBe(true);
    for (const [name, args] of [
      ['get_service', { service: 'orders' }],
      ['get_diagram', { service: 'estate', name: 'estate' }],
      ['diff_revisions', { service: 'orders', name: 'topology', from: 1, to: 2 }],
      ['validate_diagram', { mermaid: TOPOLOGY, service: 'orders' }],
    ] as const) {
      const result = await tool(client, name, args);
      expect([name, result.isError, textOf(result)]).toEqual([name, true, expect.stringMatching(/There is no service named/)]);
    }
    await expect(client.readResource({ uri: 'service://orders/summary' })).rejects.toThrow(/There is no service named "orders"/);
    expect((await client.listResources()).resources.every((resource) => resource.uri.startsWith('service://globex-billing/'))).toBe(true);
    // The acme marker never reaches globex, and globex's never reaches acme.
    const acmeClient = await connect(acmeRead);
    expect(textOf(await tool(acmeClient, 'search', { query: 'globex-secret-marker' }))).not.toContain('globex-billing');
  });

  it('refuses no token, a session, a token without read, and a token whose creator was removed or disabled', async () => {
    await expect(connect(null)).rejects.toMatchObject({ code: 401, message: expect.stringContaining('authentication_required') });
    await expect(connect(acmeSync)).rejects.toMatchObject({ code: 403, message: expect.stringContaining('insufficient_scope') });

    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const asSession = await call(t.baseUrl, 'POST', '/mcp', { headers: { ...sessionHeaders(acme.owner), accept: 'application/json, text/event-stream' }, body: initialize });
    expectError(asSession, 403, 'token_required');
    expectError(await call(t.baseUrl, 'GET', '/mcp', { headers: bearer(acmeRead) }), 405, 'method_not_allowed');

    const removed = await memberWithSession(t, acme, 'admin');
    const removedToken = (await createToken(t, removed.session, 'acme', { name: 'theirs', scopes: ['read'] })).token;
    const disabled = await memberWithSession(t, acme, 'admin');
    const disabledToken = (await createToken(t, disabled.session, 'acme', { name: 'theirs', scopes: ['read'] })).token;
    // A creator demoted to viewer still reads: the MCP server needs no more than a viewer's rank.
    expect((await call(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${removed.userId}`, { headers: sessionHeaders(acme.owner), body: { role: 'viewer' } })).status).toBe(200);
    const working = await connect(removedToken);
    expect(JSON.parse(textOf(await tool(working, 'list_services', {}))).items).toHaveLength(2);
    expect((await call(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/members/${removed.userId}`, { headers: sessionHeaders(acme.owner) })).status).toBe(204);
    expect((await call(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${disabled.userId}/disable`, { headers: sessionHeaders(acme.owner) })).status).toBe(200);
    for (const token of [removedToken, disabledToken]) {
      await expect(connect(token)).rejects.toMatchObject({ code: 401, message: expect.stringContaining('token_revoked') });
    }
    // A client connected before the removal is refused on its next call.
    await expect(tool(working, 'list_services', {})).rejects.toThrow(/401|token_revoked/);
  });
});
