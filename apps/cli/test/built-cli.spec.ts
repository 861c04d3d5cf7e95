import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { SyncBundle } from '@sc/contracts';
import { NODE_TYPES } from '@sc/diagram';
import type { DiffJson, SyncDoneJson, SyncDryRunJson } from '../src/lib/output-types';
import { BIN, CLI_ROOT, COMPILED_COMMANDS, requireBuiltCli } from './support/built-cli';
import { startGatewayServer, syncResult, type GatewayServer } from './support/gateway-server';
import { createTempRepo, MINIMAL_REPO, type TempRepo } from './support/temp-repo';

/** The compiled binary (support/built-cli.ts), run asynchronously so the local gateway in this process can answer. */
const SAMPLE = path.join(__dirname, 'fixtures/sample-repo');
const TOKEN = 'sc_sync_built_binary_0123456789abcdef';

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<RunResult> {
  // Only PATH/HOME from the outside: a developer's SERVICE_* variables must not leak into the test.
  const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...options.env };
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: options.cwd ?? SAMPLE, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('built service-cli binary', () => {
  let server: GatewayServer | undefined;
  let repo: TempRepo | undefined;

  beforeAll(() => {
    requireBuiltCli();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    repo?.cleanup();
    repo = undefined;
  });

  it('prints help listing every command', async () => {
    const result = await runCli(['help']);
    expect(result.code).toBe(0);
    for (const command of ['diff', 'help', 'init', 'inspect', 'mcp', 'sync']) expect(result.stdout).toMatch(new RegExp(`^\\s+${command}\\s`, 'm'));
  });

  it.each([['sync'], ['init'], ['inspect'], ['diff']])('has --help with examples on %s', async (command) => {
    const viaFlag = await runCli([command, '--help']);
    expect(viaFlag.code).toBe(0);
    expect(viaFlag.stdout).toContain('EXAMPLES');
    expect(viaFlag.stdout).toContain(`service-cli ${command}`);
    const viaHelp = await runCli(['help', command]);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
  });

  it('loads its commands without class-validator (≈0.2 s of every start; the CLI uses @sc/contracts/core only), the SQL parsers nor the MCP SDK (only `mcp` needs it)', async () => {
    const probe = `require(${JSON.stringify(COMPILED_COMMANDS)}); console.log(JSON.stringify(Object.keys(require.cache).filter((file) => /node_modules[\\/](class-validator|class-transformer|jsdom|mermaid|libpg-query|pgsql-deparser|node-sql-parser|@modelcontextprotocol|zod)[\\/]/.test(file))));`;
    const loaded = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['-e', probe], { timeout: 30_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    expect(JSON.parse(loaded)).toEqual([]);
  });

  it('answers invalid flags with exit 2, as text, or with --json as the documented error document', async () => {
    const text = await runCli(['sync', '--timeout', 'abc']);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('Expected an integer but received: abc');
    const json = await runCli(['sync', '--timeout', 'abc', '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({ ok: false, exitCode: 2, error: { code: 'invalid_arguments', message: expect.stringContaining('Expected an integer but received: abc'), details: [] } });
  });

  it('prints its version', async () => {
    const { version } = JSON.parse(readFileSync(path.join(CLI_ROOT, 'package.json'), 'utf8')) as { version: string };
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^service-cli/${version.replace(/\./g, '\\.')} `));
  });

  it('previews the payments fixture with --dry-run: every artifact valid, no connection opened', async () => {
    server = await startGatewayServer(() => ({ status: 200, body: syncResult() }));
    const result = await runCli(['sync', '--dry-run', '--json'], { env: { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: server.url } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as SyncDryRunJson;
    expect(output.ok).toBe(true);
    expect(output.problems).toEqual([]);
    expect(output.artifacts).toHaveLength(16);
    expect(output.artifacts.every((row) => row.valid)).toBe(true);
    expect(new Set(output.artifacts.map((row) => row.diagramKind).filter(Boolean))).toEqual(new Set(['flowchart', 'state', 'sequence', 'c4']));
    expect(output.artifacts.find((row) => row.name === 'topology')?.context).toEqual({ applied: 19, unmatched: 0, errors: 0, warnings: 0 });
    expect(server.connections()).toBe(0);
  });

  it('opens no socket and resolves no host name during --dry-run, even with --enterprise', async () => {
    const log = path.join(mkdtempSync(path.join(tmpdir(), 'service-cli-net-')), 'network.log');
    writeFileSync(log, '');
    const preload = path.join(__dirname, 'support/no-network.cjs');
    const env = { NODE_OPTIONS: `--require ${preload}`, NO_NETWORK_LOG: log, SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: 'https://context.example.com' };
    for (const args of [['sync', '--dry-run'], ['sync', '--dry-run', '--enterprise', '--json']]) {
      const result = await runCli(args, { env });
      expect(result.code).toBe(0);
    }
    expect(readFileSync(log, 'utf8')).toBe('');
    // The guard itself works: a real sync trips it.
    repo = createTempRepo(MINIMAL_REPO);
    const real = await runCli(['sync', '--retries', '0'], { cwd: repo.dir, env });
    expect(real.code).toBe(3);
    expect(readFileSync(log, 'utf8')).toMatch(/dns\.lookup context\.example\.com|connect/);
  });

  it('prints the dry-run table in text mode', async () => {
    const result = await runCli(['sync', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/KIND\s+NAME\s+SIZE\s+DIAGRAM\s+NODES\s+EDGES\n/);
    expect(result.stdout).toMatch(/^architecture-diagram\s+system-context\s+.*\s+c4\s+6\s+5\n(\s+(files|sha-256)\s.*\n)+\s+context\s+4 applied/m);
  });

  it('syncs to a gateway and never prints the token', async () => {
    repo = createTempRepo(MINIMAL_REPO);
    server = await startGatewayServer(() => ({ status: 200, body: syncResult() }));
    const result = await runCli(['sync', '--json'], { cwd: repo.dir, env: { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: server.url } });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as SyncDoneJson).result.revision).toBe(3);
    expect(server.requests).toHaveLength(1);
    expect((JSON.parse(server.requests[0].body) as SyncBundle).artifacts).toHaveLength(2);
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
  });

  it('keeps the token out of oclif debug output too', async () => {
    repo = createTempRepo(MINIMAL_REPO);
    server = await startGatewayServer(() => ({ status: 401, body: { error: { code: 'token_rejected', message: `bad ${TOKEN}`, details: [] } } }));
    const result = await runCli(['sync'], { cwd: repo.dir, env: { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: server.url, DEBUG: '*' } });
    expect(result.code).toBe(2);
    expect(result.stderr.length).toBeGreaterThan(0);
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
  });

  it('exits 2 without a token and 3 when the gateway is down', async () => {
    const noToken = await runCli(['sync'], { env: { SERVICE_GATEWAY_URL: 'http://127.0.0.1:1' } });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('SERVICE_TOKEN is not set');
    repo = createTempRepo(MINIMAL_REPO);
    const down = await runCli(['sync', '--retries', '0'], { cwd: repo.dir, env: { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: 'http://127.0.0.1:1' } });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('ECONNREFUSED');
  });

  it('inspects a diagram as JSON', async () => {
    const result = await runCli(['inspect', '.service/diagrams/checkout-sequence.mmd', '--json']);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as { kind: string; nodes: Array<{ id: string }>; groups: Array<{ id: string }> };
    expect(output.kind).toBe('sequence');
    expect(output.nodes.map((node) => node.id)).toEqual(['Shopper', 'Web', 'API', 'Ledger', 'PSP']);
    expect(output.groups).toHaveLength(2);
  });
  it('init --example writes a repository using every node type that passes sync --dry-run', async () => {
    repo = createTempRepo();
    const init = await runCli(['init', '--example', '--dir', 'example', '--name', 'payments'], { cwd: repo.dir });
    expect(init.code).toBe(0);
    const dir = path.join(repo.dir, 'example');
    const context = JSON.parse(readFileSync(path.join(dir, '.service/diagrams/topology.context.json'), 'utf8')) as { nodes: Record<string, { type: string }> };
    expect(new Set(Object.values(context.nodes).map((node) => node.type))).toEqual(new Set(NODE_TYPES));
    const dryRun = await runCli(['sync', '--dry-run', '--strict', '--json'], { cwd: dir });
    expect(dryRun.stderr).toBe('');
    const output = JSON.parse(dryRun.stdout) as SyncDryRunJson;
    expect(output).toMatchObject({ ok: true, exitCode: 0, service: 'payments', problems: [] });
    expect(output.artifacts.find((artifact) => artifact.name === 'topology')).toMatchObject({ diagramKind: 'flowchart', nodes: 11, context: { applied: expect.any(Number), unmatched: 0, errors: 0, warnings: 0 } });
    expect(dryRun.code).toBe(0);
  });
  describe('diff', () => {
    /** A copy of the payments fixture with its topology edited: a node relabelled, one added, an edge removed. */
    const editedCopy = (): TempRepo => {
      const copy = createTempRepo({});
      cpSync(SAMPLE, copy.dir, { recursive: true });
      const file = path.join(copy.dir, '.service/diagrams/topology.mmd');
      writeFileSync(file, readFileSync(file, 'utf8').replace('gateway[API gateway]', 'gateway[Public API gateway]').replace('  api --> rules\n', '  api --> cache[(Redis cache)]\n'));
      // A column added to the PostgreSQL schema (libpg-query) and one widened in the MySQL one (node-sql-parser).
      const ledger = path.join(copy.dir, '.service/schemas/ledger.sql');
      writeFileSync(ledger, `${readFileSync(ledger, 'utf8')}\nALTER TABLE accounts ADD COLUMN closed_at TIMESTAMPTZ;\n`);
      const reporting = path.join(copy.dir, '.service/schemas/reporting.sql');
      writeFileSync(reporting, readFileSync(reporting, 'utf8').replace('iban VARCHAR(34)', 'iban VARCHAR(40)'));
      return copy;
    };

    it('compares two checkouts: text by default, --json, --format markdown, and --exit-code 4 only when something changed', async () => {
      repo = editedCopy();
      const text = await runCli(['diff', '--base', SAMPLE], { cwd: repo.dir });
      expect(text.stderr).toBe('');
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^topology\s+changed\s+1\/0\/1\s+1\/1\/0\s+0\/0\/0$/m);
      expect(text.stdout).toContain('changed node gateway "Public API gateway": label');
      expect(text.stdout).toContain('database-schema ledger (changed):\n  changed table accounts\n    added column closed_at timestamptz\n');
      expect(text.stdout).toContain('database-schema reporting (changed):\n  changed table payouts\n    changed column iban: type VARCHAR(34) → VARCHAR(40)\n');

      const json = await runCli(['diff', '--base', SAMPLE, '--json', '--exit-code'], { cwd: repo.dir });
      expect(json.code).toBe(4);
      const output = JSON.parse(json.stdout) as DiffJson;
      expect(output).toMatchObject({ ok: true, exitCode: 4, changed: true, service: 'payments', summaryLine: '1 diagram changed: 1 node added, 1 node changed, 1 edge added, 1 edge removed; 2 other artifacts changed (database-schema ledger changed (1 table changed), database-schema reporting changed (1 table changed)).' });
      expect(output.summary).toMatchObject({ tables: { added: 0, removed: 0, changed: 2 }, columns: { added: 1, removed: 0, changed: 1 } });

      const markdown = await runCli(['diff', '--base', SAMPLE, '--format', 'markdown', '--preview-url', 'https://context.example.com/p/1'], { cwd: repo.dir });
      expect(markdown.code).toBe(0);
      expect(markdown.stdout.split('\n')[0]).toBe('<!-- service-cli:diff -->');
      expect(markdown.stdout).toContain('- Removed edge `api` → `rules`');

      const same = await runCli(['diff', '--base', SAMPLE, '--exit-code']);
      expect(same.code).toBe(0);
      expect(same.stdout.trimEnd().split('\n').pop()).toBe('No changes.');
    });

    it('exits 2 for --base with --against and without a token, 3 when the gateway is down', async () => {
      expect((await runCli(['diff', '--base', SAMPLE, '--against', '2'])).code).toBe(2);
      const noToken = await runCli(['diff', '--json'], { env: { SERVICE_GATEWAY_URL: 'http://127.0.0.1:9' } });
      expect(noToken.code).toBe(2);
      expect(JSON.parse(noToken.stdout)).toMatchObject({ ok: false, exitCode: 2, error: { code: 'token_missing' } });
      const down = await runCli(['diff', '--retries', '0'], { env: { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: 'http://127.0.0.1:9' } });
      expect(down.code).toBe(3);
      expect(down.stderr).not.toContain(TOKEN);
    });
  });
});
