import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { ServiceConfigProblemCode as Code } from '@sc/contracts';
import { ExitCode } from '../src/lib/exit-codes';
import { CliError } from '../src/lib/cli-error';
import { loadServiceConfig } from '../src/lib/load-config';
import { runInspect } from '../src/lib/run-inspect';
import { runSync } from '../src/lib/run-sync';
import { CLI_VERSION } from './support/gateway-server';
import { captureIo } from './support/capture-io';
import { createTempRepo, MINIMAL_REPO, type TempRepo, useTempRepo } from './support/temp-repo';

// Reading a FIFO blocks until a writer appears: on the unfixed code these tests fail by this timeout, not hang.
jest.setTimeout(10_000);

describe('files that are not regular files', () => {
  let repo: TempRepo;
  const fifos: string[] = [];

  function mkfifo(relativePath: string): string {
    const target = path.join(repo.dir, relativePath);
    rmSync(target, { force: true });
    execFileSync('mkfifo', [target]);
    fifos.push(target);
    return target;
  }

  beforeEach(() => {
    repo = createTempRepo(MINIMAL_REPO);
  });
  afterEach(() => {
    // Opening the write end releases a reader stuck in open() (the unfixed code), so the test run can end.
    for (const fifo of fifos.splice(0)) {
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // ENXIO: nobody is reading it, which is the point.
      }
    }
    repo.cleanup();
  });

  it('refuses a .service.yaml that is a FIFO, naming the path, with exit code 1 (sync --dry-run)', async () => {
    repo.cleanup();
    repo = createTempRepo();
    mkfifo('.service.yaml');
    const io = captureIo();
    const exitCode = await runSync(
      { dryRun: true, enterprise: false, json: true, retries: 0, timeoutMs: 5_000 },
      { cwd: repo.dir, env: {}, io, userAgent: 'service-cli/test', cliVersion: CLI_VERSION },
    );
    expect(exitCode).toBe(ExitCode.Validation);
    expect(JSON.parse(io.stdout.join("\n"))).toMatchObject({ ok: false, exitCode: 1, error: { code: 'config_not_a_file', message: '.service.yaml is a FIFO (named pipe), not a regular file; refusing to read it.' } });
  });

  it('refuses a --config that is a character device', async () => {
    const error = await loadServiceConfig('/dev/zero', repo.dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CliError);
    expect(error).toMatchObject({ exitCode: ExitCode.Validation, code: 'config_not_a_file', message: '/dev/zero is a character device, not a regular file; refusing to read it.' });
  });

  it('reports a referenced file that is a FIFO as a problem with its config line', async () => {
    mkfifo('.service/flows/invoice.md');
    const loaded = await loadServiceConfig(undefined, repo.dir);
    expect(loaded.problems).toEqual([
      {
        severity: 'error',
        code: Code.NotAFile,
        file: '.service.yaml',
        line: 9,
        path: 'flows[0].notesPath',
        message: '.service/flows/invoice.md is a FIFO (named pipe), not a regular file; refusing to read it.',
      },
    ]);
  });

  it('refuses a FIFO given to inspect', async () => {
    mkfifo('diagram.mmd');
    const io = captureIo();
    const exitCode = await runInspect({ file: 'diagram.mmd', databases: [], json: true }, { cwd: repo.dir, io });
    expect(exitCode).toBe(ExitCode.Validation);
    expect(JSON.parse(io.stdout.join("\n"))).toMatchObject({ error: { code: 'not_a_file', message: 'diagram.mmd is a FIFO (named pipe), not a regular file; refusing to read it.' } });
  });
});

describe('NUL characters', () => {
  const repo = useTempRepo(MINIMAL_REPO);

  it('refuses NUL in a Mermaid file, a notes file and a context file with the file, line and column', async () => {
    repo.write(
      '.service.yaml',
      [
        'version: 1',
        'service: {name: billing}',
        'architectureDiagrams:',
        '  - {name: main, path: .service/main.mmd, contextPath: .service/main.context.json}',
        'flows:',
        '  - {name: invoice, path: .service/flows/invoice.mmd, notesPath: .service/flows/invoice.md}',
        '',
      ].join('\n'),
    );
    repo.write('.service/main.mmd', 'flowchart LR\n  a --> b\n');
    repo.write('.service/main.context.json', '{\n  "nodes": {\n    "a": {"description": "x\u0000y"}\n  }\n}\n');
    repo.write('.service/flows/invoice.mmd', 'flowchart LR\n  order --> in\u0000voice\n');
    repo.write('.service/flows/invoice.md', '\u0000# notes\n');
    const loaded = await loadServiceConfig(undefined, repo.dir);
    expect(loaded.problems.map(({ code, file, line, column }) => ({ code, file, line, column }))).toEqual([
      { code: Code.FileContainsNul, file: '.service/main.context.json', line: 3, column: 28 },
      { code: Code.FileContainsNul, file: '.service/flows/invoice.mmd', line: 2, column: 15 },
      { code: Code.FileContainsNul, file: '.service/flows/invoice.md', line: 1, column: 1 },
    ]);
    expect(loaded.problems[1]?.message).toBe('.service/flows/invoice.mmd contains a NUL character (U+0000) at line 2, column 15; the service stores text and cannot hold it. Remove it.');
  });

  it('refuses NUL in the service description (YAML escape) with the config line, and sync --dry-run exits 1', async () => {
    repo.write('.service.yaml', MINIMAL_REPO['.service.yaml'].replace('  description: Invoices', '  description: "Invo\\0ices"'));
    const io = captureIo();
    const exitCode = await runSync({ dryRun: true, enterprise: false, json: true, retries: 0, timeoutMs: 5_000 }, { cwd: repo.dir, env: {}, io, userAgent: 'service-cli/test', cliVersion: CLI_VERSION });
    expect(exitCode).toBe(ExitCode.Validation);
    const output = JSON.parse(io.stdout.join("\n")) as { problems: unknown[] };
    expect(output.problems).toContainEqual(
      expect.objectContaining({ code: Code.UnstorableCharacter, file: '.service.yaml', line: 4, path: 'service.description', message: expect.stringContaining('NUL character (U+0000)') }),
    );
  });

  it('inspect reports NUL in the Mermaid file with line and column', async () => {
    repo.write('diagram.mmd', 'flowchart LR\n  a --> b\u0000\n');
    const io = captureIo();
    const exitCode = await runInspect({ file: 'diagram.mmd', databases: [], json: true }, { cwd: repo.dir, io });
    expect(exitCode).toBe(ExitCode.Validation);
    expect((JSON.parse(io.stdout.join("\n")) as { problems: unknown[] }).problems).toContainEqual(expect.objectContaining({ code: Code.FileContainsNul, file: 'diagram.mmd', line: 2, column: 10 }));
  });
});
