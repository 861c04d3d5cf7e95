import type { ErrorBody, MeResponse, ServiceRevisionItem, SyncResult, TextArtifactView } from '@sc/contracts';
import { OidcIdp, signInAtIdp, TestBrowser } from '@sc/testing-idp';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../../src/config/env';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts, syncFile } from '../artifacts/bundles';
import { startServerProcess, type ServerProcess } from '../server-process';
import { CLIENT_ID, CLIENT_SECRET, createProvider } from '../sso/sso-support';
import {
  bearer,
  call,
  createTestDatabase,
  createToken,
  memberWithSession,
  sessionHeaders,
  setupOrganization,
  startRoundRobinProxy,
  TEST_SETUP_TOKEN,
  type RoundRobinProxy,
  type SeededOrganization,
  type SessionCredentials,
  type TestApp,
  type TestDatabase,
  withAdminClient,
} from '../support';

/** The machine's Redis; this run counts under its own key prefix and deletes its keys afterwards. */
const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const AUTH_RATE_LIMIT = 8;
const METRICS_TOKEN = 'multi-instance-metrics-token-3e9d';

/**
 * Two server processes (main.ts, each its own process) on one PostgreSQL database and one Redis, behind a round-robin
 * proxy that is their public URL. Every test sends its requests to a named instance, so "started on A, finished on B"
 * is what happens, not what the proxy happened to pick. jest.integration.cjs registers this file only when
 * TEST_DATABASE_URL names a PostgreSQL server (two processes cannot share PGlite; CI's PostgreSQL step runs it).
 */
