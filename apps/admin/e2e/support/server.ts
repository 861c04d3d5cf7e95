import { ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const WORKSPACE = resolve(__dirname, '../../../..');
const SERVER_MAIN = join(WORKSPACE, 'dist/apps/server/apps/server/src/main.js');
// BENCH_ADMIN_DIR: another build of the admin app (the benchmark compares two builds against the same server).
const ADMIN_DIR = process.env['BENCH_ADMIN_DIR'] ?? join(WORKSPACE, 'dist/apps/admin/browser');

export interface RunningServer {
  baseUrl: string;
  /** The first-run URL exactly as the server printed it. */
  setupUrl: string;
  logs(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts the production build (`node dist/.../main.js`) on embedded PGlite in a fresh data directory (holding a copy of
 * the run's migrated template database when there is one), serving the
 * built admin app, exactly as `npm start` does; resolves once it says it waits for setup and answers /api/v1/health.
 */
export async function startServer(setupToken: string, extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  for (const required of [SERVER_MAIN, join(ADMIN_DIR, 'index.html')]) {
    if (!existsSync(required)) throw new Error(`${required} is missing: build first (nx run admin:e2e builds server and admin).`);
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'sc-admin-e2e-'));
  // The run's migrated database (e2e/global-setup.cjs), where the server keeps its embedded database: it opens it as
  // an existing one, so each spec skips creating and migrating a database. Without it the server creates its own.
  const template = process.env['SC_E2E_PGLITE_TEMPLATE'];
  if (template && existsSync(template)) cpSync(template, join(dataDir, 'pglite'), { recursive: true });
  let output = '';
  // The embedded database: a DATABASE_URL inherited from the shell would point the run at a shared server.
  const { DATABASE_URL: _ignored, SERVICE_SECRET_KEY: _alsoIgnored, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, [SERVER_MAIN], {
    cwd: WORKSPACE,
    env: {
      ...inherited,
      PORT: String(port),
      SERVICE_PUBLIC_URL: baseUrl,
      SERVICE_DATA_DIR: dataDir,
      SERVICE_SETUP_TOKEN: setupToken,
      SERVICE_ADMIN_DIR: ADMIN_DIR,
      // The e2e identity providers are real servers on loopback, which the server calls only when allowed.
      SERVICE_SSO_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
      SERVICE_SSO_ALLOW_HTTP_HOSTS: '127.0.0.1,localhost',
      // One thread per parsing pool (the default is min(2, cpus)): a pool starts all its threads at its first job, each
      // loading jsdom and Mermaid or the SQL parsers, and a spec syncs a few small files while its browser draws.
      SERVICE_MERMAID_WORKERS: '1',
      SERVICE_SQL_PARSE_WORKERS: '1',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 90000;
  let setupUrl: string | undefined;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The server exited with code ${child.exitCode}:\n${output}`);
    }
    // A token from SERVICE_SETUP_TOKEN is never printed: the server only says it waits for setup.
    if (output.includes('First run: waiting for setup')) setupUrl ??= `${baseUrl}/setup?token=${encodeURIComponent(setupToken)}`;
    if (setupUrl && (await healthy(baseUrl))) return { baseUrl, setupUrl, logs: () => output, stop };
    await new Promise((resolveWait) => setTimeout(resolveWait, 250));
  }
  await stop();
  throw new Error(`The server did not become ready within 90 s (waiting for setup: ${setupUrl ? 'yes' : 'no'}):\n${output}`);
}

async function healthy(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}
