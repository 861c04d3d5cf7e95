import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ServiceConfigProblemCode as Code } from '@sc/contracts';
import { ExitCode } from '../src/lib/exit-codes';
import { CliError } from '../src/lib/cli-error';
import { loadServiceConfig } from '../src/lib/load-config';
import { createTempRepo, MINIMAL_REPO, type TempRepo } from './support/temp-repo';

describe('loadServiceConfig (filesystem checks)', () => {
  let repo: TempRepo;
  let outside: TempRepo;

  beforeEach(() => {
    repo = createTempRepo();
    outside = createTempRepo({ 'secret.mmd': 'flowchart LR\n  a --> b\n', 'dir/notes.md': '# outside\n' }, 'service-cli-outside-');
  });
  afterEach(() => {
    repo.cleanup();
    outside.cleanup();
  });

  it('reads every file of a valid config with size and SHA-256', async () => {
    for (const [file, content] of Object.entries(MINIMAL_REPO)) repo.write(file, content);
    const loaded = await loadServiceConfig(undefined, repo.dir);
    expect(loaded.problems).toEqual([]);
    expect(loaded.rootDir).toBe(repo.dir);
    const flow = loaded.artifacts.find((artifact) => artifact.kind === 'flow');
    expect(flow?.loaded.main).toMatchObject({ path: '.service/flows/invoice.mmd', size: Buffer.byteLength(MINIMAL_REPO['.service/flows/invoice.mmd']) });
    expect(flow?.loaded.main?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(flow?.loaded.notes?.content).toBe('# Invoice flow\n');
  });

  it('reports missing files, a missing context file, directories and symlinks leading out, all at once with lines', async () => {
    repo.write('.service/diagrams/a.mmd', 'flowchart LR\n  a --> b\n');
    repo.write('.service/inside.md', '# inside\n');
    mkdirSync(path.join(repo.dir, '.service/a-directory.md'), { recursive: true });
    symlinkSync(path.join(outside.dir, 'secret.mmd'), path.join(repo.dir, '.service/diagrams/linked-out.mmd'));
    symlinkSync(path.join(outside.dir, 'dir'), path.join(repo.dir, '.service/linked-dir'));
    symlinkSync(path.join(repo.dir, '.service/inside.md'), path.join(repo.dir, 'inside-link.md'));
    writeFileSync(
      path.join(repo.dir, '.service.yaml'),
      [
        'version: 1', // 1
        'service: {name: svc}', // 2
        'architectureDiagrams:', // 3
        '  - name: a', // 4
        '    path: .service/diagrams/a.mmd', // 5
        '    contextPath: .service/diagrams/a.context.json', // 6
        '  - name: out', // 7
        '    path: .service/diagrams/linked-out.mmd', // 8
        'flows:', // 9
        '  - name: missing', // 10
        '    path: .service/flows/missing.mmd', // 11
        '    notesPath: .service/linked-dir/notes.md', // 12
        'docs:', // 13
        '  - {name: dir, path: .service/a-directory.md}', // 14
        '  - {name: link-inside, path: inside-link.md}', // 15
        '',
      ].join('\n'),
    );
    const loaded = await loadServiceConfig(undefined, repo.dir);
    expect(loaded.problems.map((problem) => [problem.code, problem.line, problem.path])).toEqual([
      [Code.ContextFileNotFound, 6, 'architectureDiagrams[0].contextPath'],
      [Code.SymlinkEscapesRepository, 8, 'architectureDiagrams[1].path'],
      [Code.FileNotFound, 11, 'flows[0].path'],
      [Code.SymlinkEscapesRepository, 12, 'flows[0].notesPath'],
      [Code.NotAFile, 14, 'docs[0].path'],
    ]);
    expect(loaded.problems.every((problem) => problem.severity === 'error' && problem.file === '.service.yaml')).toBe(true);
    // A symlink that stays inside the repository is fine.
    expect(loaded.artifacts.find((artifact) => artifact.name === 'link-inside')?.loaded.main?.content).toBe('# inside\n');
    // Nothing from outside was read.
    expect(JSON.stringify(loaded.artifacts)).not.toContain('a --> b\\n"}');
  });

  it('refuses non-UTF-8 files and keeps a BOM so the hash matches the bytes', async () => {
    repo.write('.service.yaml', 'version: 1\nservice: {name: svc}\ndocs:\n  - {name: bin, path: bin.md}\n  - {name: bom, path: bom.md}\n');
    writeFileSync(path.join(repo.dir, 'bin.md'), Buffer.from([0xff, 0xfe, 0x00, 0xc3]));
    writeFileSync(path.join(repo.dir, 'bom.md'), Buffer.from('\ufeff# bom\n', 'utf8'));
    const loaded = await loadServiceConfig(undefined, repo.dir);
    expect(loaded.problems.map((problem) => problem.code)).toEqual([Code.FileNotUtf8]);
    const bom = loaded.artifacts.find((artifact) => artifact.name === 'bom')?.loaded.main;
    expect(bom?.content.startsWith('\ufeff')).toBe(true);
    expect(bom?.size).toBe(Buffer.byteLength(bom?.content ?? '', 'utf8'));
  });

  it('accepts --config as a file or as its directory, and shows paths relative to the working directory', async () => {
    for (const [file, content] of Object.entries(MINIMAL_REPO)) repo.write(`services/billing/${file}`, content);
    const byDir = await loadServiceConfig('services/billing', repo.dir);
    const byFile = await loadServiceConfig('services/billing/.service.yaml', repo.dir);
    expect(byDir.configPath).toBe(byFile.configPath);
    expect(byDir.displayPath).toBe('services/billing/.service.yaml');
    expect(byDir.rootDir).toBe(path.join(repo.dir, 'services/billing'));
    expect(byDir.problems).toEqual([]);
  });

  it('exits 2 (configuration) when there is no config file', async () => {
    const error = await loadServiceConfig(undefined, repo.dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CliError);
    expect(error).toMatchObject({ exitCode: ExitCode.Configuration, code: 'config_not_found' });
    expect((error as CliError).message).toContain('service-cli init');
  });
});
