import { parseMermaid } from '@sc/diagram/node';
import { checkDiagram, type DiagramChecker } from '../src/lib/diagram-check';
import { ExitCode } from '../src/lib/exit-codes';
import { runInspect } from '../src/lib/run-inspect';
import { runSync, type SyncOptions } from '../src/lib/run-sync';
import { captureIo } from './support/capture-io';
import { CLI_VERSION, startGatewayServer } from './support/gateway-server';
import { useTempRepo } from './support/temp-repo';

const inProcess: DiagramChecker = (input) => checkDiagram(input, parseMermaid);

/** A repository whose topology has an unclosed label on line 3 and whose context has a wrong node type. */
const BROKEN_REPO: Record<string, string> = {
  '.service.yaml': [
    'version: 1',
    'service:',
    '  name: billing',
    'architectureDiagrams:',
    '  - name: topology',
    '    path: .service/diagrams/topology.mmd',
    '    contextPath: .service/diagrams/topology.context.json',
    '',
  ].join('\n'),
  '.service/diagrams/topology.mmd': 'flowchart LR\n  api --> db\n  db --> cache[Cache\n',
  '.service/diagrams/topology.context.json': '{\n  "nodes": {\n    "api": { "type": "servce" }\n  }\n}\n',
};

const SENTENCE = 'line 3, column 15: the node label opened with `[` is not closed (expected `]`).';
const EXCERPT = ['    3 |   db --> cache[Cache', '      |               ^'].join('\n');

describe('Mermaid errors in plain words, in the CLI', () => {
  const repo = useTempRepo(BROKEN_REPO);

  async function dryRun(options: Partial<SyncOptions> = {}) {
    const io = captureIo();
    const exitCode = await runSync(
      { dryRun: true, enterprise: false, json: false, ...options },
      { cwd: repo.dir, env: {}, io, userAgent: 'service-cli/test', cliVersion: CLI_VERSION, checkDiagram: inProcess },
    );
    return { exitCode, io };
  }

  it('sync --dry-run says what is wrong with line, column and a caret, without the parser token list', async () => {
    const { exitCode, io } = await dryRun();
    expect(exitCode).toBe(ExitCode.Validation);
    const errors = io.stderr.join('\n');
    expect(errors).toContain(`.service/diagrams/topology.mmd:3:15  mermaid_syntax_error  ${SENTENCE}\n${EXCERPT}`);
    expect(errors).not.toMatch(/SQE|expected one of/);
  });

  it('--verbose adds the parser detail exactly once', async () => {
    const { io } = await dryRun({ verbose: true });
    const errors = io.stderr.join('\n');
    expect(errors).toContain(`${SENTENCE}\n${EXCERPT}\n    Mermaid's parser at line 3, column `);
    expect(errors.match(/SQE/g)).toHaveLength(1);
  });

  it('still checks the context of a diagram that failed, lists its problems and counts them in the table', async () => {
    const { io } = await dryRun();
    expect(io.stderr.join('\n')).toContain('.service/diagrams/topology.context.json:3:22  context_invalid_value  $.nodes.api.type: "servce" is not a valid node type.');
    expect(io.stdout.join('\n')).toMatch(/\n\s+context\s+1 error, 0 warnings; ids not checked \(the diagram has errors\)\n/);
  });

  it('inspect prints the same sentence and caret', async () => {
    const io = captureIo();
    const exitCode = await runInspect({ file: '.service/diagrams/topology.mmd', databases: [], json: false }, { cwd: repo.dir, io, checkDiagram: inProcess });
    expect(exitCode).toBe(ExitCode.Validation);
    expect(io.stderr.join('\n')).toContain(`${SENTENCE}\n${EXCERPT}`);
  });

  it('inspect --json carries the excerpt and the detail as fields', async () => {
    const io = captureIo();
    await runInspect({ file: '.service/diagrams/topology.mmd', databases: [], json: true }, { cwd: repo.dir, io, checkDiagram: inProcess });
    const [problem] = (JSON.parse(io.stdout.join('')) as { problems: Array<Record<string, unknown>> }).problems;
    expect(problem).toMatchObject({ message: SENTENCE, line: 3, column: 15, excerpt: '3 |   db --> cache[Cache\n  |               ^', detail: expect.stringContaining('SQE') });
    expect(problem['hint']).toBeUndefined();
  });

  it("prints the gateway's refusal with the same sentence and caret (the parser detail only with --verbose)", async () => {
    const detail = {
      code: 'mermaid_syntax_error',
      message: SENTENCE,
      artifact: { kind: 'architecture-diagram', name: 'topology' },
      file: '.service/diagrams/topology.mmd',
      line: 3,
      column: 15,
      excerpt: '3 |   db --> cache[Cache\n  |               ^',
      detail: "Mermaid's parser at line 3, column 16: found end of file, expected one of SQE, PE.",
    };
    const server = await startGatewayServer(() => ({ status: 422, body: { error: { code: 'sync_validation_failed', message: 'The sync was refused and nothing was stored: 1 problem(s) in 1 artifact(s).', details: [detail] } } }));
    try {
      // A checker that finds nothing, so the bundle reaches the gateway, which refuses it.
      const passing: DiagramChecker = async () => ({ ok: true, summary: { nodes: 0, edges: 0, groups: 0 }, problems: [] });
      const run = async (verbose: boolean) => {
        const io = captureIo();
        const exitCode = await runSync(
          { dryRun: false, enterprise: false, json: false, retries: 0, timeoutMs: 5_000, verbose },
          { cwd: repo.dir, env: { SERVICE_TOKEN: 'sc_sync_00112233445566778899aabbccddeeff', SERVICE_GATEWAY_URL: server.url }, io, userAgent: 'service-cli/test', cliVersion: CLI_VERSION, checkDiagram: passing },
        );
        return { exitCode, errors: io.stderr.join('\n') };
      };
      const plain = await run(false);
      expect(plain.exitCode).toBe(ExitCode.Validation);
      expect(plain.errors).toContain(`.service/diagrams/topology.mmd:3:15  mermaid_syntax_error  ${SENTENCE}\n${EXCERPT}`);
      expect(plain.errors).not.toContain('SQE');
      expect((await run(true)).errors).toContain(`${EXCERPT}\n    Mermaid's parser at line 3, column 16: found end of file, expected one of SQE, PE.`);
    } finally {
      await server.close();
    }
  });
});
