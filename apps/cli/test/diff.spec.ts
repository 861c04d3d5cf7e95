import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ServiceRevisionFiles } from '@sc/contracts';
import { parseMermaid } from '@sc/diagram/node';
import { checkDiagram } from '../src/lib/diagram-check';
import { DIFF_COMMENT_MARKER } from '../src/lib/diff-format';
import type { DiffJson } from '../src/lib/output-types';
import { loadSync } from '../src/lib/prepare-sync';
import { runDiff, type DiffOptions } from '../src/lib/run-diff';
import { captureIo } from './support/capture-io';
import { CLI_VERSION, startGatewayServer, type GatewayServer, type RecordedRequest } from './support/gateway-server';
import { createTempRepo, MINIMAL_REPO, type TempRepo } from './support/temp-repo';

/**
 * `service-cli diff` against a fake gateway on 127.0.0.1 answering the read API (GET /me, GET …/files), and
 * against another checkout: every output and exit code. The built binary runs in built-cli.spec.ts.
 */
const TOKEN = 'sc_read_diff_test_0123456789abcdef';
const SCHEMA_DIR = path.join(__dirname, '../../../docs/schema');
const ajv = new Ajv({ allErrors: true, strict: true, schemas: ['cli-output-common', 'cli-sync-output', 'cli-diff-output'].map((name) => JSON.parse(readFileSync(path.join(SCHEMA_DIR, `${name}.schema.json`), 'utf8')) as object) });
const validate = ajv.getSchema('cli-diff-output.schema.json');

const DIAGRAM = 'flowchart LR\n  subgraph core[Core]\n    api[Orders API] --> db[(Orders DB)]\n  end\n  web[Web] --> api\n';
const SCHEMA = `-- Billing (PostgreSQL)
CREATE TABLE public.invoices (id bigint NOT NULL, customer text NOT NULL, amount numeric(10,2), note text);
ALTER TABLE ONLY public.invoices ADD CONSTRAINT invoices_pkey PRIMARY KEY (id);
CREATE TABLE public.legacy_exports (id int PRIMARY KEY);
`;
const REPO = {
  ...MINIMAL_REPO,
  '.service.yaml': `${MINIMAL_REPO['.service.yaml']}architectureDiagrams:\n  - name: topology\n    path: .service/diagrams/topology.mmd\n    contextPath: .service/diagrams/topology.context.json\ndatabases:\n  - name: ledger\n    engine: postgres\n    schemaPath: .service/schemas/ledger.sql\n`,
  '.service/schemas/ledger.sql': SCHEMA,
  '.service/diagrams/topology.mmd': DIAGRAM,
  '.service/diagrams/topology.context.json': '{ "nodes": { "db": { "type": "shape", "shape": "cylinder" } } }\n',
};

/** The files of a checkout as the server's GET …/files answers them for revision `revision`. */
async function revisionFiles(dir: string, revision: number): Promise<ServiceRevisionFiles> {
  const { bundle } = await loadSync(undefined, dir);
  if (!bundle) throw new Error('fixture invalid');
  const synced = (file: { path: string; content: string; sha256: string }) => ({ ...file, fileName: file.path.split('/').pop() ?? '' });
  return {
    service: bundle.service.name,
    revision,
    artifacts: bundle.artifacts.map((artifact) => ({
      kind: artifact.kind,
      name: artifact.name,
      file: synced(artifact.file),
      context: artifact.context ? synced(artifact.context) : null,
      notes: artifact.notes ? synced(artifact.notes) : null,
      engine: artifact.engine ?? null,
      format: artifact.format ?? null,
    })),
  };
}

