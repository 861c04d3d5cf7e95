import type { DiagramView, ErrorBody, ServiceDetail, SyncResult } from '@sc/contracts';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../src/config/env';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts, withContent, TOPOLOGY } from './artifacts/bundles';
import { startServerProcess, type ServerProcess } from './server-process';
import { bearer, call, copyPgliteTemplate, useTestApp, createTestDatabase, createToken, setupOrganization, TEST_SETUP_TOKEN, type TestApp, type TestDatabase } from './support';

describe('health: live and ready', () => {
  const t = useTestApp();

  it('live answers while the process runs; ready checks database, migrations and parser threads', async () => {
    expect(await call(t.baseUrl, 'GET', '/api/v1/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await call(t.baseUrl, 'GET', '/api/v1/health/ready')).toMatchObject({
      status: 200,
      body: { status: 'ok', checks: { shutdown: 'ok', database: 'ok', migrations: 'ok', redis: 'ok', parser: 'ok' } },
    });
    expect(await call(t.baseUrl, 'GET', '/api/v1/health')).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
  });

  it('ready answers 503 not_ready naming the migrations check when a registered migration is not applied', async () => {
    const [last] = await t.dataSource.query<Array<{ id: number; timestamp: string; name: string }>>('SELECT id, timestamp, name FROM migrations ORDER BY timestamp DESC LIMIT 1');
    await t.dataSource.query('DELETE FROM migrations WHERE id = $1', [last.id]);
    try {
      const ready = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.error).toMatchObject({ code: 'not_ready', details: [expect.objectContaining({ code: 'migrations' })] });
      expect(ready.body.error.details).toHaveLength(1);
      expect((await call(t.baseUrl, 'GET', '/api/v1/health/live')).status).toBe(200);
    } finally {
      await t.dataSource.query('INSERT INTO migrations (id, timestamp, name) VALUES ($1, $2, $3)', [last.id, last.timestamp, last.name]);
    }
    expect((await call(t.baseUrl, 'GET', '/api/v1/health/ready')).status).toBe(200);
  });
});

/**
 * SIGTERM against the real process (main.ts through ts-node): with a grace period the sync in flight completes
 * and the process exits 0; with none, the sync is cut off and the previous revision stays whole.
 */
describe('graceful shutdown of the server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sc-shutdown-'));
  let database: TestDatabase;
  let server: ServerProcess | undefined;
  let env: Env;

  beforeAll(async () => {
    database = await createTestDatabase();
    // The processes keep PGlite in SERVICE_DATA_DIR: the first one opens the run's migrated template (ignored with PostgreSQL).
    copyPgliteTemplate(join(dataDir, 'pglite'));
    env = {
      SERVICE_SECRET_KEY: randomBytes(32).toString('base64'),
      SERVICE_SETUP_TOKEN: TEST_SETUP_TOKEN,
      SERVICE_DATA_DIR: dataDir,
      ...COLD_WORKER_TIMEOUT,
      ...(database.config.kind === 'postgres' ? { DATABASE_URL: database.config.url } : {}),
    };
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Sends SIGTERM once the sync request is on its way, and collects both outcomes. */
  async function syncThenTerminate(token: string, content: string): Promise<{ status: number | 'cut'; exitCode: number | null; exitMs: number }> {
    const running = server as ServerProcess;
    const sync = postSync<SyncResult>(running.baseUrl, token, bundle(withContent(sampleArtifacts(), 'topology', content))).then(
      (response) => response.status as number | 'cut',
      () => 'cut' as const,
    );
    await new Promise((wait) => setTimeout(wait, 300));
    const signalled = Date.now();
    running.child.kill('SIGTERM');
    const [status, exitCode] = await Promise.all([sync, running.exited]);
    server = undefined;
    return { status, exitCode, exitMs: Date.now() - signalled };
  }

  async function currentTopology(token: string): Promise<{ revision: number; mermaid: string }> {
    const running = server as ServerProcess;
    const detail = await call<ServiceDetail>(running.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders', { headers: bearer(token) });
    const diagram = await call<DiagramView>(running.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders/diagrams/topology', { headers: bearer(token) });
    expect(diagram.body.revision).toBeLessThanOrEqual(detail.body.currentRevision);
    return { revision: detail.body.currentRevision, mermaid: diagram.body.mermaid };
  }

  it('finishes the sync in flight within the grace period, or leaves the previous revision intact, and exits 0', async () => {
    server = await startServerProcess({ ...env, SERVICE_SHUTDOWN_GRACE: '60s' });
    const acme = await setupOrganization({ baseUrl: server.baseUrl } as TestApp, { orgId: 'acme' });
    const { token } = await createToken({ baseUrl: server.baseUrl } as TestApp, acme.owner, 'acme', { name: 'ci', scopes: ['sync', 'read'] });
    expect((await postSync(server.baseUrl, token, bundle(sampleArtifacts()))).status).toBe(201);

    const changed = `${TOPOLOGY}  api --> cache[(Cache)]\n`;
    const outcome = await syncThenTerminate(token, changed);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.exitMs).toBeLessThan(60_000);

    server = await startServerProcess({ ...env, SERVICE_SHUTDOWN_GRACE: '0s' });
    const after = await currentTopology(token);
    // A 201 means revision 2 is stored whole; anything else means revision 1 is untouched.
    expect(after).toEqual(outcome.status === 201 ? { revision: 2, mermaid: changed } : { revision: 1, mermaid: TOPOLOGY });

    // No grace: the next sync (a new diagram, parsed in a parser thread) is cut off and nothing of it is stored.
    const cutOff = await syncThenTerminate(token, `${TOPOLOGY}  api --> search[(Search)]\n`);
    expect(cutOff.exitCode).toBe(0);
    server = await startServerProcess(env);
    expect(await currentTopology(token)).toEqual(cutOff.status === 201 ? { revision: after.revision + 1, mermaid: `${TOPOLOGY}  api --> search[(Search)]\n` } : after);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = undefined;
  }, 900_000);
});
