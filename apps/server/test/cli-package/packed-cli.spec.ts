import type { ServiceDetail, SyncResult } from '@sc/contracts';
import { execFile, type ExecFileException } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SERVER_VERSION } from '../../src/modules/cli-package/server-version';
import { COLD_WORKER_TIMEOUT } from '../artifacts/bundles';
import { runCli, SAMPLE_REPO, WORKSPACE_ROOT, type CliRun } from '../artifacts/cli-process';
import { bearer, call, createTestApp, createToken, setupOrganization, useTestApp } from '../support';

/**
 * The packed service-cli as a pipeline in another repository meets it: `npm run pack:cli`'s tarball, served by the
 * server at /downloads/service-cli.tgz, installed with npm from that URL into an empty directory outside this
 * repository, then run with an environment of its own (no workspace, no repository node_modules, no NODE_PATH).
 * Packing and installing happen once for the file; docs/ci/sync.sh is run end to end against the same server.
 */
// npm install (dependencies from the npm cache, else the registry) and several CLI runs (Node start-up, Mermaid in a
// worker thread) on a shared 2-core CI machine.
jest.setTimeout(240_000);

const MACHINE_NETWORK_SETTINGS = /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|https?_proxy|no_proxy|npm_config_(cache|registry|userconfig|globalconfig|cafile|proxy|https_proxy|noproxy))$/i;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, maxBuffer: 16 * 1024 * 1024, timeout: 180_000 }, (error: ExecFileException | null, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('the packed service-cli, installed from the server', () => {
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  let work: string;
  let packageDir: string;
  let tarball: string;
  let syncToken: string;
  let readToken: string;
  let installDir: string;
  let install: Run;
  /** Node and the system tools only: nothing of this repository. */
  let isolatedEnv: Record<string, string>;
  let bin: string;

  const cli = (args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> => runCli(args, { ...isolatedEnv, ...env }, cwd, { bin, isolated: true });
  const copyOfSample = (): string => {
    const dir = mkdtempSync(join(work, 'repo-'));
    cpSync(SAMPLE_REPO, dir, { recursive: true });
    return dir;
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'sc-packed-cli-'));
    packageDir = join(work, 'package');
    const packed = await run(process.execPath, [join(WORKSPACE_ROOT, 'apps/cli/scripts/pack.mjs'), '--out', packageDir], { cwd: WORKSPACE_ROOT, env: process.env as Record<string, string> });
    if (packed.code !== 0) throw new Error(`pack:cli failed:\n${packed.stdout}\n${packed.stderr}`);
    tarball = join(packageDir, `service-cli-${SERVER_VERSION}.tgz`);
  }, 240_000);
  const t = useTestApp(() => ({ env: { ...COLD_WORKER_TIMEOUT, SERVICE_CLI_PACKAGE_DIR: packageDir } }));
  beforeAll(async () => {
    const acme = await setupOrganization(t, { orgId: 'acme' });
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    readToken = (await createToken(t, acme.owner, 'acme', { name: 'dashboard', scopes: ['read'] })).token;

    isolatedEnv = {
      PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      // npm's cache and settings live under HOME (~/.npm, ~/.npmrc): jsdom comes from that cache, else the registry.
      HOME: process.env['HOME'] ?? work,
      // How this machine reaches the registry (its proxy and CA certificates), as a CI runner would have it.
      ...Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => MACHINE_NETWORK_SETTINGS.test(entry[0]) && entry[1] !== undefined)),
    };
    installDir = join(work, 'install');
    install = await run('npm', ['install', '--prefix', installDir, '--no-audit', '--no-fund', '--prefer-offline', `${t.baseUrl}/downloads/service-cli.tgz`], { cwd: work, env: isolatedEnv });
    bin = join(installDir, 'node_modules/service-cli/bin/run.js');
  }, 240_000);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is served byte for byte as packed, with its SHA-256', async () => {
    const packedBytes = readFileSync(tarball);
    const served = Buffer.from(await (await fetch(`${t.baseUrl}/downloads/service-cli.tgz`)).arrayBuffer());
    expect(served.equals(packedBytes)).toBe(true);
    expect(await (await fetch(`${t.baseUrl}/downloads/service-cli.tgz.sha256`)).text()).toBe(`${sha256(packedBytes)}  service-cli.tgz\n`);
  });

  it('installs with npm from the server URL into an empty directory, needing nothing of this repository', () => {
    expect(install.code).toBe(0);
    const installed = JSON.parse(readFileSync(join(installDir, 'node_modules/service-cli/package.json'), 'utf8')) as Record<string, unknown>;
    expect(installed).toMatchObject({ name: 'service-cli', version: SERVER_VERSION, bin: { 'service-cli': './bin/run.js' } });
    // The workspace libraries and Mermaid are inside the bundle; jsdom, resvg (a native module, for `render`) and
    // libpg-query (WebAssembly beside its JavaScript, for `diff` of PostgreSQL schemas) are dependencies.
    expect(Object.keys(installed['dependencies'] as object).sort()).toEqual(['@resvg/resvg-js', 'jsdom', 'libpg-query']);
    expect(readdirSync(join(installDir, 'node_modules/service-cli/dist')).sort()).toEqual(['commands.js', 'mermaid-worker.js']);
    expect(existsSync(join(installDir, 'node_modules/@sc'))).toBe(false);
    expect(existsSync(join(installDir, 'node_modules/mermaid'))).toBe(false);
  });

  it('prints its version through the installed bin link', async () => {
    const version = await run(join(installDir, 'node_modules/.bin/service-cli'), ['--version'], { cwd: work, env: isolatedEnv });
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(`service-cli/${SERVER_VERSION} ${process.platform}-${process.arch} node-${process.version}`);
  });

  it('shows the help of every command, read from the packed messages/<command>.md', async () => {
    for (const command of ['init', 'inspect', 'sync', 'diff']) {
      const help = await run(process.execPath, [bin, command, '--help'], { cwd: work, env: isolatedEnv });
      expect(help.code).toBe(0);
      const messages = readFileSync(join(WORKSPACE_ROOT, `apps/cli/messages/${command}.md`), 'utf8');
      const firstWords = (key: string) => new RegExp(`^# ${key}\\n\\n(\\S+ \\S+ \\S+)`, 'm').exec(messages)?.[1] ?? `no ${key} in ${command}.md`;
      expect(help.stdout).toContain(firstWords('summary'));
      expect(help.stdout).toContain(firstWords('description'));
      expect(help.stdout).toContain('EXAMPLES');
    }
  });

  it('init writes a starter repository that inspect and sync --dry-run accept', async () => {
    const starter = join(work, 'starter');
    const init = await cli(['init', '--dir', starter, '--name', 'starter', '--json'], work);
    expect(init.code).toBe(0);
    expect(init.json).toMatchObject({ ok: true, created: expect.arrayContaining(['.service.yaml', '.service/diagrams/topology.mmd']) });

    const inspect = await cli(['inspect', '.service/diagrams/topology.mmd', '--context', '.service/diagrams/topology.context.json'], starter);
    expect(inspect.stderr).toBe('');
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toMatch(/^\.service\/diagrams\/topology\.mmd: flowchart/);
    expect(inspect.stdout).toContain('.service/diagrams/topology.mmd is valid.');

    const dryRun = await cli(['sync', '--dry-run'], starter);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toContain('2 artifacts valid; the sync would send them.');
  });

  it('checks every diagram kind of the fixture repository, syncs it and links the service page', async () => {
    const repo = copyOfSample();
    const env = { SERVICE_TOKEN: syncToken, SERVICE_GATEWAY_URL: t.baseUrl };
    const dryRun = await cli(['sync', '--dry-run', '--json'], repo, env);
    expect(dryRun.code).toBe(0);
    expect(dryRun.json).toMatchObject({ ok: true, dryRun: true, service: 'payments' });
    expect((dryRun.json['artifacts'] as Array<{ diagramKind?: string }>).map((row) => row.diagramKind).filter(Boolean).sort()).toEqual(
      expect.arrayContaining(['c4', 'flowchart', 'sequence', 'state']),
    );

    const synced = await cli(['sync', '--json', '--retries', '0', '--timeout', '180'], repo, env);
    expect(synced.stderr).not.toContain(syncToken);
    expect(synced.code).toBe(0);
    const result = synced.json['result'] as SyncResult;
    expect(result).toMatchObject({ organizationId: 'acme', service: 'payments', revision: 1, status: 'created', serviceUrl: `${t.baseUrl}/orgs/acme/services/payments` });
    expect(result.created).toHaveLength(16);

    const again = await cli(['sync'], repo, env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Service payments is unchanged at revision 1.');
    expect(again.stdout).toContain(`Service page: ${t.baseUrl}/orgs/acme/services/payments`);
    // Same release on both sides: the handshake has nothing to say.
    expect(again.stderr).not.toMatch(/warning|upgrade/i);
  });

  it('stops with exit 2 and the install command when the server needs a newer CLI', async () => {
    const strict = await createTestApp({ env: { SERVICE_CLI_PACKAGE_DIR: packageDir, SERVICE_CLI_MIN_VERSION: '99.0.0' } });
    try {
      const strictOrg = await setupOrganization(strict, { orgId: 'strict' });
      const token = (await createToken(strict, strictOrg.owner, 'strict', { name: 'ci', scopes: ['sync'] })).token;
      const outdated = await cli(['sync'], copyOfSample(), { SERVICE_TOKEN: token, SERVICE_GATEWAY_URL: strict.baseUrl });
      expect(outdated.code).toBe(2);
      expect(outdated.stderr).toContain(
        `Error: service-cli ${SERVER_VERSION} is too old for this gateway (server ${SERVER_VERSION} accepts service-cli 99.0.0 or newer). Upgrade it: npm install -g ${strict.baseUrl}/downloads/service-cli.tgz`,
      );
      const services = await call<unknown[]>(strict.baseUrl, 'GET', '/api/v1/orgs/strict/services', { headers: bearer(strictOrg.adminToken) });
      expect(services.body).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  describe('docs/ci/sync.sh (the plain shell CI step)', () => {
    const script = join(WORKSPACE_ROOT, 'docs/ci/sync.sh');
    const step = (repo: string, ci: Record<string, string>) =>
      run('bash', [script], { cwd: repo, env: { ...isolatedEnv, SERVICE_GATEWAY_URL: t.baseUrl, SERVICE_TOKEN: syncToken, SERVICE_CLI_PREFIX: join(work, 'ci-cli'), ...ci } });
    const revisionOf = async (service: string) => (await call<ServiceDetail>(t.baseUrl, 'GET', `/api/v1/orgs/acme/services/${service}`, { headers: bearer(readToken) })).body;

    it('checks without sending in a merge request pipeline, and syncs on the default branch', async () => {
      const repo = copyOfSample();
      writeFileSync(join(repo, '.service.yaml'), readFileSync(join(repo, '.service.yaml'), 'utf8').replace(/^ {2}name: payments$/m, '  name: payments-ci'));

      const mergeRequest = await step(repo, { CI_MERGE_REQUEST_IID: '7', CI_DEFAULT_BRANCH: 'main' });
      expect(mergeRequest.stderr).toContain('checking .service.yaml without sending (sync --dry-run)');
      expect(mergeRequest.code).toBe(0);
      expect(mergeRequest.stdout).toContain('16 artifacts valid; the sync would send them.');
      expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/payments-ci', { headers: bearer(readToken) })).status).toBe(404);

      const defaultBranch = await step(repo, { CI_COMMIT_BRANCH: 'main', CI_DEFAULT_BRANCH: 'main' });
      expect(defaultBranch.stderr).toContain(`main is the default branch: syncing .service.yaml to ${t.baseUrl}`);
      expect(defaultBranch.code).toBe(0);
      expect(defaultBranch.stdout).toContain('Synced service payments-ci: revision 1.');
      expect(defaultBranch.stdout).toContain(`Service page: ${t.baseUrl}/orgs/acme/services/payments-ci`);
      expect(defaultBranch.stdout + defaultBranch.stderr).not.toContain(syncToken);
      expect(await revisionOf('payments-ci')).toMatchObject({ name: 'payments-ci', currentRevision: 1 });
    });
  });
});
