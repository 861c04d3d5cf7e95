import type { ErrorBody } from '@sc/contracts';
import { bearer, call, useSeededApp, createToken, expectError, memberWithSession, sessionHeaders } from './support';

describe('API tokens', () => {
  const { t, org } = useSeededApp({ orgId: 'acme' });

  it('shows the raw token once, in the sct_<prefix>_<secret> format, and never in the list', async () => {
    const created = await call<{ token: string; apiToken: { id: string; prefix: string; scopes: string[] } }>(t.baseUrl, 'POST', '/api/v1/orgs/acme/tokens', {
      headers: sessionHeaders(org.owner),
      body: { name: 'ci', scopes: ['sync', 'read'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^sct_[a-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
    expect(created.body.token.startsWith(`${created.body.apiToken.prefix}_`)).toBe(true);
    expect(created.body.apiToken.scopes).toEqual(['sync', 'read']);

    const list = await call<Record<string, unknown>[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/tokens', { headers: sessionHeaders(org.owner) });
    expect(list.status).toBe(200);
    const listed = list.body.find((token) => token['id'] === created.body.apiToken.id);
    expect(listed).toMatchObject({ name: 'ci', prefix: created.body.apiToken.prefix, revokedAt: null, expiresAt: null, lastUsedAt: null });
    expect(Object.keys(listed ?? {}).sort()).toEqual(['createdAt', 'createdBy', 'createdByUserId', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'scopes']);
    expect(JSON.stringify(list.body)).not.toContain(created.body.token.slice('sct_12345678_'.length));
  });

  it('authenticates with Authorization: Bearer and records lastUsedAt', async () => {
    const { token, id } = await createToken(t, org.owner, 'acme', { scopes: ['read'] });
    const response = await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(token) });
    expect(response.status).toBe(200);
    const [row] = await t.dataSource.query('SELECT last_used_at FROM api_tokens WHERE id = $1', [id]);
    expect(row.last_used_at).not.toBeNull();
  });

  it('rewrites lastUsedAt once it is older than a minute, and leaves a recent one alone', async () => {
    const { token, id } = await createToken(t, org.owner, 'acme', { scopes: ['read'] });
    const stale = new Date(Date.now() - 5 * 60_000);
    await t.dataSource.query('UPDATE api_tokens SET last_used_at = $2 WHERE id = $1', [id, stale]);
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(token) })).status).toBe(200);
    const [touched] = await t.dataSource.query('SELECT last_used_at FROM api_tokens WHERE id = $1', [id]);
    expect(new Date(touched.last_used_at).getTime()).toBeGreaterThan(stale.getTime() + 4 * 60_000);

    const recent = new Date(Date.now() - 10_000);
    await t.dataSource.query('UPDATE api_tokens SET last_used_at = $2 WHERE id = $1', [id, recent]);
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(token) })).status).toBe(200);
    const [kept] = await t.dataSource.query('SELECT last_used_at FROM api_tokens WHERE id = $1', [id]);
    expect(new Date(kept.last_used_at).getTime()).toBe(recent.getTime());
  });

  it('refuses a revoked token with 401 token_revoked', async () => {
    const { token, id } = await createToken(t, org.owner, 'acme', { scopes: ['read'] });
    const revoked = await call<{ revokedAt: string }>(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/tokens/${id}`, { headers: sessionHeaders(org.owner) });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    const response = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(token) });
    expectError(response, 401, 'token_revoked');
  });

  it('refuses an expired token with 401 token_expired', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 60 * 60 * 1000).toISOString();
    const { token } = await createToken(t, org.owner, 'acme', { scopes: ['read'], expiresAt });
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(token) })).status).toBe(200);
    t.clock.advance(60 * 60 * 1000 + 1000);
    try {
      const response = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(token) });
      expectError(response, 401, 'token_expired');
    } finally {
      t.clock.advance(-(60 * 60 * 1000 + 1000));
    }
  });

  it('refuses unknown and malformed tokens with 401 token_invalid', async () => {
    for (const authorization of ['Bearer sct_abcdefgh_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'Bearer nonsense', 'Basic dXNlcjpwYXNz']) {
      const response = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: { authorization } });
      expectError(response, 401, 'token_invalid');
    }
  });

  it('rejects an expiry in the past and unknown scopes', async () => {
    const past = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs/acme/tokens', { headers: sessionHeaders(org.owner), body: { name: 'x', scopes: ['read'], expiresAt: '2001-01-01T00:00:00Z' } });
    expectError(past, 400, 'token_expiry_in_past');
    const scope = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs/acme/tokens', { headers: sessionHeaders(org.owner), body: { name: 'x', scopes: ['root'] } });
    expectError(scope, 400, 'validation_failed');
  });

  describe('scopes', () => {
    it('read: GET routes only', async () => {
      const { token } = await createToken(t, org.owner, 'acme', { scopes: ['read'] });
      expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme', { headers: bearer(token) })).status).toBe(200);
      const write = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs/acme/members', { headers: bearer(token), body: { email: 'x@acme.example', role: 'viewer' } });
      expectError(write, 403, 'insufficient_scope');
      // Token management is admin-level even for reads.
      expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/tokens', { headers: bearer(token) })).status).toBe(403);
    });

    it('sync: nothing but routes marked for sync', async () => {
      const { token } = await createToken(t, org.owner, 'acme', { scopes: ['sync'] });
      const response = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(token) });
      expectError(response, 403, 'insufficient_scope');
    });

    it('admin: manages members and tokens but cannot do owner-only things', async () => {
      const { token } = await createToken(t, org.owner, 'acme', { scopes: ['admin'] });
      const added = await call<{ userId: string }>(t.baseUrl, 'POST', '/api/v1/orgs/acme/members', { headers: bearer(token), body: { email: 'by-token@acme.example', role: 'editor' } });
      expect(added.status).toBe(201);
      expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/tokens', { headers: bearer(token) })).status).toBe(200);
      const link = await call<ErrorBody>(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${added.body.userId}/sign-in-link`, { headers: bearer(token) });
      expect(link.status).toBe(403);
      const owner = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs/acme/members', { headers: bearer(token), body: { email: 'new-owner@acme.example', role: 'owner' } });
      expectError(owner, 403, 'owner_role_required');
    });

    it('tokens cannot use session-only endpoints', async () => {
      const response = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/auth/sign-out', { headers: bearer(org.adminToken) });
      expectError(response, 403, 'session_required');
    });
  });

  it('only admins and owners manage tokens', async () => {
    const editor = await memberWithSession(t, org, 'editor');
    const response = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs/acme/tokens', { headers: sessionHeaders(editor.session), body: { name: 'x', scopes: ['read'] } });
    expectError(response, 403, 'insufficient_role');
  });
});
