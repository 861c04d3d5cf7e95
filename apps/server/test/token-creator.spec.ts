import type { ApiTokenResponse, ErrorBody } from '@sc/contracts';
import { bearer, call, useSeededApp, createToken, expectError, memberWithSession, sessionHeaders } from './support';

/**
 * An API token is bounded by the member who created it: removing or disabling that member revokes the
 * tokens they created (also those created with their tokens), and a token never acts above its creator's
 * current role.
 */
describe('API tokens and their creator', () => {
  const { t, org } = useSeededApp({ orgId: 'acme' });
  const members = (token: string) => call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(token) });
  const newToken = (token: string) => call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs/acme/tokens', { headers: bearer(token), body: { name: 'more', scopes: ['admin'] } });
  const syncCheck = (token: string) => call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/gateway/sync/check', { headers: bearer(token), body: { service: 'orders', digest: 'a'.repeat(64) } });
  const setRole = (userId: string, role: string) => call(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${userId}`, { headers: sessionHeaders(org.owner), body: { role } });

  it('records the first owner as the creator of the setup admin token', async () => {
    const list = await call<ApiTokenResponse[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/tokens', { headers: sessionHeaders(org.owner) });
    expect(list.body.find((token) => token.name === 'Setup admin token')?.createdByUserId).toBe(org.ownerUserId);
  });

  it("revokes a removed admin's tokens, including those made with the admin's token, after listing them for the confirmation", async () => {
    const admin = await memberWithSession(t, org, 'admin');
    const own = await createToken(t, admin.session, 'acme', { name: 'admin token', scopes: ['admin'] });
    const made = await createToken(t, own.token, 'acme', { name: 'made by token', scopes: ['read'] });
    const ownersToken = await createToken(t, org.owner, 'acme', { name: 'owner token', scopes: ['read'] });
    expect((await members(own.token)).status).toBe(200);

    const toRevoke = await call<ApiTokenResponse[]>(t.baseUrl, 'GET', `/api/v1/orgs/acme/members/${admin.userId}/tokens`, { headers: sessionHeaders(org.owner) });
    expect(toRevoke.status).toBe(200);
    expect(toRevoke.body.map((token) => token.id).sort()).toEqual([own.id, made.id].sort());
    expect(toRevoke.body.every((token) => token.createdByUserId === admin.userId)).toBe(true);

    expect((await call(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/members/${admin.userId}`, { headers: sessionHeaders(org.owner) })).status).toBe(204);
    for (const token of [own.token, made.token]) {
      const read = await members(token);
      expectError(read, 401, 'token_revoked');
      expect((await newToken(token)).status).toBe(401);
    }
    expect((await members(ownersToken.token)).status).toBe(200);
  });

  it("revokes a disabled member's tokens, and enabling the member again does not bring them back", async () => {
    const admin = await memberWithSession(t, org, 'admin');
    const own = await createToken(t, admin.session, 'acme', { scopes: ['admin'] });
    expect((await call(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${admin.userId}/disable`, { headers: sessionHeaders(org.owner) })).status).toBe(200);
    expect((await members(own.token)).body.error.code).toBe('token_revoked');
    expect((await call(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${admin.userId}/enable`, { headers: sessionHeaders(org.owner) })).status).toBe(200);
    expect((await members(own.token)).status).toBe(401);
  });

  it("acts with at most its creator's current role", async () => {
    const admin = await memberWithSession(t, org, 'admin');
    const adminToken = await createToken(t, admin.session, 'acme', { scopes: ['admin'] });
    const syncToken = await createToken(t, admin.session, 'acme', { scopes: ['sync'] });
    expect((await newToken(adminToken.token)).status).toBe(201);

    expect((await setRole(admin.userId, 'editor')).status).toBe(200);
    const refused = await newToken(adminToken.token);
    expectError(refused, 403, 'insufficient_role');
    expect(refused.body.error.message).toContain('editor');
    expect((await members(adminToken.token)).status).toBe(200);
    expect((await syncCheck(syncToken.token)).status).toBe(200);

    // A viewer may read but not sync.
    expect((await setRole(admin.userId, 'viewer')).status).toBe(200);
    expect((await members(adminToken.token)).status).toBe(200);
    expect((await syncCheck(syncToken.token)).status).toBe(403);

    expect((await setRole(admin.userId, 'admin')).status).toBe(200);
    expect((await newToken(adminToken.token)).status).toBe(201);
    expect((await syncCheck(syncToken.token)).status).toBe(200);
  });
});
