import { execFileSync } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { syncBundleDigest, type SyncBundle, type SyncCheckRequest } from '@sc/contracts';
import { parseMermaid } from '@sc/diagram/node';
import { checkDiagram, type DiagramChecker } from '../src/lib/diagram-check';
import { ExitCode } from '../src/lib/exit-codes';
import type { JsonErrorOutput } from '../src/lib/cli-error';
import { DEFAULT_ENTERPRISE_GATEWAY_URL } from '../src/lib/gateway';
import { REDACTED } from '../src/lib/io';
import type { SyncDoneJson, SyncDryRunJson } from '../src/lib/output-types';
import { runSync, type SyncOptions } from '../src/lib/run-sync';
import { captureIo, type CapturedIo } from './support/capture-io';
import { CLI_VERSION, gatewayInfo, startGatewayServer, syncResult, type GatewayServer, type Responder } from './support/gateway-server';
import { createTempRepo, MINIMAL_REPO, type TempRepo } from './support/temp-repo';

const TOKEN = 'sc_sync_9f8e7d6c5b4a39281706f5e4d3c2b1a0';

describe('service-cli sync', () => {
  let repo: TempRepo;
  let server: GatewayServer | undefined;
  let delays: number[];
  let diagramChecks: jest.Mock<ReturnType<DiagramChecker>, Parameters<DiagramChecker>>;

  beforeEach(() => {
    repo = createTempRepo(MINIMAL_REPO);
    delays = [];
    diagramChecks = jest.fn((input) => checkDiagram(input, parseMermaid));
  });
  afterEach(async () => {
    repo.cleanup();
    await server?.close();
    server = undefined;
  });

  async function serve(respond: Responder, check?: Responder, info?: Responder): Promise<GatewayServer> {
    server = await startGatewayServer(respond, check, info);
    return server;
  }

  async function sync(options: Partial<SyncOptions>, env: Record<string, string | undefined>, io: CapturedIo = captureIo()): Promise<{ exitCode: ExitCode; io: CapturedIo }> {
    const exitCode = await runSync(
      { dryRun: false, enterprise: false, json: false, retries: 3, timeoutMs: 5_000, ...options },
      {
        cwd: repo.dir,
        env,
        io,
        userAgent: 'service-cli/test',
        cliVersion: CLI_VERSION,
        transport: { backoffBaseMs: 100, backoffMaxMs: 1_000, random: () => 0, sleep: async (ms) => void delays.push(ms) },
        checkDiagram: diagramChecks,
      },
    );
    return { exitCode, io };
  }

  describe('--dry-run', () => {
    it('opens no network connection even with a token and gateway set, and exits 0 when valid', async () => {
      const gateway = await serve(() => ({ status: 200, body: syncResult() }));
      const connectSpy = jest.spyOn(net.Socket.prototype, 'connect');
      try {
        const { exitCode, io } = await sync({ dryRun: true }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
        expect(exitCode).toBe(ExitCode.Ok);
        expect(connectSpy).not.toHaveBeenCalled();
        expect(gateway.connections()).toBe(0);
        expect(gateway.requests).toHaveLength(0);
        const table = io.stdout.join('\n');
        expect(table).toContain('KIND');
        expect(table).toMatch(/^flow\s+invoice\s.*\n\s+files\s+\.service\/flows\/invoice\.mmd \+ \.service\/flows\/invoice\.md$/m);
        expect(table).toContain(createHash('sha256').update(MINIMAL_REPO['.service/flows/invoice.mmd']).digest('hex'));
        expect(table).toMatch(/flowchart\s+3\s+2/);
        expect(table).toContain(`A real sync would post to ${gateway.url}/api/v1/gateway/sync`);
      } finally {
        connectSpy.mockRestore();
      }
    });

    it('needs neither token nor gateway, and exits 1 listing every problem when invalid', async () => {
      repo.write(
        '.service.yaml',
        ['version: 1', 'service:', '  name: billing', 'flows:', '  - name: invoice', '    path: .service/flows/missing.mmd', '  - name: invoice', '    path: ../outside.mmd', 'colour: blue', ''].join('\n'),
      );
      const { exitCode, io } = await sync({ dryRun: true, json: true }, {});
      expect(exitCode).toBe(ExitCode.Validation);
      const output = JSON.parse(io.stdout.join('')) as SyncDryRunJson;
      expect(output).toMatchObject({ ok: false, exitCode: 1, dryRun: true, gateway: null });
      const summary = output.problems.map((problem) => [problem.severity, problem.code, problem.line]);
      expect(summary).toEqual(
        expect.arrayContaining([
          ['error', 'file_not_found', 6],
          ['error', 'duplicate_name', 7],
          ['error', 'path_escapes_repository', 8],
          ['warning', 'unknown_key', 9],
        ]),
      );
    });

    it('prints a table that fits 100 columns, with each artifact\'s files, SHA-256 and context under its row', async () => {
      const { exitCode, io } = await sync({ dryRun: true, config: path.join(__dirname, 'fixtures/sample-repo') }, {});
      expect(exitCode).toBe(ExitCode.Ok);
      const printed = io.stdout.join('\n').split('\n');
      const table = printed.slice(printed.findIndex((line) => line.startsWith('KIND')), printed.findIndex((line) => line.startsWith('A real sync')));
      expect(table.length).toBeGreaterThan(16);
      for (const line of table) expect(line.length).toBeLessThanOrEqual(100);
      const topology = table.findIndex((line) => /^architecture-diagram\s+topology\s/.test(line));
      expect(table.slice(topology, topology + 4).join('\n')).toMatch(
        /^architecture-diagram\s+topology\s+822 B\s+flowchart\s+17\s+16\n\s+files\s+\.service\/diagrams\/topology\.mmd \+ \.service\/diagrams\/topology\.context\.json\n\s+sha-256\s+[0-9a-f]{64}\n\s+context\s+19 applied, 0 unmatched, 0 errors, 0 warnings$/,
      );
    });

    it('wraps a long file list under its row instead of widening the table', async () => {
      const deep = `.service/${'very-long-directory-name/'.repeat(2)}invoice`;
      repo.write('.service.yaml', MINIMAL_REPO['.service.yaml'].replace('.service/flows/invoice.mmd', `${deep}.mmd`).replace('.service/flows/invoice.md', `${deep}.md`));
      repo.write(`${deep}.mmd`, MINIMAL_REPO['.service/flows/invoice.mmd']);
      repo.write(`${deep}.md`, MINIMAL_REPO['.service/flows/invoice.md']);
      const { exitCode, io } = await sync({ dryRun: true }, {});
      expect(exitCode).toBe(ExitCode.Ok);
      const printed = io.stdout.join('\n');
      expect(printed).toContain(`${deep}.mmd\n`);
      expect(printed).toMatch(new RegExp(`\\n\\s+\\+ ${deep.replace(/[.]/g, '\\.')}\\.md\\n`));
      for (const line of printed.split('\n').filter((line) => line.includes(deep))) expect(line.length).toBeLessThanOrEqual(100);
    });

    it('prints the progress of a plain (CI) log once, when every artifact is validated', async () => {
      const { io } = await sync({ dryRun: true, config: path.join(__dirname, 'fixtures/sample-repo') }, {});
      expect(io.stderr.filter((line) => line.startsWith('['))).toEqual(['[16/16] validated 16 artifacts']);
    });

    it('prints the verdict of an invalid dry run on stderr, after the problems it sums up', async () => {
      repo.write('.service/flows/invoice.mmd', 'flowchart LR\n  order[Order] --> invoice[Invoice\n');
      const { exitCode, io } = await sync({ dryRun: true }, {});
      expect(exitCode).toBe(ExitCode.Validation);
      expect(io.stdout.join('\n')).not.toContain('Invalid');
      const stderr = io.stderr.join('\n');
      expect(stderr).toMatch(/mermaid_syntax_error[\s\S]*1 error, 0 warnings[\s\S]*Invalid: fix the errors above; a real sync would send nothing\./);
    });

    it('reports a Mermaid syntax error with file and line', async () => {
      repo.write('.service/flows/invoice.mmd', 'flowchart LR\n  order[Order] --> invoice[Invoice\n');
      const { exitCode, io } = await sync({ dryRun: true, json: true }, {});
      expect(exitCode).toBe(ExitCode.Validation);
      const output = JSON.parse(io.stdout.join('')) as SyncDryRunJson;
      const syntax = output.problems.find((problem) => problem.code === 'mermaid_syntax_error');
      expect(syntax).toMatchObject({ severity: 'error', file: '.service/flows/invoice.mmd' });
      expect(syntax?.line).toBeGreaterThanOrEqual(2);
      expect(output.artifacts.find((row) => row.name === 'invoice')?.valid).toBe(false);
    });

    it('warns (without failing) when a file exceeds the default per-file limit', async () => {
      repo.write('.service/service-summary.md', `# billing\n${'x'.repeat(1024 * 1024)}\n`);
      const { exitCode, io } = await sync({ dryRun: true, json: true }, {});
      expect(exitCode).toBe(ExitCode.Ok);
      const output = JSON.parse(io.stdout.join('')) as SyncDryRunJson;
      expect(output.problems).toEqual([
        expect.objectContaining({ severity: 'warning', code: 'over_default_limit', file: '.service/service-summary.md', message: expect.stringContaining('1.0 MiB per file') }),
      ]);
    });

    it('measures a database schema against the default schema-file limit (16 MiB), not the per-file one', async () => {
      repo.write('.service.yaml', `${MINIMAL_REPO['.service.yaml']}databases:\n  - name: main\n    engine: postgres\n    schemaPath: .service/schemas/main.sql\n`);
      repo.write('.service/schemas/main.sql', 'CREATE TABLE t (id int);\n'.repeat(100_000));
      const { exitCode, io } = await sync({ dryRun: true, json: true }, {});
      expect(exitCode).toBe(ExitCode.Ok);
      expect((JSON.parse(io.stdout.join('')) as SyncDryRunJson).problems).toEqual([]);
    });
  });

  describe('version handshake (GET /api/v1/gateway/info)', () => {
    const env = (gateway: GatewayServer) => ({ SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });

    it('asks first, without the token, and says nothing when the gateway is of the same release', async () => {
      const gateway = await serve(() => ({ status: 200, body: syncResult() }));
      const { exitCode, io } = await sync({}, env(gateway));
      expect(exitCode).toBe(ExitCode.Ok);
      expect(gateway.infos).toHaveLength(1);
      expect(gateway.infos[0]).toMatchObject({ method: 'GET', url: '/api/v1/gateway/info' });
      expect(gateway.infos[0].headers['authorization']).toBeUndefined();
      expect(gateway.requests).toHaveLength(1);
      expect(io.stderr.join('\n')).not.toMatch(/warning|upgrade/i);
    });

    it('stops with exit 2 and the upgrade command, sending nothing, when this CLI is older than the gateway accepts', async () => {
      const gateway = await serve(() => ({ status: 200, body: syncResult() }), undefined, gatewayInfo({ serverVersion: '99.1.0', minCliVersion: '99.0.0' }));
      const { exitCode, io } = await sync({}, env(gateway));
      expect(exitCode).toBe(ExitCode.Configuration);
      expect(io.stderr.join('\n')).toContain(
        `Error: service-cli ${CLI_VERSION} is too old for this gateway (server 99.1.0 accepts service-cli 99.0.0 or newer). Upgrade it: npm install -g ${gateway.url}/downloads/service-cli.tgz`,
      );
      expect(gateway.checks).toHaveLength(0);
      expect(gateway.requests).toHaveLength(0);

      const json = await sync({ json: true }, env(gateway));
      expect(JSON.parse(json.io.stdout.join('')) as JsonErrorOutput).toMatchObject({ ok: false, exitCode: 2, error: { code: 'cli_outdated' } });
    });

    it('warns and syncs when the gateway is older than this CLI', async () => {
      const gateway = await serve(() => ({ status: 200, body: syncResult() }), undefined, gatewayInfo({ serverVersion: '0.0.1', minCliVersion: '0.0.1' }));
      const { exitCode, io } = await sync({}, env(gateway));
      expect(exitCode).toBe(ExitCode.Ok);
      expect(io.stderr).toContain(
        `Warning: the gateway runs version 0.0.1, older than this service-cli ${CLI_VERSION}; if the sync fails, install the CLI it serves: npm install -g ${gateway.url}/downloads/service-cli.tgz`,
      );
      expect(gateway.requests).toHaveLength(1);
    });

    it('warns and syncs when the gateway predates the handshake (404)', async () => {
      const notFound: Responder = () => ({ status: 404, body: { error: { code: 'not_found', message: 'Cannot GET /api/v1/gateway/info', details: [] } } });
      const gateway = await serve(() => ({ status: 200, body: syncResult() }), undefined, notFound);
      const { exitCode, io } = await sync({}, env(gateway));
      expect(exitCode).toBe(ExitCode.Ok);
      expect(io.stderr.join('\n')).toContain('Warning: the gateway has no /api/v1/gateway/info, so it is older than service-cli');
      expect(gateway.requests).toHaveLength(1);
    });
  });

  describe('configuration (exit 2)', () => {
    it('refuses to run without SERVICE_TOKEN and says where to create one', async () => {
      const { exitCode, io } = await sync({}, { SERVICE_GATEWAY_URL: 'http://127.0.0.1:9' });
      expect(exitCode).toBe(ExitCode.Configuration);
      expect(io.stderr.join('\n')).toMatch(/SERVICE_TOKEN is not set.*organization → API tokens.*"sync" scope/);
    });

    it('refuses to run without a gateway', async () => {
      const { exitCode, io } = await sync({ json: true }, { SERVICE_TOKEN: TOKEN });
      expect(exitCode).toBe(ExitCode.Configuration);
      expect((JSON.parse(io.stdout.join('')) as JsonErrorOutput).error.code).toBe('gateway_not_configured');
    });

    it('refuses a gateway URL carrying credentials without echoing them', async () => {
      const { exitCode, io } = await sync({}, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: 'https://admin:pa55word@context.example.com' });
      expect(exitCode).toBe(ExitCode.Configuration);
      expect(io.all()).not.toContain('pa55word');
    });

    it('exits 2 when the config file is missing', async () => {
      const { exitCode, io } = await sync({ config: 'nowhere/.service.yaml' }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: 'http://127.0.0.1:9' });
      expect(exitCode).toBe(ExitCode.Configuration);
      expect(io.stderr.join('\n')).toContain('nowhere/.service.yaml does not exist');
    });
  });

  describe('against a gateway', () => {
    it('posts a gzip bundle with a Bearer token, strips repository credentials and prints the result', async () => {
      const gateway = await serve(() => ({ status: 200, body: syncResult() }));
      const { exitCode, io } = await sync({}, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: `${gateway.url}/` });
      expect(exitCode).toBe(ExitCode.Ok);
      expect(gateway.requests).toHaveLength(1);
      const [request] = gateway.requests;
      expect(request.method).toBe('POST');
      expect(request.url).toBe('/api/v1/gateway/sync');
      expect(request.headers['authorization']).toBe(`Bearer ${TOKEN}`);
      expect(request.headers['content-encoding']).toBe('gzip');
      expect(request.rawLength).toBe(Number(request.headers['content-length']));
      const bundle = JSON.parse(request.body) as SyncBundle;
      expect(bundle.service).toEqual({ name: 'billing', description: 'Invoices', repositoryUrl: 'https://git.example.com/acme/billing.git' });
      expect(bundle.artifacts.map((artifact) => `${artifact.kind}:${artifact.name}`)).toEqual(['flow:invoice', 'service-summary:service-summary']);
      const flow = bundle.artifacts[0];
      expect(flow.file).toEqual({
        path: '.service/flows/invoice.mmd',
        content: MINIMAL_REPO['.service/flows/invoice.mmd'],
        sha256: createHash('sha256').update(MINIMAL_REPO['.service/flows/invoice.mmd'], 'utf8').digest('hex'),
      });
      expect(flow.notes?.path).toBe('.service/flows/invoice.md');
      const printed = io.stdout.join('\n');
      expect(printed).toContain('revision 3');
      expect(printed).toMatch(/created\s+1: flow invoice/);
      expect(printed).toMatch(/updated\s+1: service-summary service-summary/);
      expect(printed).toMatch(/removed\s+1: doc old-runbook/);
      expect(printed).toContain('Service page: https://context.example.com/orgs/acme/services/billing');
      expect(io.all()).not.toContain('hunter2-secret');
    });

    it('falls back to the git origin remote for the repository URL, stripping the CI token in it', async () => {
      repo.write('.service.yaml', MINIMAL_REPO['.service.yaml'].replace(/^ {2}repositoryUrl: .*\n/m, ''));
      execFileSync('git', ['init', '-q', repo.dir]);
      execFileSync('git', ['-C', repo.dir, 'remote', 'add', 'origin', 'https://gitlab-ci-token:glcbt-64_secret@gitlab.example.com/acme/billing.git']);
      const gateway = await serve(() => ({ status: 200, body: syncResult() }));
      const dry = await sync({ dryRun: true, json: true }, {});
      expect((JSON.parse(dry.io.stdout.join('')) as SyncDryRunJson).repositoryUrl).toBe('https://gitlab.example.com/acme/billing.git');
      const real = await sync({}, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
      expect(real.exitCode).toBe(ExitCode.Ok);
      expect((JSON.parse(gateway.requests[0].body) as SyncBundle).service.repositoryUrl).toBe('https://gitlab.example.com/acme/billing.git');
      expect(dry.io.all() + real.io.all() + gateway.requests[0].body).not.toContain('glcbt-64_secret');
    });

    it('sends no repository URL when neither the config nor git has one', async () => {
      repo.write('.service.yaml', MINIMAL_REPO['.service.yaml'].replace(/^ {2}repositoryUrl: .*\n/m, ''));
      const gateway = await serve(() => ({ status: 200, body: syncResult() }));
      expect((await sync({}, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url })).exitCode).toBe(ExitCode.Ok);
      expect((JSON.parse(gateway.requests[0].body) as SyncBundle).service).toEqual({ name: 'billing', description: 'Invoices' });
    });

    it('prints a typed JSON result with --json', async () => {
      const gateway = await serve(() => ({ status: 200, body: syncResult({ status: 'unchanged', created: [], updated: [], removed: [], unchanged: [{ kind: 'flow', name: 'invoice' }] }) }));
      const { exitCode, io } = await sync({ json: true }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
      expect(exitCode).toBe(ExitCode.Ok);
      const output = JSON.parse(io.stdout.join('')) as SyncDoneJson;
      expect(output).toMatchObject({ ok: true, exitCode: 0, dryRun: false, gateway: { url: `${gateway.url}/api/v1/gateway/sync`, source: 'SERVICE_GATEWAY_URL' } });
      expect(output.result.status).toBe('unchanged');
      expect(output.result.serviceUrl).toBe('https://context.example.com/orgs/acme/services/billing');
      expect(output.artifacts).toHaveLength(2);
      expect(io.stderr).toEqual([]);
    });

    it('never sends when validation fails (exit 1); only the digest was asked about', async () => {
      const gateway = await serve(() => ({ status: 200, body: syncResult() }));
      repo.write('.service/flows/invoice.mmd', 'pie title Pets\n  "Dogs" : 386\n');
      const { exitCode, io } = await sync({}, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
      expect(exitCode).toBe(ExitCode.Validation);
      expect(gateway.requests).toHaveLength(0);
      expect(gateway.checks).toHaveLength(1);
      expect(io.stderr.join('\n')).toMatch(/unsupported_diagram_kind/);
    });

    it.each([
      [401, ExitCode.Configuration, 'token_rejected'],
      [403, ExitCode.Configuration, 'token_forbidden'],
      [404, ExitCode.Configuration, 'gateway_not_found'],
      [413, ExitCode.Validation, 'payload_too_large'],
      [422, ExitCode.Validation, 'sync_invalid'],
      [409, ExitCode.ServerOrNetwork, 'conflict'],
    ])('maps HTTP %i to exit %i without retrying', async (status, expectedExit, code) => {
      const gateway = await serve(() => ({
        status,
        body: { error: { code, message: `server says ${status}`, details: [{ message: 'bad context', file: '.service/x.context.json', line: 4, path: '$.nodes.api.type', code: 'context_invalid_value' }] } },
      }));
      const { exitCode, io } = await sync({ json: true }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
      expect(exitCode).toBe(expectedExit);
      expect(gateway.requests).toHaveLength(1);
      expect(delays).toEqual([]);
      const output = JSON.parse(io.stdout.join('')) as JsonErrorOutput;
      expect(output.error.code).toBe(code);
      expect(output.error.message).toContain(`server says ${status}`);
      expect(output.error.details).toEqual([{ severity: 'error', code: 'context_invalid_value', message: 'bad context', file: '.service/x.context.json', line: 4, path: '$.nodes.api.type' }]);
    });

    it('lists the server details of a 422 in text mode', async () => {
      const gateway = await serve(() => ({
        status: 422,
        body: {
          error: {
            code: 'sync_invalid',
            message: 'The sync is invalid.',
            details: [
              { message: 'unknown node type', file: 'a.context.json', line: 7, column: 15, path: '$.nodes.api.type', code: 'context_invalid_value', artifact: { kind: 'architecture-diagram', name: 'a' } },
              { message: 'syntax', file: 'b.mmd', line: 2, code: 'mermaid_syntax_error' },
              { message: 'name taken', code: 'duplicate_name', artifact: { kind: 'flow', name: 'refunds' } },
            ],
          },
        },
      }));
      const { exitCode, io } = await sync({}, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
      expect(exitCode).toBe(ExitCode.Validation);
      const printed = io.stderr.join('\n');
      expect(printed).toContain('a.context.json:7:15  context_invalid_value  unknown node type [at $.nodes.api.type]');
      expect(printed).toContain('b.mmd:2  mermaid_syntax_error  syntax');
      expect(printed).toContain('[flow refunds]  duplicate_name  name taken');
      expect(printed).toContain('3 errors, 0 warnings');
    });

    it('retries 5xx with exponential backoff and succeeds', async () => {
      const gateway = await serve((_request, index) => (index < 2 ? { status: 503, body: { error: { code: 'unavailable', message: 'down', details: [] } } } : { status: 200, body: syncResult() }));
      const { exitCode, io } = await sync({}, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
      expect(exitCode).toBe(ExitCode.Ok);
      expect(gateway.requests).toHaveLength(3);
      expect(delays).toEqual([100, 200]);
      expect(io.stderr.join('\n')).toMatch(/Attempt 1 failed \(the gateway answered 503: down\); retrying/);
      // Every attempt carries the same complete bundle.
      expect(new Set(gateway.requests.map((request) => request.body)).size).toBe(1);
    });

    it('honours Retry-After on a 503 (capped by the maximum delay)', async () => {
      const gateway = await serve((_request, index) => (index === 0 ? { status: 503, headers: { 'Retry-After': '60' } } : { status: 200, body: syncResult() }));
      const { exitCode } = await sync({}, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
      expect(exitCode).toBe(ExitCode.Ok);
      expect(delays).toEqual([1_000]);
    });

    it('retries dropped connections, then gives up with exit 3', async () => {
      const gateway = await serve(() => 'destroy');
      const { exitCode, io } = await sync({ retries: 2 }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
      expect(exitCode).toBe(ExitCode.ServerOrNetwork);
      expect(gateway.requests).toHaveLength(3);
      expect(delays).toEqual([100, 200]);
      expect(io.stderr.join('\n')).toMatch(/Sync failed after 3 attempts: ECONNRESET/);
    });

    it('counts a single attempt in the singular (--retries 0)', async () => {
      const gateway = await serve(() => ({ status: 503, body: { error: { code: 'unavailable', message: 'down', details: [] } } }));
      const { exitCode, io } = await sync({ retries: 0 }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
      expect(exitCode).toBe(ExitCode.ServerOrNetwork);
      expect(io.stderr.join('\n')).toContain('Sync failed after 1 attempt: the gateway answered 503: down.');
    });

    it('exits 3 when nothing listens', async () => {
      const closed = await startGatewayServer(() => ({ status: 200 }));
      const url = closed.url;
      await closed.close();
      const { exitCode, io } = await sync({ retries: 1 }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: url });
      expect(exitCode).toBe(ExitCode.ServerOrNetwork);
      expect(io.stderr.join('\n')).toContain('ECONNREFUSED');
    });

    it('times out a gateway that never answers and retries', async () => {
      // A server that reads the request but never answers (reading lets it see the client hang up).
      const silent = net.createServer((socket) => socket.resume());
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const port = (silent.address() as net.AddressInfo).port;
      try {
        const { exitCode, io } = await sync({ retries: 1, timeoutMs: 200 }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: `http://127.0.0.1:${port}` });
        expect(exitCode).toBe(ExitCode.ServerOrNetwork);
        expect(io.stderr.join('\n')).toContain('no complete answer within 200 ms');
        expect(delays).toEqual([100]);
      } finally {
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    });

    it('uses the hosted gateway with --enterprise even when SERVICE_GATEWAY_URL is set, and says so', async () => {
      const selfHosted = await startGatewayServer(() => ({ status: 200, body: syncResult() }));
      const hosted = await serve(() => ({ status: 200, body: syncResult() }));
      try {
        const { exitCode, io } = await sync({ enterprise: true }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: selfHosted.url, SERVICE_ENTERPRISE_GATEWAY_URL: hosted.url });
        expect(exitCode).toBe(ExitCode.Ok);
        expect(hosted.requests).toHaveLength(1);
        expect(selfHosted.connections()).toBe(0);
        expect(io.stderr.join('\n')).toContain('--enterprise is set: using the hosted gateway and ignoring SERVICE_GATEWAY_URL.');
      } finally {
        await selfHosted.close();
      }
    });

    it('dry-run with --enterprise names the built-in hosted gateway', async () => {
      const { exitCode, io } = await sync({ dryRun: true, enterprise: true }, {});
      expect(exitCode).toBe(ExitCode.Ok);
      expect(io.stdout.join('\n')).toContain(`A real sync would post to ${DEFAULT_ENTERPRISE_GATEWAY_URL}/api/v1/gateway/sync (from built-in hosted gateway)`);
    });
  });

  describe('unchanged bundles (POST /gateway/sync/check)', () => {
    const checkAnswer = (current: boolean, revision: number | null = 7): Responder => () => ({ status: 200, body: { organizationId: 'acme', service: 'billing', revision, current, serviceUrl: 'https://context.example.com/orgs/acme/services/billing' } });
    const env = (gateway: GatewayServer) => ({ SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
    const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

    it('asks with the digest of exactly the bundle it would post', async () => {
      const gateway = await serve(() => ({ status: 200, body: syncResult() }), checkAnswer(false));
      expect((await sync({}, env(gateway))).exitCode).toBe(ExitCode.Ok);
      const [check] = gateway.checks;
      expect(check.method).toBe('POST');
      expect(check.headers['authorization']).toBe(`Bearer ${TOKEN}`);
      expect(check.headers['content-type']).toBe('application/json');
      const posted = JSON.parse(gateway.requests[0].body) as SyncBundle;
      expect(JSON.parse(check.body) as SyncCheckRequest).toEqual({ service: 'billing', digest: syncBundleDigest(posted, sha256Hex) });
    });

    it("sends the CI's commit, branch and run link with the check and the bundle, outside the digest", async () => {
      const gateway = await serve(() => ({ status: 200, body: syncResult() }), checkAnswer(false));
      const ci = { GITHUB_SHA: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', GITHUB_REF_NAME: 'main', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/billing', GITHUB_RUN_ID: '7' };
      expect((await sync({}, { ...env(gateway), ...ci })).exitCode).toBe(ExitCode.Ok);
      const source = { commit: ci.GITHUB_SHA, branch: 'main', ciRunUrl: 'https://github.com/acme/billing/actions/runs/7' };
      const posted = JSON.parse(gateway.requests[0].body) as SyncBundle;
      expect(posted.source).toEqual(source);
      expect(JSON.parse(gateway.checks[0].body) as SyncCheckRequest).toEqual({ service: 'billing', digest: syncBundleDigest(posted, sha256Hex), source });
    });

    it('when current: prints "unchanged" with every artifact, without parsing Mermaid or posting', async () => {
      const gateway = await serve(() => ({ status: 200, body: syncResult() }), checkAnswer(true));
      const { exitCode, io } = await sync({ json: true }, env(gateway));
      expect(exitCode).toBe(ExitCode.Ok);
      expect(diagramChecks).not.toHaveBeenCalled();
      expect(gateway.checks).toHaveLength(1);
      expect(gateway.requests).toHaveLength(0);
      const output = JSON.parse(io.stdout.join('')) as SyncDoneJson;
      expect(output).toMatchObject({ ok: true, exitCode: 0, dryRun: false, gateway: { url: `${gateway.url}/api/v1/gateway/sync`, source: 'SERVICE_GATEWAY_URL' } });
      expect(output.result).toEqual({
        organizationId: 'acme',
        service: 'billing',
        revision: 7,
        status: 'unchanged',
        created: [],
        updated: [],
        unchanged: [
          { kind: 'flow', name: 'invoice' },
          { kind: 'service-summary', name: 'service-summary' },
        ],
        removed: [],
        serviceUrl: 'https://context.example.com/orgs/acme/services/billing',
      });
      // The table rows carry paths and hashes but no diagram columns: nothing was parsed.
      expect(output.artifacts.map((row) => [row.kind, row.name, row.diagramKind])).toEqual([
        ['flow', 'invoice', undefined],
        ['service-summary', 'service-summary', undefined],
      ]);
      expect(io.stderr).toEqual([]);

      const text = await sync({}, env(gateway));
      expect(text.exitCode).toBe(ExitCode.Ok);
      expect(text.io.stdout.join('\n')).toMatch(/Service billing is unchanged at revision 7\.\n\s+created\s+0\n\s+updated\s+0\n\s+unchanged 2/);
      expect(text.io.stderr.join('\n')).toContain('nothing was re-validated or sent');
      expect(diagramChecks).not.toHaveBeenCalled();
    });

    it('when not current: validates every Mermaid file locally and posts', async () => {
      const gateway = await serve(() => ({ status: 201, body: syncResult() }), checkAnswer(false));
      const { exitCode } = await sync({}, env(gateway));
      expect(exitCode).toBe(ExitCode.Ok);
      expect(diagramChecks).toHaveBeenCalledTimes(1);
      expect(diagramChecks.mock.calls[0][0]).toMatchObject({ diagramFile: '.service/flows/invoice.mmd' });
      expect(gateway.requests).toHaveLength(1);
    });

    it('still refuses an invalid diagram locally when the gateway has never seen this bundle', async () => {
      const gateway = await serve(() => ({ status: 201, body: syncResult() }), checkAnswer(false, null));
      repo.write('.service/flows/invoice.mmd', 'flowchart LR\n  a --> \n');
      const { exitCode, io } = await sync({}, env(gateway));
      expect(exitCode).toBe(ExitCode.Validation);
      expect(diagramChecks).toHaveBeenCalledTimes(1);
      expect(gateway.requests).toHaveLength(0);
      expect(io.stderr.join('\n')).toContain('.service/flows/invoice.mmd');
    });

    it('reports config errors without asking the gateway anything', async () => {
      const gateway = await serve(() => ({ status: 200, body: syncResult() }), checkAnswer(true));
      repo.write('.service.yaml', MINIMAL_REPO['.service.yaml'].replace('.service/flows/invoice.mmd', '.service/flows/missing.mmd'));
      const { exitCode, io } = await sync({}, env(gateway));
      expect(exitCode).toBe(ExitCode.Validation);
      expect(gateway.connections()).toBe(0);
      expect(io.stderr.join('\n')).toContain('missing.mmd');
    });

    it.each([
      ['an older gateway (404)', undefined],
      ['a failing check (500)', (() => ({ status: 500 })) as Responder],
      ['a dropped connection', (() => 'destroy') as Responder],
      ['an answer of another shape', (() => ({ status: 200, body: { current: 'yes' } })) as Responder],
    ])('falls back to the full sync after %s, saying why only with SERVICE_CLI_DEBUG', async (_label, check) => {
      const gateway = await serve(() => ({ status: 201, body: syncResult() }), check);
      const quiet = await sync({}, env(gateway));
      expect(quiet.exitCode).toBe(ExitCode.Ok);
      expect(quiet.io.all()).not.toContain('debug:');
      const verbose = await sync({}, { ...env(gateway), SERVICE_CLI_DEBUG: '1' });
      expect(verbose.exitCode).toBe(ExitCode.Ok);
      expect(verbose.io.stderr.join('\n')).toMatch(/debug: sync check unavailable/);
      expect(gateway.checks).toHaveLength(2);
      expect(gateway.requests).toHaveLength(2);
      expect(diagramChecks).toHaveBeenCalledTimes(2);
      expect(delays).toEqual([]);
    });
  });

  describe('--preview', () => {
    const PREVIEW = { id: '0b8f3c1e-4a52-4d0e-9a47-6f1d2e3c4b5a', label: 'feature/cache', url: 'https://context.example.com/orgs/acme/services/billing/previews/0b8f3c1e-4a52-4d0e-9a47-6f1d2e3c4b5a', expiresAt: '2026-12-11T10:00:00.000Z' };
    const previewAnswer: Responder = () => ({ status: 201, body: syncResult({ revision: 3, status: 'unchanged', preview: PREVIEW }) });
    /** Checks say "current": a preview must post anyway. */
    const current: Responder = () => ({ status: 200, body: { organizationId: 'acme', service: 'billing', revision: 3, current: true, serviceUrl: 'https://context.example.com/orgs/acme/services/billing' } });
    async function preview(options: Partial<SyncOptions>, env: Record<string, string | undefined>, branch?: string) {
      const io = captureIo();
      const exitCode = await runSync(
        { dryRun: false, enterprise: false, json: false, retries: 0, timeoutMs: 5_000, preview: true, ...options },
        { cwd: repo.dir, env, io, userAgent: 'service-cli/test', cliVersion: CLI_VERSION, checkDiagram: diagramChecks, git: async (_dir, args) => (args.includes('--abbrev-ref') ? branch : undefined) },
      );
      return { exitCode, io };
    }

    it('posts the validated bundle to ?preview=<label> even when the current revision holds it, and prints the preview page', async () => {
      const gateway = await serve(previewAnswer, current);
      const { exitCode, io } = await preview({ label: 'feature/cache' }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
      expect(exitCode).toBe(ExitCode.Ok);
      expect(gateway.checks).toHaveLength(0);
      expect(gateway.requests.map((request) => request.url)).toEqual(['/api/v1/gateway/sync?preview=feature%2Fcache']);
      expect((JSON.parse(gateway.requests[0].body) as SyncBundle).service.name).toBe('billing');
      expect(diagramChecks).toHaveBeenCalled();
      const text = io.stdout.join('\n');
      expect(text).toContain('Stored preview "feature/cache" of service billing, compared with revision 3 (not synced');
      expect(text).toContain(`Preview page: ${PREVIEW.url}`);
      expect(text).not.toContain('Service page:');
    });

    it('labels it with the CI branch by default (GitHub pull request head, GitLab merge request source), else the git branch', async () => {
      const gateway = await serve(previewAnswer);
      const env = { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url };
      expect((await preview({}, { ...env, GITHUB_HEAD_REF: 'feature/pr-42', GITHUB_REF_NAME: '42/merge' })).exitCode).toBe(ExitCode.Ok);
      expect((await preview({}, { ...env, CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'mr/source', CI_COMMIT_REF_NAME: 'refs/merge-requests/7/head' })).exitCode).toBe(ExitCode.Ok);
      expect((await preview({}, env, 'local-branch')).exitCode).toBe(ExitCode.Ok);
      expect(gateway.requests.map((request) => new URL(request.url, gateway.url).searchParams.get('preview'))).toEqual(['feature/pr-42', 'mr/source', 'local-branch']);
    });

    it('exits 2 before sending when no label is given or known, or the label is not a branch name', async () => {
      const gateway = await serve(previewAnswer);
      const env = { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url };
      const missing = await preview({}, env);
      expect(missing.exitCode).toBe(ExitCode.Configuration);
      expect(missing.io.stderr.join('\n')).toContain('sync --preview needs a label: pass --label <branch>');
      const bad = await preview({ label: 'has space' }, env);
      expect(bad.exitCode).toBe(ExitCode.Configuration);
      expect(bad.io.stderr.join('\n')).toContain('may hold only letters, digits');
      expect(gateway.requests).toHaveLength(0);
    });

    it('prints the preview under result.preview with --json', async () => {
      const gateway = await serve(previewAnswer);
      const { exitCode, io } = await preview({ json: true, label: 'feature/cache' }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
      expect(exitCode).toBe(ExitCode.Ok);
      const output = JSON.parse(io.stdout.join('')) as SyncDoneJson;
      expect(output.result.preview).toEqual(PREVIEW);
    });
  });

  describe('the token is never printed', () => {
    const echoingServer: Responder = (request) => ({
      status: 401,
      body: { error: { code: 'token_rejected', message: `bad header ${String(request.headers['authorization'])}`, details: [{ message: `token ${TOKEN}` }] } },
    });

    it.each([
      ['a rejected token whose error echoes it (text)', false],
      ['a rejected token whose error echoes it (--json)', true],
    ])('%s', async (_label, json) => {
      const gateway = await serve(echoingServer);
      const { exitCode, io } = await sync({ json }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url });
      expect(exitCode).toBe(ExitCode.Configuration);
      expect(gateway.requests[0].headers['authorization']).toBe(`Bearer ${TOKEN}`);
      expect(io.all()).not.toContain(TOKEN);
      expect(io.all()).toContain(REDACTED);
    });

    it('in success, retry, failure and dry-run output', async () => {
      const gateway = await serve((_request, index) => (index === 0 ? { status: 500 } : { status: 200, body: syncResult() }));
      const runs = [
        await sync({}, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url }),
        await sync({ json: true }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url }),
        await sync({ dryRun: true }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url }),
        await sync({ retries: 0 }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: 'http://127.0.0.1:1' }),
      ];
      expect(runs.map((run) => run.exitCode)).toEqual([0, 0, 0, 3]);
      for (const run of runs) {
        expect(run.io.all().length).toBeGreaterThan(0);
        expect(run.io.all()).not.toContain(TOKEN);
      }
    });
  });
});
