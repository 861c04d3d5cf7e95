import { authHeaders, bearer, call, useSeededApp, createTestApp, createToken, expectError, memberWithSession, sessionHeaders, setupOrganization, type SessionCredentials, type TestApp } from './support';

// After ./support: the contracts barrel needs reflect-metadata loaded first (class-transformer @Type in sso.ts).
import type { ErrorBody } from '@sc/contracts';
import { AuthCache } from '../src/modules/auth/auth-cache';
import { MetricsService } from '../src/modules/metrics/metrics.service';

const HOUR = 60 * 60 * 1000;

/**
 * The authorization cache on one instance (embedded PGlite, or PostgreSQL with TEST_DATABASE_URL): who a session or
 * token is comes from memory after its first use, and every change that narrows access is honoured on the very next
 * request (the change's own notification empties the cache before the request that made it answers).
 * The multi-instance suite proves the same across two processes.
 */
describe('authorization cache', () => {
  const { t, org } = useSeededApp({ orgId: 'acme' }, { env: { SERVICE_SESSION_IDLE_TIMEOUT: '8h' } });

  beforeAll(async () => {
    await cacheUsable(t);
  });

  const members = (as: SessionCredentials | string) => call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: authHeaders(as) });
  const tokens = (as: SessionCredentials | string) => call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/acme/tokens', { headers: authHeaders(as) });
  const owner = () => sessionHeaders(org.owner);

  /** The request is answered from the cache: the hit counter moves by one. */
  async function expectCachedAnswer<T>(request: () => Promise<T>): Promise<T> {
    const before = await lookups(t, 'hit');
    const answer = await request();
    expect((await lookups(t, 'hit')) - before).toBe(1);
    return answer;
  }

  it('answers a token and a session from the cache after their first use', async () => {
    const { token } = await createToken(t, org.owner, 'acme', { scopes: ['read'] });
    const member = await memberWithSession(t, org, 'viewer');
    expect((await members(token)).status).toBe(200);
    expect((await expectCachedAnswer(() => members(token))).status).toBe(200);
    expect((await members(member.session)).status).toBe(200);
    expect((await expectCachedAnswer(() => members(member.session))).status).toBe(200);
  });

  it('a revoked token is refused on the next request', async () => {
    const { token, id } = await createToken(t, org.owner, 'acme', { scopes: ['read'] });
    await members(token);
    await expectCachedAnswer(() => members(token));
    expect((await call(t.baseUrl, 'POST', `/api/v1/orgs/acme/tokens/${id}/revoke`, { headers: owner() })).status).toBe(200);
    const refused = await members(token);
    expectError(refused, 401, 'token_revoked');
  });

  it('a signed-out session is refused on the next request', async () => {
    const member = await memberWithSession(t, org, 'viewer');
    await members(member.session);
    await expectCachedAnswer(() => members(member.session));
    expect((await call(t.baseUrl, 'POST', '/api/v1/auth/sign-out', { headers: sessionHeaders(member.session) })).status).toBe(204);
    expect((await members(member.session)).body.error.code).toBe('session_invalid');
  });

  it("a removed member's session and tokens are refused on the next request", async () => {
    const admin = await memberWithSession(t, org, 'admin');
    const { token } = await createToken(t, admin.session, 'acme', { scopes: ['read'] });
    for (const as of [admin.session, token]) {
      await members(as);
      await expectCachedAnswer(() => members(as));
    }
    expect((await call(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/members/${admin.userId}`, { headers: owner() })).status).toBe(204);
    expect((await members(admin.session)).body.error.code).toBe('session_invalid');
    expect((await members(token)).body.error.code).toBe('token_revoked');
  });

  it("a lowered role binds the member's session and tokens on the next request", async () => {
    const admin = await memberWithSession(t, org, 'admin');
    const { token } = await createToken(t, admin.session, 'acme', { scopes: ['admin'] });
    for (const as of [admin.session, token]) {
      expect((await tokens(as)).status).toBe(200);
      await expectCachedAnswer(() => tokens(as));
    }
    expect((await call(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${admin.userId}`, { headers: owner(), body: { role: 'viewer' } })).status).toBe(200);
    expect((await tokens(admin.session)).body.error.code).toBe('insufficient_role');
    expect((await tokens(token)).body.error.code).toBe('insufficient_role');
    expect((await members(admin.session)).status).toBe(200);
  });

  it('a change made outside the API (a user disabled, a token revoked in SQL) is honoured on the next request', async () => {
    const member = await memberWithSession(t, org, 'viewer');
    const { token, id } = await createToken(t, org.owner, 'acme', { scopes: ['read'] });
    for (const as of [member.session, token]) {
      await members(as);
      await expectCachedAnswer(() => members(as));
    }
    await t.dataSource.query('UPDATE users SET disabled = true WHERE id = $1', [member.userId]);
    expect((await members(member.session)).body.error.code).toBe('account_disabled');
    await t.dataSource.query('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [id]);
    expect((await members(token)).body.error.code).toBe('token_revoked');
  });

  it('a session past its expiry is refused although cached (the clock is checked on every hit)', async () => {
    const member = await memberWithSession(t, org, 'viewer');
    await members(member.session);
    await expectCachedAnswer(() => members(member.session));
    t.clock.advance(9 * HOUR);
    try {
      expect((await members(member.session)).body.error.code).toBe('session_expired');
    } finally {
      t.clock.advance(-9 * HOUR);
    }
  });

  it('keeps caching while tokens and sessions are merely used (their last-use writes do not empty it)', async () => {
    const { token } = await createToken(t, org.owner, 'acme', { scopes: ['read'] });
    await members(token);
    t.clock.advance(2 * 60_000);
    try {
      // Past the minute after which the use is written again: a miss that writes last_used_at, then hits again.
      expect((await members(token)).status).toBe(200);
      await expectCachedAnswer(() => members(token));
    } finally {
      t.clock.advance(-2 * 60_000);
    }
  });

  it('SERVICE_AUTH_CACHE_SIZE=0 turns it off', async () => {
    const off = await createTestApp({ env: { SERVICE_AUTH_CACHE_SIZE: '0' } });
    try {
      const seeded = await setupOrganization(off, { orgId: 'acme' });
      for (let i = 0; i < 3; i++) expect((await call(off.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(seeded.adminToken) })).status).toBe(200);
      expect(await lookups(off, 'hit')).toBe(0);
      expect(await lookups(off, 'bypassed')).toBeGreaterThanOrEqual(3);
    } finally {
      await off.close();
    }
  });
});

async function lookups(app: TestApp, result: 'hit' | 'miss' | 'bypassed'): Promise<number> {
  const metric = await app.app.get(MetricsService).registry.getSingleMetric('sc_auth_cache_lookups_total')?.get();
  return metric?.values.find((value) => value.labels['result'] === result)?.value ?? 0;
}

/** On PostgreSQL the change listener connects after start; until then the cache is (rightly) bypassed. */
async function cacheUsable(app: TestApp): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!app.app.get(AuthCache).usable) {
    if (Date.now() > deadline) throw new Error('The authorization cache did not become usable within 10 s.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
