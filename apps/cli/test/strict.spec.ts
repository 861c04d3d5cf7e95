import type { SyncBundle } from '@sc/contracts';
import { parseMermaid } from '@sc/diagram/node';
import { checkDiagram, type DiagramChecker } from '../src/lib/diagram-check';
import { ExitCode } from '../src/lib/exit-codes';
import { runSync, type SyncOptions } from '../src/lib/run-sync';
import { captureIo } from './support/capture-io';
import { CLI_VERSION, startGatewayServer, syncResult, type GatewayServer } from './support/gateway-server';
import { useTempRepo } from './support/temp-repo';

const TOKEN = 'sc_sync_0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const inProcess: DiagramChecker = (input) => checkDiagram(input, parseMermaid);

const config = (strict?: boolean) =>
  [
    'version: 1',
    'service:',
    '  name: billing',
    ...(strict === undefined ? [] : [`strict: ${strict}`]),
    'architectureDiagrams:',
    '  - name: topology',
    '    path: topology.mmd',
    '    contextPath: topology.context.json',
    '',
  ].join('\n');

/** `Api` is a mistyped node id (the diagram's node is `api`): a warning, not an error. */
const MISTYPED_ID = '{ "nodes": { "Api": { "type": "shape", "shape": "hexagon" } } }\n';
const CORRECT_ID = '{ "nodes": { "api": { "type": "shape", "shape": "hexagon" } } }\n';

describe('strict mode: warnings fail the sync', () => {
  const repo = useTempRepo({ 'topology.mmd': 'flowchart LR\n  api --> db\n', 'topology.context.json': MISTYPED_ID });
  let server: GatewayServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function sync(options: Partial<SyncOptions>, env: Record<string, string> = {}) {
    const io = captureIo();
    const exitCode = await runSync(
      { dryRun: false, enterprise: false, json: false, retries: 0, timeoutMs: 5_000, ...options },
      { cwd: repo.dir, env, io, userAgent: 'service-cli/test', cliVersion: CLI_VERSION, checkDiagram: inProcess },
    );
    return { exitCode, io };
  }

  it('a mistyped node id is a warning: a lenient dry run passes and lists it', async () => {
    repo.write('.service.yaml', config());
    const { exitCode, io } = await sync({ dryRun: true });
    expect(exitCode).toBe(ExitCode.Ok);
    expect(io.stderr.join('\n')).toMatch(/warning\s+topology\.context\.json:1:\d+\s+context_unmatched_key\s+.*"Api"/);
  });

  it('strict: true in .service.yaml fails the dry run on that warning; --no-strict overrides it', async () => {
    repo.write('.service.yaml', config(true));
    const strict = await sync({ dryRun: true });
    expect(strict.exitCode).toBe(ExitCode.Validation);
    expect(strict.io.stderr.join('\n')).toContain('Invalid: strict mode (strict: true in .service.yaml, or --strict) fails on 1 warning; a real sync would send nothing.');
    expect((await sync({ dryRun: true, strict: false })).exitCode).toBe(ExitCode.Ok);
  });

  it('--strict fails without the config key too, and a strict real sync sends nothing', async () => {
    repo.write('.service.yaml', config());
    expect((await sync({ dryRun: true, strict: true })).exitCode).toBe(ExitCode.Validation);
    server = await startGatewayServer(() => ({ status: 201, body: syncResult() }));
    const { exitCode, io } = await sync({ strict: true }, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: server.url });
    expect(exitCode).toBe(ExitCode.Validation);
    expect(io.stderr.join('\n')).toContain('Error: .service.yaml: strict mode (strict: true in .service.yaml, or --strict) fails on 1 warning; nothing was sent.');
    expect(server.requests).toHaveLength(0);
  });

  it('a strict sync without warnings tells the gateway it is strict (so the gateway refuses warnings too)', async () => {
    repo.write('.service.yaml', config(true));
    repo.write('topology.context.json', CORRECT_ID);
    server = await startGatewayServer(() => ({ status: 201, body: syncResult() }));
    const { exitCode } = await sync({}, { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: server.url });
    expect(exitCode).toBe(ExitCode.Ok);
    expect((JSON.parse(server.requests[0].body) as SyncBundle).strict).toBe(true);
  });
});