describe('service-cli diff', () => {
  let repo: TempRepo;
  let gateway: GatewayServer | undefined;
  let files: ServiceRevisionFiles;
  let reads: RecordedRequest[];
  /** What GET …/files answers; the current revision by default. */
  let filesAnswer: (request: RecordedRequest) => { status: number; body?: unknown };

  beforeEach(async () => {
    repo = createTempRepo(REPO);
    files = await revisionFiles(repo.dir, 3);
    reads = [];
    filesAnswer = () => ({ status: 200, body: files });
    gateway = await startGatewayServer((request) => {
      reads.push(request);
      if (request.url === '/api/v1/me') return { status: 200, body: { kind: 'token', organization: { id: 'acme', name: 'Acme', createdAt: '' }, user: null, role: null, scopes: ['read'], csrfToken: null } };
      return filesAnswer(request);
    });
  });
  afterEach(async () => {
    repo.cleanup();
    await gateway?.close();
    gateway = undefined;
  });

  async function diff(options: Partial<DiffOptions> = {}, env: Record<string, string> = { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway?.url ?? '' }) {
    const io = captureIo();
    const code = await runDiff(
      { json: false, format: 'text', exitCode: false, enterprise: false, retries: 0, timeoutMs: 10_000, ...options },
      { cwd: repo.dir, env, io, userAgent: 'service-cli/test', cliVersion: CLI_VERSION, checkDiagram: (input) => checkDiagram(input, parseMermaid) },
    );
    const stdout = io.stdout.join('\n');
    return { code, stdout, stderr: io.stderr.join('\n'), json: options.json ? (JSON.parse(stdout) as DiffJson & { ok: boolean; error?: { code: string } }) : undefined };
  }
  const editDiagram = () => {
    repo.write('.service/diagrams/topology.mmd', DIAGRAM.replace('web[Web] --> api', 'web[Web shop] --> api\n  api --> cache[Cache]'));
    repo.write('.service/service-summary.md', '# billing\n\nNow with a cache.\n');
  };

  it('reads the current revision with the token, and reports no change with exit 0 (also with --exit-code)', async () => {
    const result = await diff({ json: true, exitCode: true });
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({ ok: true, exitCode: 0, changed: false, service: 'billing', before: { source: 'server', organization: 'acme', revision: 3 }, summaryLine: 'No changes.' });
    expect(validate?.(result.json) ? [] : validate?.errors).toEqual([]);
    expect(reads.map((request) => [request.method, request.url, request.headers.authorization])).toEqual([
      ['GET', '/api/v1/me', `Bearer ${TOKEN}`],
      ['GET', '/api/v1/orgs/acme/services/billing/files', `Bearer ${TOKEN}`],
    ]);
  });

  it('lists what changed per diagram and artifact; --exit-code turns a change into exit 4', async () => {
    editDiagram();
    const json = await diff({ json: true });
    expect(json.code).toBe(0);
    expect(json.json?.changed).toBe(true);
    expect(json.json?.summaryLine).toBe('1 diagram changed: 1 node added, 1 node changed, 1 edge added; 1 other artifact changed (service-summary changed).');
    expect(json.json?.diagrams[0]).toMatchObject({ name: 'topology', status: 'changed', nodes: { added: [{ id: 'cache', label: 'Cache' }], changed: [{ id: 'web', label: 'Web shop', fields: ['label'] }] } });
    expect(validate?.(json.json) ? [] : validate?.errors).toEqual([]);

    const text = await diff({ exitCode: true });
    expect(text.code).toBe(4);
    expect(text.stdout).toContain('Service billing: revision 3 on http://127.0.0.1');
    expect(text.stdout).toContain('  added edge api → cache');
    expect(text.stderr).toBe('');

    const markdown = await diff({ format: 'markdown', previewUrl: 'https://context.example.com/orgs/acme/services/billing/previews/p1' });
    expect(markdown.stdout.startsWith(`${DIFF_COMMENT_MARKER}\n`)).toBe(true);
    expect(markdown.stdout).toContain('(https://context.example.com/orgs/acme/services/billing/previews/p1)');
    // The diagram's title links to its section of the preview page (the page scrolls to #diagram-<name>).
    expect(markdown.stdout).toContain(
      '<summary>Diagram <a href="https://context.example.com/orgs/acme/services/billing/previews/p1#diagram-topology"><code>topology</code></a> changed: 1 node added, 1 node changed, 1 edge added</summary>',
    );
    expect((await diff({ format: 'markdown' })).stdout).toContain('<summary>Diagram <code>topology</code> changed');
  });

  it('compares SQL schemas table by table and column by column with PostgreSQL\'s parser, in every output', async () => {
    repo.write(
      '.service/schemas/ledger.sql',
      `${SCHEMA.replace('amount numeric(10,2), note text', 'amount numeric(12,2) NOT NULL DEFAULT 0, currency char(3)').replace('CREATE TABLE public.legacy_exports (id int PRIMARY KEY);\n', '')}CREATE TABLE public.refunds (id bigint PRIMARY KEY, invoice_id bigint REFERENCES public.invoices (id));\nCOMMENT ON TABLE public.invoices IS 'Issued invoices';\n`,
    );
    const json = await diff({ json: true, exitCode: true });
    expect(json.code).toBe(4);
    expect(validate?.(json.json) ? [] : validate?.errors).toEqual([]);
    expect(json.json?.summary).toMatchObject({ artifacts: { changed: 1 }, tables: { added: 1, removed: 1, changed: 1 }, columns: { added: 1, removed: 1, changed: 1 } });
    expect(json.json?.summaryLine).toBe('1 other artifact changed (database-schema ledger changed (1 table added, 1 table removed, 1 table changed)).');
    const ledger = json.json?.artifacts.find((artifact) => artifact.name === 'ledger');
    expect(ledger?.tables).toEqual([
      {
        name: 'public.invoices',
        status: 'changed',
        columns: {
          added: [{ name: 'currency', type: 'char(3)', nullable: true }],
          removed: [{ name: 'note', type: 'text', nullable: true }],
          changed: [{ name: 'amount', fields: ['default', 'nullable', 'type'], before: { default: null, nullable: true, type: 'numeric(10, 2)' }, after: { default: '0', nullable: false, type: 'numeric(12, 2)' } }],
        },
        comment: { before: null, after: 'Issued invoices' },
      },
      { name: 'public.legacy_exports', status: 'removed', columns: { added: [], removed: [{ name: 'id', type: 'int', nullable: false }], changed: [] } },
      { name: 'public.refunds', status: 'added', columns: { added: [{ name: 'id', type: 'bigint', nullable: false }, { name: 'invoice_id', type: 'bigint', nullable: true }], removed: [], changed: [] } },
    ]);

    const text = await diff();
    expect(text.stdout).toMatch(/^database-schema\s+ledger\s+changed\s+main\s+1\/1\/1$/m);
    expect(text.stdout).toContain(
      [
        'database-schema ledger (changed):',
        '  changed table public.invoices',
        '    added column currency char(3)',
        '    removed column note text',
        '    changed column amount: default none → 0, nullable → not null, type numeric(10, 2) → numeric(12, 2)',
        '    comment none → Issued invoices',
        '  removed table public.legacy_exports (1 column)',
        '  added table public.refunds (2 columns)',
      ].join('\n'),
    );

    const markdown = await diff({ format: 'markdown' });
    expect(markdown.stdout).toContain('<summary>Schema <code>ledger</code> changed (1 table added, 1 table removed, 1 table changed)</summary>');
    expect(markdown.stdout).toContain('- Changed table `public.invoices`\n  - Added column `currency` `char(3)`\n');
    expect(markdown.stdout).toContain('  - Changed column `amount`: default none → `0`, nullable → not null, type `numeric(10, 2)` → `numeric(12, 2)`');
  });

  it('a schema whose files changed but whose tables did not says so; one that does not parse is exit 1 with its line', async () => {
    repo.write('.service/schemas/ledger.sql', `${SCHEMA}-- a comment only\n`);
    const same = await diff({ json: true });
    expect(same.json?.artifacts.find((artifact) => artifact.name === 'ledger')).toMatchObject({ status: 'changed', files: ['main'], tables: [] });
    expect((await diff()).stdout).toContain('files changed, the tables are the same');

    repo.write('.service/schemas/ledger.sql', 'CREATE TABLE t (id int);\nCREATE TABLE broken (id int,,);\n');
    const invalid = await diff({ json: true, exitCode: true });
    expect(invalid.code).toBe(1);
    expect(invalid.json).toMatchObject({ ok: false, exitCode: 1, error: { code: 'validation_failed', details: [expect.objectContaining({ code: 'sql_syntax_error', file: '.service/schemas/ledger.sql', line: 2 })] } });
  });

  it('--against asks for that revision; an unknown one is exit 2', async () => {
    await diff({ against: 2 });
    expect(reads[1]?.url).toBe('/api/v1/orgs/acme/services/billing/files?revision=2');
    filesAnswer = () => ({ status: 404, body: { error: { code: 'revision_not_found', message: 'Service billing has no revision 9; its current revision is 3.', details: [] } } });
    const missing = await diff({ against: 9, json: true });
    expect(missing.code).toBe(2);
    expect(missing.json).toMatchObject({ ok: false, exitCode: 2, error: { code: 'revision_not_found', message: expect.stringContaining('has no revision 9') } });
    expect(validate?.(missing.json) ? [] : validate?.errors).toEqual([]);
  });

  it('a service the server does not have yet: everything is added', async () => {
    filesAnswer = () => ({ status: 404, body: { error: { code: 'service_not_found', message: 'There is no service named "billing" in this organization.', details: [] } } });
    const result = await diff({ json: true, exitCode: true });
    expect(result.code).toBe(4);
    expect(result.json).toMatchObject({ before: { source: 'server', revision: null }, summary: { diagrams: { added: 1 }, nodes: { added: 3 }, artifacts: { added: 3 }, tables: { added: 2 } } });
  });

  it('exit 2 without a token or with a token that may not read, exit 3 when the server fails', async () => {
    expect((await diff({}, { SERVICE_GATEWAY_URL: gateway?.url ?? '' })).code).toBe(2);
    filesAnswer = () => ({ status: 403, body: { error: { code: 'insufficient_scope', message: 'This token may not do that.', details: [] } } });
    const forbidden = await diff();
    expect(forbidden.code).toBe(2);
    expect(forbidden.stderr).toContain('needs a token with the "read" scope');
    filesAnswer = () => ({ status: 500 });
    const failed = await diff();
    expect(failed.code).toBe(3);
    expect(failed.stderr).toContain('Reading the revision failed after 1 attempt:');
    expect(`${forbidden.stderr}${failed.stderr}`).not.toContain(TOKEN);
  });

  it('--base compares two checkouts without a server; an invalid checkout is exit 1', async () => {
    const base = createTempRepo(REPO);
    try {
      editDiagram();
      const result = await diff({ base: base.dir, json: true }, {});
      expect(result.code).toBe(0);
      expect(result.json).toMatchObject({ before: { source: 'directory', dir: base.dir }, summary: { nodes: { added: 1, changed: 1 } } });
      expect(reads).toEqual([]);
      expect((await diff({ base: base.dir, against: 2 }, {})).code).toBe(2);
      repo.write('.service/diagrams/topology.mmd', 'flowchart LR\n  a[A --> b\n');
      const invalid = await diff({ base: base.dir, json: true, exitCode: true }, {});
      expect(invalid.code).toBe(1);
      expect(invalid.json).toMatchObject({ ok: false, exitCode: 1, error: { code: 'validation_failed', details: [expect.objectContaining({ file: '.service/diagrams/topology.mmd' })] } });
    } finally {
      base.cleanup();
    }
  });
});
