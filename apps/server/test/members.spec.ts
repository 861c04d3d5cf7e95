import type { ErrorBody } from '@sc/contracts';
import { call, useSeededApp, expectError, memberWithSession, sessionHeaders } from './support';

interface Member {
  userId: string;
  email: string;
  displayName: string;
  role: string;
  source: string;
  disabled: boolean;
}

describe('members', () => {
  const { t, org } = useSeededApp({ orgId: 'acme' });

  const owner = () => sessionHeaders(org.owner);

  it('adds a member by email (creating the user), normalizes the email and falls back to it as display name', async () => {
    const response = await call<Member>(t.baseUrl, 'POST', '/api/v1/orgs/acme/members', { headers: owner(), body: { email: 'New.Person@Acme.Example', role: 'editor' } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ email: 'new.person@acme.example', displayName: 'new.person@acme.example', role: 'editor', source: 'manual', disabled: false });
    const list = await call<Member[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: owner() });
    expect(list.body.map((member) => member.email)).toEqual(expect.arrayContaining([org.ownerEmail, 'new.person@acme.example']));
  });

  it('treats emails case-insensitively: the same person cannot be added twice', async () => {
    await call(t.baseUrl, 'POST', '/api/v1/orgs/acme/members', { headers: owner(), body: { email: 'twice@acme.example', role: 'viewer' } });
    const again = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs/acme/members', { headers: owner(), body: { email: 'TWICE@acme.example', role: 'viewer' } });
    expectError(again, 409, 'member_exists');
    const users = await t.dataSource.query("SELECT count(*)::int AS n FROM users WHERE email = 'twice@acme.example'");
    expect(users[0].n).toBe(1);
  });

  it('rejects unknown fields and bad roles with validation_failed', async () => {
    const response = await call<ErrorBody & { error: { details: { path: string }[] } }>(t.baseUrl, 'POST', '/api/v1/orgs/acme/members', {
      headers: owner(),
      body: { email: 'x@acme.example', role: 'superuser', isAdmin: true },
    });
    expectError(response, 400, 'validation_failed');
    expect(response.body.error.details.map((detail) => detail.path).sort()).toEqual(['isAdmin', 'role']);
  });

  describe('role checks', () => {
    it('viewer: reads members, cannot change them', async () => {
      const viewer = await memberWithSession(t, org, 'viewer');
      expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: sessionHeaders(viewer.session) })).status).toBe(200);
      const add = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs/acme/members', { headers: sessionHeaders(viewer.session), body: { email: 'v@acme.example', role: 'viewer' } });
      expectError(add, 403, 'insufficient_role');
    });

    it('editor: cannot manage members', async () => {
      const editor = await memberWithSession(t, org, 'editor');
      const patch = await call<ErrorBody>(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${editor.userId}`, { headers: sessionHeaders(editor.session), body: { role: 'admin' } });
      expectError(patch, 403, 'insufficient_role');
    });

    it('admin: manages editors and viewers but not owners', async () => {
      const admin = await memberWithSession(t, org, 'admin');
      const added = await call<Member>(t.baseUrl, 'POST', '/api/v1/orgs/acme/members', { headers: sessionHeaders(admin.session), body: { email: 'by-admin@acme.example', role: 'viewer' } });
      expect(added.status).toBe(201);
      const promoted = await call<Member>(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${added.body.userId}`, { headers: sessionHeaders(admin.session), body: { role: 'editor' } });
      expect(promoted.body.role).toBe('editor');
      const toOwner = await call<ErrorBody>(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${added.body.userId}`, { headers: sessionHeaders(admin.session), body: { role: 'owner' } });
      expectError(toOwner, 403, 'owner_role_required');
      const removeOwner = await call<ErrorBody>(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/members/${org.ownerUserId}`, { headers: sessionHeaders(admin.session) });
      expect(removeOwner.status).toBe(403);
      const mint = await call<ErrorBody>(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${added.body.userId}/sign-in-link`, { headers: sessionHeaders(admin.session) });
      expect(mint.status).toBe(403);
    });

    it('a role change takes effect on the next request of an existing session', async () => {
      const member = await memberWithSession(t, org, 'admin');
      expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/tokens', { headers: sessionHeaders(member.session) })).status).toBe(200);
      await call(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${member.userId}`, { headers: owner(), body: { role: 'viewer' } });
      expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/tokens', { headers: sessionHeaders(member.session) })).status).toBe(403);
    });
  });

  it('disables and enables a membership', async () => {
    const member = await memberWithSession(t, org, 'viewer');
    const disabled = await call<Member>(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${member.userId}/disable`, { headers: owner() });
    expect(disabled.body.disabled).toBe(true);
    const enabled = await call<Member>(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${member.userId}`, { headers: owner(), body: { disabled: false } });
    expect(enabled.body.disabled).toBe(false);
  });

  it('removes a member and ends their sessions in the organization', async () => {
    const member = await memberWithSession(t, org, 'viewer');
    const removed = await call(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/members/${member.userId}`, { headers: owner() });
    expect(removed.status).toBe(204);
    expect((await call(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(member.session) })).status).toBe(401);
    const missing = await call<ErrorBody>(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/members/${member.userId}`, { headers: owner() });
    expectError(missing, 404, 'member_not_found');
  });

  describe('last owner protection', () => {
    it.each([
      ['demote', 'PATCH', '', { role: 'admin' }],
      ['disable', 'POST', '/disable', undefined],
      ['remove', 'DELETE', '', undefined],
    ])('cannot %s the last active owner (409 last_owner)', async (_action, method, suffix, body) => {
      const response = await call<ErrorBody>(t.baseUrl, method, `/api/v1/orgs/acme/members/${org.ownerUserId}${suffix}`, { headers: owner(), body });
      expectError(response, 409, 'last_owner');
    });

    it('allows it once another owner is active', async () => {
      const second = await memberWithSession(t, org, 'owner');
      const demoted = await call<Member>(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${second.userId}`, { headers: owner(), body: { role: 'admin' } });
      expect(demoted.status).toBe(200);
      expect(demoted.body.role).toBe('admin');
      // Back to owner, then the first owner may step down.
      await call(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${second.userId}`, { headers: owner(), body: { role: 'owner' } });
      const stepDown = await call<Member>(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${org.ownerUserId}`, { headers: owner(), body: { role: 'admin' } });
      expect(stepDown.status).toBe(200);
      // The second owner is now the last one: disabling them is refused.
      const lastOne = await call<ErrorBody>(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${second.userId}/disable`, { headers: sessionHeaders(second.session) });
      expect(lastOne.status).toBe(409);
    });
  });
});
