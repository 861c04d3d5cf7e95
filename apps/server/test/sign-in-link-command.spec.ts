import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Env } from '../src/config/env';
import { runSignInLinkCommand, SignInLinkExit } from '../src/modules/sign-in-links/sign-in-link.command';
import { addMember, call, createTestApp, sessionFrom, sessionHeaders, setupOrganization, type SeededOrganization, type TestApp } from './support';

const WORKSPACE_ROOT = resolve(__dirname, '../../..');
const PUBLIC_URL = 'https://sc.example.test';
const SECRET_KEY = randomBytes(32).toString('base64');

interface Run {
  code: number | null;
  out: string;
  err: string;
}

/**
 * The break-glass `sign-in-link` command against the database of a real server: embedded PGlite on disk by
 * default (the server must be stopped: one process per data directory), PostgreSQL with TEST_DATABASE_URL
 * (works while the server runs). The link it prints is redeemed over HTTP like any other.
 */
describe('sign-in-link command (break-glass)', () => {
  const base = mkdtempSync(join(tmpdir(), 'sc-break-glass-'));
  let t: TestApp;
  let org: SeededOrganization;

  const start = () => createTestApp({ embeddedDataDir: join(base, 'pglite') });
  const embedded = () => t.config.database.kind === 'pglite';

  /** The server's environment as an operator would pass it on the host. */
  function hostEnv(): Env {
    const database = t.config.database;
    return { SERVICE_PUBLIC_URL: PUBLIC_URL, SERVICE_SECRET_KEY: SECRET_KEY, ...(database.kind === 'postgres' ? { DATABASE_URL: database.url } : { SERVICE_DATA_DIR: base }) };
  }

  async function run(args: string[], env: Env = hostEnv()): Promise<Run> {
    const result: Run = { code: null, out: '', err: '' };
    result.code = await runSignInLinkCommand(args, env, { out: (text) => (result.out += text), err: (text) => (result.err += text) });
    return result;
  }

  /** Embedded: stop the server, run, start it again on the same data directory (as the README says). */
  async function whileStopped<T>(work: () => Promise<T>): Promise<T> {
    if (!embedded()) return work();
    const env = hostEnv();
    await t.close();
    try {
      return await work();
    } finally {
      t = await start();
      expect(hostEnv()).toEqual(env);
    }
  }

  async function redeem(url: string) {
    return call<{ redirect: string; error?: { code: string } }>(t.baseUrl, 'POST', '/api/v1/auth/sign-in-link/redeem', { body: { token: new URL(url).hash.slice(1) } });
  }

  beforeAll(async () => {
    t = await start();
    org = await setupOrganization(t, { orgId: 'acme', ownerEmail: 'owner@acme.example' });
    await addMember(t, org.owner, 'acme', { email: 'editor@acme.example', role: 'editor' });
    const formerOwner = await addMember(t, org.owner, 'acme', { email: 'former@acme.example', role: 'owner' });
    const disabled = await call(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${formerOwner.userId}/disable`, { headers: sessionHeaders(org.owner) });
    expect(disabled.status).toBe(200);
  });

  afterAll(async () => {
    await t?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('prints a one-time owner link (token in the fragment, 15 minutes) that signs the owner in to that organization once', async () => {
    const result = await whileStopped(() => run(['--org', 'acme', '--email', 'Owner@Acme.example']));
    expect(result).toMatchObject({ code: SignInLinkExit.Printed, err: expect.stringContaining('One-time sign-in link for Owner@Acme.example in "acme"') });
    expect(result.out).toMatch(/^https:\/\/sc\.example\.test\/sign-in-link#[\w-]{43}\n$/);
    const validUntil = Date.parse(/valid until (\S+):/.exec(result.err)?.[1] ?? '');
    expect(validUntil - Date.now()).toBeGreaterThan(14 * 60 * 1000);
    expect(validUntil - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);

    const redeemed = await redeem(result.out.trim());
    expect(redeemed.status).toBe(200);
    expect(redeemed.body).toEqual({ redirect: '/orgs/acme' });
    const me = await call<{ organization: { id: string }; role: string; user: { email: string } }>(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(sessionFrom(redeemed.setCookie)) });
    expect(me.body).toMatchObject({ organization: { id: 'acme' }, role: 'owner', user: { email: 'owner@acme.example' } });
    expect((await redeem(result.out.trim())).body.error?.code).toBe('sign_in_link_invalid');

    // The organization's audit log says who minted it: the command on the server host, for that owner.
    const audit = await call<Array<{ action: string; actor: { type: string; email: string | null }; target: { label: string | null } }>>(
      t.baseUrl,
      'GET',
      '/api/v1/orgs/acme/audit?action=sign_in_link.created',
      { headers: sessionHeaders(sessionFrom(redeemed.setCookie)) },
    );
    expect(audit.body[0]).toMatchObject({ action: 'sign_in_link.created', actor: { type: 'host', email: 'owner@acme.example' }, target: { label: 'owner@acme.example' } });
  });

  it('refuses (exit 3, no link) anyone who is not an active owner, and unknown organizations', async () => {
    const links = async () => ((await t.dataSource.query('SELECT count(*)::int AS n FROM sign_in_links')) as { n: number }[])[0].n;
    const before = await links();
    const results = await whileStopped(async () => ({
      editor: await run(['--org', 'acme', '--email', 'editor@acme.example']),
      disabledOwner: await run(['--org', 'acme', '--email', 'former@acme.example']),
      stranger: await run(['--org', 'acme', '--email', 'nobody@acme.example']),
      unknownOrganization: await run(['--org', 'nope', '--email', 'owner@acme.example']),
    }));
    for (const result of Object.values(results)) expect(result).toMatchObject({ code: SignInLinkExit.Refused, out: '' });
    expect(results.editor.err).toContain('editor@acme.example is not an active owner of "acme"');
    expect(results.disabledOwner.err).toContain('former@acme.example is not an active owner of "acme"');
    expect(results.unknownOrganization.err).toContain('No organization "nope" exists');
    expect(await links()).toBe(before);
  });

  it('answers usage and configuration mistakes with exit 2 and says what is wrong, before opening any database', async () => {
    const missing = await run(['--org', 'acme']);
    expect(missing).toMatchObject({ code: SignInLinkExit.Usage, err: expect.stringContaining('Both --org and --email are required.') });
    expect(missing.err).toContain('Usage:');
    expect((await run(['--organization', 'acme', '--email', 'x@y.z'])).err).toContain("Unknown option '--organization'");
    expect((await run(['acme'])).code).toBe(SignInLinkExit.Usage);
    const wrongDir = await run(['--org', 'acme', '--email', 'owner@acme.example'], { SERVICE_PUBLIC_URL: PUBLIC_URL, SERVICE_SECRET_KEY: SECRET_KEY, SERVICE_DATA_DIR: join(base, 'elsewhere') });
    expect(wrongDir).toMatchObject({ code: SignInLinkExit.Usage, err: expect.stringContaining(`No embedded database at ${join(base, 'elsewhere', 'pglite')}`) });
    const badConfig = await run(['--org', 'acme', '--email', 'owner@acme.example'], { DATABASE_URL: 'mysql://db/x' });
    expect(badConfig).toMatchObject({ code: SignInLinkExit.Usage, err: expect.stringContaining('DATABASE_URL must be a postgres://') });
    const help = await run(['--help']);
    expect(help).toMatchObject({ code: SignInLinkExit.Printed, out: expect.stringContaining('npm run sign-in-link -- --org <organization id> --email <owner email>') });
  });

  it('while the server runs: on the embedded database it says to stop the server (exit 4); on PostgreSQL it works', async () => {
    const result = await run(['--org', 'acme', '--email', 'owner@acme.example']);
    if (embedded()) {
      expect(result).toMatchObject({ code: SignInLinkExit.DataDirInUse, out: '' });
      expect(result.err).toContain(`The server (pid ${process.pid}) is running on this embedded database (${join(base, 'pglite')})`);
      expect(result.err).toContain('Stop the server, run this command again, then start the server');
      // The running server is unaffected.
      expect((await call(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(org.owner) })).status).toBe(200);
    } else {
      expect(result.code).toBe(SignInLinkExit.Printed);
      expect((await redeem(result.out.trim())).status).toBe(200);
    }
  });

  it('runs as `node <server main> sign-in-link …` and exits with its code', async () => {
    const result = await whileStopped(() => runProcess(['sign-in-link', '--org', 'acme', '--email', 'owner@acme.example'], hostEnv()));
    expect(result.code).toBe(SignInLinkExit.Printed);
    expect(result.out).toMatch(/^https:\/\/sc\.example\.test\/sign-in-link#[\w-]{43}\n$/);
    expect((await redeem(result.out.trim())).status).toBe(200);
    const refused = await whileStopped(() => runProcess(['sign-in-link', '--org', 'acme', '--email', 'editor@acme.example'], hostEnv()));
    expect(refused).toMatchObject({ code: SignInLinkExit.Refused, out: '' });
    // Two ts-node starts of the whole server source on a shared, busy machine.
  }, 180_000);
});

/** The server's main.ts in a child process (ts-node, so no build is needed), with only the given environment. */
function runProcess(args: string[], env: Env): Promise<Run> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('SERVICE_') && key !== 'DATABASE_URL' && key !== 'NODE_OPTIONS'));
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'apps/server/src/main.ts', ...args], {
      cwd: WORKSPACE_ROOT,
      env: { ...inherited, TS_NODE_PROJECT: 'apps/server/tsconfig.app.json', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const result: Run = { code: null, out: '', err: '' };
    child.stdout.on('data', (chunk: Buffer) => (result.out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (result.err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ ...result, code }));
  });
}