describe('two server instances on one PostgreSQL database and one Redis', () => {
  const redisPrefix = `sc-multi-${randomBytes(6).toString('hex')}:`;
  const redis = new Redis(REDIS_URL);
  const dataDirs = [mkdtempSync(join(tmpdir(), 'sc-multi-a-')), mkdtempSync(join(tmpdir(), 'sc-multi-b-'))];
  let database: TestDatabase;
  let proxy: RoundRobinProxy;
  let idp: OidcIdp;
  let a: ServerProcess;
  let b: ServerProcess;
  /** Every process that started, for afterAll even when its twin did not. */
  const instances: ServerProcess[] = [];
  let org: SeededOrganization;
  /** The environment both instances start with. */
  let shared: Env;
  /** Emails, organization ids, tokens and cookies the tests used: none may appear in /metrics. */
  const personal: string[] = ['acme', 'ada@example.com', 'erin@example.com'];
  const on = (instance: ServerProcess) => ({ baseUrl: instance.baseUrl }) as TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('The multi-instance suite needs TEST_DATABASE_URL (PostgreSQL).');
    proxy = await startRoundRobinProxy();
    idp = await OidcIdp.start({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [`${proxy.url}/api/v1/auth/orgs/acme/callback/corp`],
      accounts: { ada: { email: 'ada@example.com', name: 'Ada Lovelace', groups: ['eng'] } },
    });
    shared = {
      DATABASE_URL: database.config.url,
      REDIS_URL,
      REDIS_KEY_PREFIX: redisPrefix,
      SERVICE_PUBLIC_URL: proxy.url,
      SERVICE_SECRET_KEY: randomBytes(32).toString('base64'),
      SERVICE_SETUP_TOKEN: TEST_SETUP_TOKEN,
      SERVICE_AUTH_RATE_LIMIT: String(AUTH_RATE_LIMIT),
      SERVICE_AUTH_RATE_WINDOW: '10m',
      SERVICE_AUTH_FAILURE_LIMIT: '1000',
      SERVICE_SSO_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
      SERVICE_SSO_ALLOW_HTTP_HOSTS: '127.0.0.1,localhost',
      SERVICE_METRICS_TOKEN: METRICS_TOKEN,
      SERVICE_LOG_LEVEL: 'warn',
      ...COLD_WORKER_TIMEOUT,
      // The SQL parser threads start from TypeScript sources too: on a busy 2-core machine 20 syncs at once can
      // wait longer than the production 30 s for them.
      SERVICE_SQL_PARSE_TIMEOUT: '120s',
    };
    // Both at once on a fresh database, as an orchestrator starts replicas: each runs the migrations at start.
    const started = await Promise.allSettled(dataDirs.map((dataDir) => startServerProcess({ ...shared, SERVICE_DATA_DIR: dataDir })));
    instances.push(...started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : [])));
    const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
    [a, b] = instances;
    proxy.targets = [a.baseUrl, b.baseUrl];
    org = await setupOrganization(on(a), { orgId: 'acme' });
    personal.push(org.ownerEmail, org.adminToken, org.csrfToken, org.ownerUserId);
  }, 600_000);

  afterAll(async () => {
    for (const instance of instances) instance.child.kill('SIGTERM');
    await Promise.all(instances.map((instance) => instance.exited));
    await Promise.all([proxy?.close(), idp?.close()]);
    await database?.drop();
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  });

  // An instance that stopped on its own is why this test and the ones after it failed: show what it wrote last,
  // once per process (the tests after it would print the same output again).
  const reportedExits = new Set<ServerProcess>();
  afterEach(() => {
    for (const [name, instance] of [['A', a], ['B', b]] as const) {
      if (instance && !reportedExits.has(instance) && (instance.child.exitCode !== null || instance.child.signalCode !== null)) {
        reportedExits.add(instance);
        console.error(`Instance ${name} exited (${instance.child.exitCode ?? instance.child.signalCode}); its last output:\n${instance.output().slice(-8000)}`);
      }
    }
  });

  const query = async <T>(sql: string, parameters: unknown[] = []): Promise<T[]> =>
    withAdminClient(database.config.kind === 'postgres' ? database.config.url : '', async (client) => (await client.query(sql, parameters)).rows as T[]);

  it('both start at once on one fresh database: every migration applied exactly once, both ready', async () => {
    const migrations = await query<{ name: string; copies: number }>('SELECT name, count(*)::int AS copies FROM migrations GROUP BY name');
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.filter((migration) => migration.copies !== 1)).toEqual([]);
    for (const instance of [a, b]) expect((await call(instance.baseUrl, 'GET', '/api/v1/health/ready')).body).toMatchObject({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });

  it('a sign-in started on one instance completes its callback on the other (real OpenID provider), and the session works on both', async () => {
    const discovery = await call<Record<string, string>>(a.baseUrl, 'POST', '/api/v1/orgs/acme/sso/discovery', { headers: sessionHeaders(org.owner), body: { issuer: idp.issuer } });
    expect(discovery.status).toBe(200);
    await createProvider(on(a), org, {
      slug: 'corp',
      displayName: 'Corp IdP',
      type: 'generic',
      authUrl: discovery.body['authorization_endpoint'],
      tokenUrl: discovery.body['token_endpoint'],
      userinfoUrl: discovery.body['userinfo_endpoint'],
      jwksUri: discovery.body['jwks_uri'],
      issuer: discovery.body['issuer'],
      scopes: 'openid email profile',
      allowSignUp: true,
      allowedDomains: ['example.com'],
      defaultRole: 'viewer',
    });

    // Three sign-ins, each started on one instance and finished on the other: every one ends in a session both
    // instances accept, and every one reads the provider's keys afresh (no instance keeps the JWKS in memory).
    for (const [start, finish] of [[a, b], [b, a], [a, b]] as const) {
      const jwksBefore = idp.jwksRequests;
      const browser = new TestBrowser();
      const atIdp = await signInAtIdp(browser, idp, `${start.baseUrl}/api/v1/auth/orgs/acme/login/corp`, 'ada', { stopBefore: (url) => url.pathname.includes('/callback/') });
      expect(atIdp.stoppedAt).toMatch(new RegExp(`^${proxy.url}/api/v1/auth/orgs/acme/callback/corp\\?`));
      // The provider sends the browser to the public URL; the load balancer hands the callback to the other instance.
      const callback = new URL(atIdp.stoppedAt as string);
      const finished = await browser.follow(`${finish.baseUrl}${callback.pathname}${callback.search}`, { stopBefore: (url) => !url.pathname.startsWith('/api/') });
      // The redirect to the dashboard is relative: the browser stays on whatever origin answered the callback.
      expect(finished.stoppedAt).toBe(`${finish.baseUrl}/orgs/acme`);
      expect(idp.jwksRequests).toBe(jwksBefore + 1);
      for (const instance of [finish, start]) {
        const me = await browser.request(`${instance.baseUrl}/api/v1/me`);
        expect({ instance: instance.baseUrl, status: me.status }).toEqual({ instance: instance.baseUrl, status: 200 });
        expect((JSON.parse(me.text) as MeResponse).user?.email).toBe('ada@example.com');
      }
    }
  });

  it('a session made on A works on B, and signing out on B ends it on A', async () => {
    const member = await memberWithSession(on(a), org, 'editor', 'erin@example.com');
    personal.push(member.userId, member.session.csrfToken, member.session.cookieHeader.split('; ')[0].split('=')[1]);
    const onB = await call<MeResponse>(b.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(member.session) });
    expect(onB.status).toBe(200);
    expect(onB.body.user?.email).toBe('erin@example.com');
    expect((await call(b.baseUrl, 'POST', '/api/v1/auth/sign-out', { headers: sessionHeaders(member.session) })).status).toBeLessThan(300);
    const onA = await call<ErrorBody>(a.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(member.session) });
    expect(onA.status).toBe(401);
    expect(onA.body.error.code).toBe('session_invalid');
  });

  it('20 concurrent syncs of one service split across A and B: revisions 1–20, none duplicated, none lost', async () => {
    const { token } = await createToken(on(a), org.owner, 'acme', { name: 'ci', scopes: ['sync', 'read'] });
    personal.push(token);
    const runbookOf = (index: number) => `# Runbook\nSync ${index} of 20.\n`;
    const syncs = Array.from({ length: 20 }, (_, index) => {
      const artifacts = sampleArtifacts().map((artifact) => (artifact.name === 'runbook' ? { ...artifact, file: syncFile(artifact.file.path, runbookOf(index)) } : artifact));
      return postSync<SyncResult>((index % 2 === 0 ? a : b).baseUrl, token, bundle(artifacts));
    });
    const results = await Promise.all(syncs);
    expect(results.map((result) => (result.status === 201 ? 201 : { status: result.status, body: result.body }))).toEqual(Array(20).fill(201));
    const revisionOfSync = results.map((result) => result.body.revision);
    expect([...revisionOfSync].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));

    const listed = await call<ServiceRevisionItem[]>(b.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders/revisions?limit=100', { headers: bearer(token) });
    expect(listed.body.map((revision) => revision.number)).toEqual(Array.from({ length: 20 }, (_, index) => 20 - index));
    for (const revision of listed.body) {
      expect(revision.artifactCount).toBe(9);
      // Each revision is diffed against the one before it: only the runbook changed (revision 1 creates all nine).
      if (revision.number > 1) expect({ number: revision.number, updated: revision.updated.map((ref) => ref.name), created: revision.created }).toEqual({ number: revision.number, updated: ['runbook'], created: [] });
    }
    // Every sync's content is stored under the revision its answer named, read back through either instance.
    for (const [index, revision] of revisionOfSync.entries()) {
      const reader = index % 2 === 0 ? b : a;
      const doc = await call<TextArtifactView>(reader.baseUrl, 'GET', `/api/v1/orgs/acme/services/orders/docs/runbook?revision=${revision}`, { headers: bearer(token) });
      expect({ revision, content: doc.body.content }).toEqual({ revision, content: runbookOf(index) });
    }
    const rows = await query<{ number: number }>('SELECT r.number FROM service_revisions r JOIN services s ON s.id = r.service_id WHERE s.name = $1 ORDER BY r.number', ['orders']);
    expect(rows.map((row) => Number(row.number))).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
  }, 300_000);

  it('/metrics of each instance counts its own share (syncs, SSO sign-in, database pool) and names no person, organization or token', async () => {
    const scrape = async (instance: ServerProcess) => (await fetch(`${instance.baseUrl}/metrics`, { headers: bearer(METRICS_TOKEN) })).text();
    const [onA, onB] = await Promise.all([scrape(a), scrape(b)]);
    const created = (text: string) => Number(/^sc_sync_duration_seconds_count\{outcome="created"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    expect({ a: created(onA), b: created(onB) }).toEqual({ a: 10, b: 10 });
    // Sign-ins through SSO finished on B twice and on A once; the sign-in link was redeemed on A.
    expect(onB).toMatch(/^sc_sign_ins_total\{method="sso",outcome="signed_in"\} 2$/m);
    expect(onA).toMatch(/^sc_sign_ins_total\{method="sso",outcome="signed_in"\} 1$/m);
    expect(onA).toMatch(/^sc_sign_ins_total\{method="sign_in_link",outcome="signed_in"\} 1$/m);
    for (const text of [onA, onB]) expect(text).toMatch(/^sc_db_pool_connections\{state="total"\} [1-9]/m);
    for (const value of personal) expect({ value, inA: onA.includes(value), inB: onB.includes(value) }).toEqual({ value, inA: false, inB: false });
  });

  describe('the authorization cache', () => {
    const metric = async (instance: ServerProcess, pattern: RegExp) =>
      // A labelled counter appears once it first counts.
      Number(pattern.exec(await (await fetch(`${instance.baseUrl}/metrics`, { headers: bearer(METRICS_TOKEN) })).text())?.[1] ?? 0);
    const hits = (instance: ServerProcess) => metric(instance, /^sc_auth_cache_lookups_total\{result="hit"\} (\d+)$/m);
    const bypassed = (instance: ServerProcess) => metric(instance, /^sc_auth_cache_lookups_total\{result="bypassed"\} (\d+)$/m);
    const listenerUp = (instance: ServerProcess) => metric(instance, /^sc_cache_listener_up (\d+)$/m);
    const get = (instance: ServerProcess, path: string, as: SessionCredentials | string) =>
      call<ErrorBody>(instance.baseUrl, 'GET', `/api/v1/orgs/acme/${path}`, { headers: typeof as === 'string' ? bearer(as) : sessionHeaders(as) });
    /** Two reads on the instance, the second answered from its cache (its hit counter moves). */
    const primed = async (instance: ServerProcess, path: string, as: SessionCredentials | string) => {
      expect((await get(instance, path, as)).status).toBe(200);
      const before = await hits(instance);
      expect((await get(instance, path, as)).status).toBe(200);
      expect((await hits(instance)) - before).toBe(1);
    };
    /**
     * The answer on the instance right after the change committed on the other one. The notification crosses
     * instances asynchronously (PostgreSQL delivers it at commit, in well under the time of one HTTP round trip),
     * so this polls with a short deadline instead of sleeping; `requests` tells how many answers it took.
     */
    const nextAnswer = async (instance: ServerProcess, path: string, as: SessionCredentials | string, refused: (status: number) => boolean) => {
      const deadline = Date.now() + 2_000;
      for (let requests = 1; ; requests++) {
        const answer = await get(instance, path, as);
        if (refused(answer.status) || Date.now() > deadline) return { status: answer.status, code: answer.body.error?.code, requests };
        await new Promise((wait) => setTimeout(wait, 5));
      }
    };
    let admin: { userId: string; session: SessionCredentials };
    let adminToken: string;

    beforeAll(async () => {
      // Earlier tests signed in through the rate-limited endpoints: start this run's counters from zero.
      const counters = await redis.keys(`${redisPrefix}*`);
      if (counters.length > 0) await redis.del(...counters);
      for (const instance of [a, b]) {
        const deadline = Date.now() + 10_000;
        while ((await listenerUp(instance)) !== 1 && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 50));
      }
      admin = await memberWithSession(on(a), org, 'admin');
      adminToken = (await createToken(on(a), admin.session, 'acme', { name: 'cached-admin', scopes: ['admin'] })).token;
      personal.push(admin.userId, admin.session.csrfToken, adminToken);
    });

    it('a token revoked on A is refused on B', async () => {
      const { token, id } = await createToken(on(a), org.owner, 'acme', { name: 'cached-read', scopes: ['read'] });
      await primed(b, 'members', token);
      expect((await call(a.baseUrl, 'POST', `/api/v1/orgs/acme/tokens/${id}/revoke`, { headers: sessionHeaders(org.owner) })).status).toBe(200);
      expect(await nextAnswer(b, 'members', token, (status) => status === 401)).toMatchObject({ status: 401, code: 'token_revoked' });
    });

    it("a member's role lowered on A binds their session and tokens on B", async () => {
      for (const as of [admin.session, adminToken]) await primed(b, 'tokens', as);
      expect((await call(a.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${admin.userId}`, { headers: sessionHeaders(org.owner), body: { role: 'viewer' } })).status).toBe(200);
      for (const as of [admin.session, adminToken]) {
        expect(await nextAnswer(b, 'tokens', as, (status) => status === 403)).toMatchObject({ status: 403, code: 'insufficient_role' });
      }
    });

    it('a member removed on A is refused on B, session and token', async () => {
      for (const as of [admin.session, adminToken]) await primed(b, 'members', as);
      expect((await call(a.baseUrl, 'DELETE', `/api/v1/orgs/acme/members/${admin.userId}`, { headers: sessionHeaders(org.owner) })).status).toBe(204);
      expect(await nextAnswer(b, 'members', admin.session, (status) => status === 401)).toMatchObject({ status: 401, code: 'session_invalid' });
      expect(await nextAnswer(b, 'members', adminToken, (status) => status === 401)).toMatchObject({ status: 401, code: 'token_revoked' });
    });

    it('a session signed out on A is refused on B', async () => {
      const member = await memberWithSession(on(a), org, 'viewer');
      personal.push(member.userId, member.session.csrfToken);
      await primed(b, 'members', member.session);
      expect((await call(a.baseUrl, 'POST', '/api/v1/auth/sign-out', { headers: sessionHeaders(member.session) })).status).toBe(204);
      expect(await nextAnswer(b, 'members', member.session, (status) => status === 401)).toMatchObject({ status: 401, code: 'session_invalid' });
    });

    it('while the change listener is down the cache is bypassed: a revocation nobody is notified of is still honoured', async () => {
      const { token, id } = await createToken(on(a), org.owner, 'acme', { name: 'outage-read', scopes: ['read'] });
      await primed(b, 'members', token);
      const databaseUrl = database.config.kind === 'postgres' ? database.config.url : '';
      // One connection to the test database (opened before no more may open) and one to the server's own database.
      await withAdminClient(databaseUrl, (client) => withAdminClient(process.env['TEST_DATABASE_URL'] ?? '', async (server) => {
        const self = (await client.query<{ name: string }>('SELECT current_database() AS name')).rows[0].name;
        // No new connection may open, so the listeners stay down; the pools' open connections keep serving.
        await server.query(`ALTER DATABASE "${self}" ALLOW_CONNECTIONS false`);
        try {
          await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [self, 'sc-cache-listener']);
          const deadline = Date.now() + 5_000;
          while ((await listenerUp(b)) !== 0 && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 20));
          expect(await listenerUp(b)).toBe(0);
          // Read during the outage: answered from the database, and not kept.
          const bypassedBefore = await bypassed(b);
          expect((await get(b, 'members', token)).status).toBe(200);
          // Revoked with triggers off: no notification reaches any instance, as if it were lost during the outage.
          await client.query("SET session_replication_role = 'replica'");
          await client.query('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [id]);
          await client.query("SET session_replication_role = 'origin'");
          const answer = await get(b, 'members', token);
          expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status: 401, code: 'token_revoked' });
          expect((await bypassed(b)) - bypassedBefore).toBe(2);
        } finally {
          await server.query(`ALTER DATABASE "${self}" ALLOW_CONNECTIONS true`);
        }
      }));
      // The listener comes back by itself, and the cache is used again.
      const deadline = Date.now() + 15_000;
      while ((await listenerUp(b)) !== 1 && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 100));
      await primed(b, 'members', org.adminToken);
    });
  });

  it('a rolling restart: A drains on SIGTERM while syncs run on both; every answered sync is stored whole, B keeps serving', async () => {
    const { token } = await createToken(on(b), org.owner, 'acme', { name: 'rolling-ci', scopes: ['sync', 'read'] });
    const runbookOf = (index: number) => `# Rolling runbook\nSync ${index}.\n`;
    const syncTo = (instance: ServerProcess, index: number) => {
      const artifacts = sampleArtifacts().map((artifact) => (artifact.name === 'runbook' ? { ...artifact, file: syncFile(artifact.file.path, runbookOf(index)) } : artifact));
      // A connection refused by the draining instance is an answer too: nothing was sent, nothing stored.
      return postSync<SyncResult>(instance.baseUrl, token, bundle(artifacts, 'rolling')).then(
        (answer) => ({ index, status: answer.status, revision: answer.body.revision }),
        () => ({ index, status: 0, revision: 0 }),
      );
    };
    const inFlight = Array.from({ length: 8 }, (_, index) => syncTo(index % 2 === 0 ? a : b, index));
    await new Promise((wait) => setTimeout(wait, 200));
    a.child.kill('SIGTERM');
    const [outcomes, exitCode] = await Promise.all([Promise.all(inFlight), a.exited]);
    expect(exitCode).toBe(0);
    // B never stopped: every sync sent to it was stored; A's were stored or refused, never half done.
    expect(outcomes.filter((outcome) => outcome.index % 2 === 1).map((outcome) => outcome.status)).toEqual([201, 201, 201, 201]);
    expect(outcomes.filter((outcome) => ![0, 201].includes(outcome.status))).toEqual([]);
    const stored = outcomes.filter((outcome) => outcome.status === 201);
    expect(stored.map((outcome) => outcome.revision).sort((x, y) => x - y)).toEqual(Array.from({ length: stored.length }, (_, index) => index + 1));
    for (const { index, revision } of stored) {
      const doc = await call<TextArtifactView>(b.baseUrl, 'GET', `/api/v1/orgs/acme/services/rolling/docs/runbook?revision=${revision}`, { headers: bearer(token) });
      expect({ revision, content: doc.body.content }).toEqual({ revision, content: runbookOf(index) });
    }
    const listed = await call<ServiceRevisionItem[]>(b.baseUrl, 'GET', '/api/v1/orgs/acme/services/rolling/revisions?limit=100', { headers: bearer(token) });
    expect(listed.body.map((revision) => revision.number)).toEqual(Array.from({ length: stored.length }, (_, index) => stored.length - index));
    // A comes back with the same configuration, as the next step of a rolling deployment.
    a = await startServerProcess({ ...shared, SERVICE_DATA_DIR: dataDirs[0] });
    instances.push(a);
    proxy.targets = [a.baseUrl, b.baseUrl];
    expect((await call(a.baseUrl, 'GET', '/api/v1/health/ready')).status).toBe(200);
  }, 300_000);

  it('retention on A (SERVICE_REVISIONS_KEEP) while B syncs loses nothing referenced, blobs re-used by the syncs included', async () => {
    const { token } = await createToken(on(b), org.owner, 'acme', { name: 'retention-ci', scopes: ['sync', 'read'] });
    const revisionRows = async () => Number((await query<{ n: number }>('SELECT count(*)::int AS n FROM service_revisions'))[0]?.n);
    const rowsBefore = await revisionRows();
    // A restarts with retention on: a pass at start, then one every second, while B keeps syncing.
    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    a = await startServerProcess({ ...shared, SERVICE_DATA_DIR: dataDirs[0], SERVICE_REVISIONS_KEEP: '2', SERVICE_RETENTION_INTERVAL: '1s' });
    instances.push(a);
    proxy.targets = [a.baseUrl, b.baseUrl];

    // Four runbook texts in turn: each becomes unreferenced once its revisions are pruned, and the next sync of it
    // stores the same blob again, racing the collection of that blob on A.
    const runbookOf = (index: number) => `# Billing runbook\nVariant ${index % 4}.\n`;
    const syncsOnB: Array<{ index: number; revision: number }> = [];
    for (let index = 0; index < 16; index++) {
      const artifacts = sampleArtifacts().map((artifact) => (artifact.name === 'runbook' ? { ...artifact, file: syncFile(artifact.file.path, runbookOf(index)) } : artifact));
      const synced = await postSync<SyncResult>(b.baseUrl, token, bundle(artifacts, 'billing'));
      expect({ index, status: synced.status }).toEqual({ index, status: 201 });
      syncsOnB.push({ index, revision: synced.body.revision });
    }
    expect(syncsOnB.map((sync) => sync.revision)).toEqual(Array.from({ length: 16 }, (_, index) => index + 1));

    // Wait for A's passes to settle: orders (20 revisions) and billing down to the newest two each.
    const revisionsOf = async (service: string) =>
      (await call<ServiceRevisionItem[]>(b.baseUrl, 'GET', `/api/v1/orgs/acme/services/${service}/revisions?limit=100`, { headers: bearer(token) })).body.map((revision) => revision.number);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && ((await revisionsOf('orders')).length > 2 || (await revisionsOf('billing')).length > 2)) await new Promise((wait) => setTimeout(wait, 250));
    expect(await revisionsOf('orders')).toEqual([20, 19]);
    expect(await revisionsOf('billing')).toEqual([16, 15]);

    // Everything a kept revision references is still there, read through both instances.
    for (const { index, revision } of syncsOnB.slice(-2)) {
      for (const reader of [a, b]) {
        const doc = await call<TextArtifactView>(reader.baseUrl, 'GET', `/api/v1/orgs/acme/services/billing/docs/runbook?revision=${revision}`, { headers: bearer(token) });
        expect({ revision, content: doc.body.content }).toEqual({ revision, content: runbookOf(index) });
        expect((await call(reader.baseUrl, 'GET', `/api/v1/orgs/acme/services/billing/diagrams/topology?revision=${revision}`, { headers: bearer(token) })).status).toBe(200);
      }
    }
    // (Foreign keys from artifact_versions to artifact_blobs make a dangling reference impossible: a collection that
    // removed a blob a concurrent sync had just re-used would have failed that sync, and every sync above answered 201.)
    // Older revisions are gone from the database too, and A counted what it removed.
    expect(await query<{ number: number }>('SELECT r.number FROM service_revisions r JOIN services s ON s.id = r.service_id WHERE s.name = $1 AND r.number < 15', ['billing'])).toEqual([]);
    const metrics = await (await fetch(`${a.baseUrl}/metrics`, { headers: bearer(METRICS_TOKEN) })).text();
    // Every service (orders, rolling, billing) is down to two revisions, and A counted each row it removed.
    const services = Number((await query<{ n: number }>('SELECT count(*)::int AS n FROM services'))[0]?.n);
    expect(await revisionRows()).toBe(2 * services);
    expect(Number(/^sc_revisions_removed_total\{reason="retention"\} (\d+)$/m.exec(metrics)?.[1])).toBe(rowsBefore + 16 - 2 * services);
  }, 300_000);

  it('the auth rate limit counts attempts on both instances together (Redis)', async () => {
    // Earlier tests signed in through these endpoints: start from zero by removing this run's counters.
    const counters = await redis.keys(`${redisPrefix}*`);
    if (counters.length > 0) await redis.del(...counters);
    const redeemOn = (instance: ServerProcess) => call<ErrorBody>(instance.baseUrl, 'POST', '/api/v1/auth/sign-in-link/redeem', { body: { token: 'no-such-sign-in-link-token' } });
    const answers: number[] = [];
    for (let attempt = 0; attempt < AUTH_RATE_LIMIT + 2; attempt++) answers.push((await redeemOn(attempt % 2 === 0 ? a : b)).status);
    // Each instance saw only half the attempts, so neither alone reached the limit of 8.
    expect(answers.slice(0, AUTH_RATE_LIMIT).filter((status) => status === 429)).toEqual([]);
    expect(answers.slice(AUTH_RATE_LIMIT)).toEqual([429, 429]);
    expect((await redis.keys(`${redisPrefix}*`)).length).toBeGreaterThan(0);
  });
});
