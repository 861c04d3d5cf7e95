import type { AuditEntry, MemberResponse, ScimTokenResponse } from '@sc/contracts';
import { addMember, bearer, call, createOrganization, useSeededApp, createToken, expectError, memberWithSession, sessionHeaders, signInAs, type SeededOrganization } from '../support';
import { createProvider } from '../sso/sso-support';
import { ENTERPRISE, GROUP_SCHEMA, USER_SCHEMA, createScimToken, expectScimError, patchOps, scim, type ScimBody, type ScimErrorBody } from './scim-support';

/**
 * SCIM 2.0 provisioning end to end over HTTP, with request bodies shaped as Microsoft Entra ID and Okta document
 * them (each cited where used), against the real server and database.
 */
describe('SCIM 2.0 provisioning', () => {
  const { t, org } = useSeededApp();
  let token: string;
  const base = '/scim/v2/orgs/acme';

  beforeAll(async () => {
    token = (await createScimToken(t, org, 'Entra ID')).token;
  });

  const members = async (): Promise<MemberResponse[]> => (await call<MemberResponse[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: sessionHeaders(org.owner) })).body;
  const memberByEmail = async (email: string) => (await members()).find((member) => member.email === email);
  const requireMember = async (email: string): Promise<MemberResponse> => {
    const member = await memberByEmail(email);
    if (!member) throw new Error(`${email} is not a member`);
    return member;
  };

  describe('SCIM tokens', () => {
    it('are created by owners only, shown once, listed without the secret, revocable, and audited', async () => {
      const admin = await memberWithSession(t, org, 'admin');
      const refused = await call(t.baseUrl, 'POST', '/api/v1/orgs/acme/scim-tokens', { headers: sessionHeaders(admin.session), body: { name: 'x' } });
      expectError(refused, 403, 'insufficient_role');

      const created = await createScimToken(t, org, 'Okta');
      expect(created.token).toMatch(/^scim_[a-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
      expect(created.id).toBe(created.scimToken.id);
      const list = await call<ScimTokenResponse[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/scim-tokens', { headers: sessionHeaders(org.owner) });
      expect(list.body.map((item) => item.name)).toEqual(['Okta', 'Entra ID']);
      expect(JSON.stringify(list.body)).not.toContain(created.token.slice(-43));
      expect(list.body[0]).toMatchObject({ prefix: created.token.slice(0, 13), createdByUserId: org.ownerUserId, revokedAt: null });

      expect((await scim(t, created.token, 'GET', `${base}/Users`)).status).toBe(200);
      const revoked = await call<ScimTokenResponse>(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/scim-tokens/${created.id}`, { headers: sessionHeaders(org.owner) });
      expect(revoked.body.revokedAt).not.toBeNull();
      expectScimError(await scim(t, created.token, 'GET', `${base}/Users`), 401);
      expectError(await call(t.baseUrl, 'DELETE', '/api/v1/orgs/acme/scim-tokens/00000000-0000-4000-8000-000000000000', { headers: sessionHeaders(org.owner) }), 404, 'scim_token_not_found');

      const audit = await call<AuditEntry[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/audit?limit=10', { headers: bearer(org.adminToken) });
      const actions = audit.body.map((entry) => `${entry.action} ${entry.target.label}`);
      expect(actions).toEqual(expect.arrayContaining(['scim_token.created Okta', 'scim_token.revoked Okta', 'scim_token.created Entra ID']));
      expect(JSON.stringify(audit.body)).not.toContain(created.token);
    });

    it('refuses requests without a SCIM token (sessions and API tokens are not SCIM credentials) with SCIM error bodies', async () => {
      const none = await call(t.baseUrl, 'GET', `${base}/Users`);
      expectScimError(none, 401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expectScimError(await call(t.baseUrl, 'GET', `${base}/Users`, { headers: bearer(org.adminToken) }), 401);
      expectScimError(await call(t.baseUrl, 'GET', `${base}/Users`, { headers: sessionHeaders(org.owner) }), 401);
      expectScimError(await scim(t, 'scim_abcdefgh_' + 'a'.repeat(43), 'GET', `${base}/Users`), 401);
    });
  });

  describe('discovery', () => {
    it('serves ServiceProviderConfig, ResourceTypes and Schemas as application/scim+json', async () => {
      const config = await scim<Record<string, unknown>>(t, token, 'GET', `${base}/ServiceProviderConfig`);
      expect(config.status).toBe(200);
      expect(config.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(config.body).toMatchObject({ patch: { supported: true }, filter: { supported: true }, etag: { supported: true }, bulk: { supported: false } });
      const types = await scim<{ Resources: { id: string; endpoint: string }[] }>(t, token, 'GET', `${base}/ResourceTypes`);
      expect(types.body.Resources.map((type) => type.endpoint)).toEqual(['/Users', '/Groups']);
      expect((await scim(t, token, 'GET', `${base}/ResourceTypes/User`)).status).toBe(200);
      const schemas = await scim<{ Resources: { id: string }[] }>(t, token, 'GET', `${base}/Schemas`);
      expect(schemas.body.Resources.map((schema) => schema.id)).toEqual([USER_SCHEMA, GROUP_SCHEMA, ENTERPRISE]);
      expect((await scim(t, token, 'GET', `${base}/Schemas/${USER_SCHEMA}`)).status).toBe(200);
      expectScimError(await scim(t, token, 'GET', `${base}/Schemas/urn:nothing`), 404);
    });
  });

  describe('Users', () => {
    let entraUser: ScimBody;

    it('answers a body that is not JSON with a SCIM invalidSyntax error, not the API envelope', async () => {
      for (const contentType of ['application/scim+json', 'application/json']) {
        const broken = await scim<ScimErrorBody>(t, token, 'POST', `${base}/Users`, '{"userName": "cut', { 'content-type': contentType });
        expectScimError(broken, 400, 'invalidSyntax');
        expect(broken.body.detail).toBe('The request body is not valid JSON.');
        expect(broken.body).not.toHaveProperty('error');
      }
    });

    it("creates a user from Entra ID's request (Microsoft Learn: \"Tutorial: Develop and plan provisioning for a SCIM endpoint\", Create User)", async () => {
      const created = await scim(t, token, 'POST', `${base}/Users`, {
        schemas: [USER_SCHEMA, ENTERPRISE],
        externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
        userName: 'Test_User_ab6490ee@contoso.example',
        active: true,
        emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b@contoso.example' }],
        meta: { resourceType: 'User' },
        name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
        roles: [],
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      entraUser = created.body;
      expect(created.headers.get('etag')).toBe('W/"1"');
      expect(created.headers.get('location')).toBe(`${t.baseUrl}${base}/Users/${entraUser.id}`);
      expect(entraUser).toMatchObject({ userName: 'Test_User_ab6490ee@contoso.example', externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef', active: true, groups: [], meta: { resourceType: 'User', version: 'W/"1"' } });
      // The member signs in with the primary email; SCIM memberships are managed like SSO ones.
      expect(await memberByEmail('test_user_fd0ea19b@contoso.example')).toMatchObject({ role: 'viewer', source: 'sso', disabled: false, addedBy: { kind: 'scim', tokenName: 'Entra ID' } });
      expect((await scim(t, token, 'GET', `${base}/Users/${entraUser.id}`)).body).toEqual(entraUser);
    });

    it("creates a user from Okta's request and never stores its password (Okta developer docs: \"SCIM 2.0 protocol reference\", Create the User)", async () => {
      const created = await scim(t, token, 'POST', `${base}/Users`, {
        schemas: [USER_SCHEMA],
        userName: 'test.user@okta.local',
        name: { givenName: 'Test', familyName: 'User' },
        emails: [{ primary: true, value: 'test.user@okta.local', type: 'work' }],
        displayName: 'Test User',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: '1mz050nq',
        active: true,
      });
      expect(created.status).toBe(201);
      expect(JSON.stringify(created.body)).not.toContain('1mz050nq');
      expect(JSON.stringify((await scim(t, token, 'GET', `${base}/Users/${created.body.id}`)).body)).not.toContain('password');

      const again = await scim(t, token, 'POST', `${base}/Users`, { schemas: [USER_SCHEMA], userName: 'TEST.USER@okta.local', emails: [{ value: 'other@okta.local' }] });
      expectScimError(again, 409, 'uniqueness');
      expectScimError(await scim(t, token, 'POST', `${base}/Users`, { schemas: [USER_SCHEMA], userName: 'no-email-here' }), 400, 'invalidValue');
      expectScimError(await scim(t, token, 'GET', `${base}/Users/00000000-0000-4000-8000-000000000000`), 404);
    });

    it('lists with filters eq, co and sw on userName, emails and externalId, and pages with startIndex and count', async () => {
      const list = (query: string) => scim<{ totalResults: number; startIndex: number; itemsPerPage: number; Resources: ScimBody[] }>(t, token, 'GET', `${base}/Users?${query}`);
      // Okta: GET /Users?filter=userName eq "test.user@okta.local"&startIndex=1&count=100 (case-insensitive, RFC 7643 §4.1).
      const okta = await list(`filter=${encodeURIComponent('userName eq "Test.User@okta.local"')}&startIndex=1&count=100`);
      expect(okta.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 1, startIndex: 1, itemsPerPage: 1 });
      expect(okta.body.Resources[0].userName).toBe('test.user@okta.local');
      const none = await list(`filter=${encodeURIComponent('userName eq "nobody@okta.local"')}`);
      expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
      expect((await list(`filter=${encodeURIComponent('emails co "fd0ea19b"')}`)).body.Resources.map((user) => user.id)).toEqual([entraUser.id]);
      expect((await list(`filter=${encodeURIComponent('emails.value eq "TEST.user@okta.local"')}`)).body.totalResults).toBe(1);
      expect((await list(`filter=${encodeURIComponent('externalId sw "00ujl"')}`)).body.Resources.map((user) => user.externalId)).toEqual(['00ujl29u0le5T6Aj10h7']);
      // externalId is case-exact.
      expect((await list(`filter=${encodeURIComponent('externalId sw "00UJL"')}`)).body.totalResults).toBe(0);
      expect((await list(`filter=${encodeURIComponent('userName sw "test" and active eq true')}`)).body.totalResults).toBe(2);
      // A wildcard in the value is matched as itself.
      expect((await list(`filter=${encodeURIComponent('userName co "%"')}`)).body.totalResults).toBe(0);

      const first = await list('startIndex=1&count=1');
      const second = await list('startIndex=2&count=1');
      expect([first.body.totalResults, first.body.itemsPerPage, second.body.startIndex]).toEqual([2, 1, 2]);
      expect(first.body.Resources[0].id).not.toBe(second.body.Resources[0].id);
      expect((await list('count=0')).body).toMatchObject({ totalResults: 2, Resources: [] });

      expectScimError(await list(`filter=${encodeURIComponent('userName gt "a"')}`), 400, 'invalidFilter');
      expectScimError(await list(`filter=${encodeURIComponent('userName eq')}`), 400, 'invalidFilter');
      expectScimError(await list(`filter=${encodeURIComponent('password eq "x"')}`), 400, 'invalidFilter');
      expectScimError(await list('startIndex=abc'), 400, 'invalidValue');
    });

    it("applies Entra ID's PATCH shapes (Microsoft Learn: \"Known issues and resolutions with SCIM 2.0 protocol compliance\")", async () => {
      const id = entraUser.id;
      const patched = await scim(t, token, 'PATCH', `${base}/Users/${id}`, patchOps(
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@contoso.example' },
        { op: 'Add', path: 'nickName', value: 'Babs' },
        { op: 'Add', path: `${ENTERPRISE}:employeeNumber`, value: '701984' },
        { op: 'Replace', value: { displayName: 'Barbara Jensen', 'name.givenName': 'Barbara', [`${ENTERPRISE}:department`]: 'Tour Operations' } },
        { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' },
      ));
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        emails: [{ primary: true, type: 'work', value: 'updatedEmail@contoso.example' }],
        nickName: 'Babs',
        displayName: 'Barbara Jensen',
        name: { givenName: 'Barbara', familyName: 'familyName' },
        phoneNumbers: [{ type: 'mobile', value: '+1 555 0100' }],
        [ENTERPRISE]: { employeeNumber: '701984', department: 'Tour Operations' },
        meta: { version: 'W/"2"' },
      });
      expect(patched.body['schemas']).toEqual([USER_SCHEMA, ENTERPRISE]);
      expect(patched.headers.get('etag')).toBe('W/"2"');

      const removed = await scim(t, token, 'PATCH', `${base}/Users/${id}`, patchOps({ op: 'Remove', path: 'nickName' }, { op: 'remove', path: 'phoneNumbers[type eq "mobile"]' }));
      expect(removed.body['nickName']).toBeUndefined();
      expect(removed.body['phoneNumbers']).toEqual([]);

      expectScimError(await scim(t, token, 'PATCH', `${base}/Users/${id}`, patchOps({ op: 'move', path: 'nickName' })), 400, 'invalidSyntax');
      expectScimError(await scim(t, token, 'PATCH', `${base}/Users/${id}`, { Operations: [{ op: 'add', path: 'title', value: 'x' }] }), 400, 'invalidSyntax');
      expectScimError(await scim(t, token, 'PATCH', `${base}/Users/${id}`, patchOps({ op: 'replace', path: 'active', value: 'maybe' })), 400, 'invalidValue');
      expectScimError(await scim(t, token, 'PATCH', `${base}/Users/${id}`, patchOps({ op: 'remove', path: 'emails[type eq' })), 400, 'invalidPath');
    });

    it('checks If-Match against meta.version (412 when stale) and replaces with PUT', async () => {
      const current = await scim(t, token, 'GET', `${base}/Users/${entraUser.id}`);
      const version = current.body.meta.version;
      const stale = await scim(t, token, 'PATCH', `${base}/Users/${entraUser.id}`, patchOps({ op: 'replace', path: 'title', value: 'Guide' }), { 'if-match': 'W/"1"' });
      expectScimError(stale, 412);
      const put = await scim(t, token, 'PUT', `${base}/Users/${entraUser.id}`, { schemas: [USER_SCHEMA], userName: 'barbara@contoso.example', externalId: 'ext-1', emails: [{ primary: true, type: 'work', value: 'updatedEmail@contoso.example' }], title: 'Guide' }, { 'if-match': version });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ userName: 'barbara@contoso.example', externalId: 'ext-1', title: 'Guide', active: true });
      // PUT replaces: attributes it leaves out are gone.
      expect(put.body['nickName']).toBeUndefined();
      expect(put.body['displayName']).toBeUndefined();
      expect(put.headers.get('etag')).not.toBe(version);
    });

    it("deprovisions at once: active false (Entra's \"False\" string, Okta's path-less replace) ends the member's sessions and revokes their API tokens", async () => {
      // A member SCIM provisioned, made admin by an owner, signed in, with an API token of their own.
      const created = await scim(t, token, 'POST', `${base}/Users`, { schemas: [USER_SCHEMA], userName: 'leaver@acme.example', emails: [{ primary: true, value: 'leaver@acme.example' }], active: true });
      const member = await requireMember('leaver@acme.example');
      expect((await call(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${member.userId}`, { headers: sessionHeaders(org.owner), body: { role: 'admin' } })).status).toBe(200);
      const session = await signInAs(t, org.owner, 'acme', member.userId);
      const apiToken = await createToken(t, session, 'acme', { scopes: ['admin'] });
      expect((await call(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(session) })).status).toBe(200);

      // Entra ID (older apps): {"op":"Replace","path":"active","value":"False"}.
      const disabled = await scim(t, token, 'PATCH', `${base}/Users/${created.body.id}`, patchOps({ op: 'Replace', path: 'active', value: 'False' }));
      expect(disabled.body['active']).toBe(false);
      expect(await memberByEmail('leaver@acme.example')).toMatchObject({ disabled: true });
      expect((await call(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(session) })).status).toBe(401);
      expectError(await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(apiToken.token) }), 401, 'token_revoked');
      const audit = await call<AuditEntry[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/audit?action=member.disabled&limit=1', { headers: bearer(org.adminToken) });
      expect(audit.body[0]).toMatchObject({ actor: { type: 'scim', userId: org.ownerUserId, tokenPrefix: token.slice(0, 13) }, target: { label: 'leaver@acme.example' } });

      // Okta: {"op":"replace","value":{"active":true}} and back to false.
      expect((await scim(t, token, 'PATCH', `${base}/Users/${created.body.id}`, patchOps({ op: 'replace', value: { active: true } }))).body['active']).toBe(true);
      expect(await memberByEmail('leaver@acme.example')).toMatchObject({ disabled: false });
      expect((await scim(t, token, 'PATCH', `${base}/Users/${created.body.id}`, patchOps({ op: 'replace', value: { active: false } }))).body['active']).toBe(false);

      // Delete removes the membership; the SCIM record is gone.
      const deleted = await scim(t, token, 'DELETE', `${base}/Users/${created.body.id}`);
      expect(deleted.status).toBe(204);
      expect(await memberByEmail('leaver@acme.example')).toBeUndefined();
      expectScimError(await scim(t, token, 'GET', `${base}/Users/${created.body.id}`), 404);
    });

    it('deleting an active member ends their session and revokes their tokens in the same request', async () => {
      const created = await scim(t, token, 'POST', `${base}/Users`, { schemas: [USER_SCHEMA], userName: 'gone@acme.example', active: true });
      const member = await requireMember('gone@acme.example');
      await call(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${member.userId}`, { headers: sessionHeaders(org.owner), body: { role: 'admin' } });
      const session = await signInAs(t, org.owner, 'acme', member.userId);
      const apiToken = await createToken(t, session, 'acme', { scopes: ['admin'] });
      expect((await scim(t, token, 'DELETE', `${base}/Users/${created.body.id}`)).status).toBe(204);
      expect((await call(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(session) })).status).toBe(401);
      expectError(await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(apiToken.token) }), 401, 'token_revoked');
    });

    it('never disables or removes the last active owner (409), and links an existing member without changing their role', async () => {
      const owner = await scim(t, token, 'POST', `${base}/Users`, { schemas: [USER_SCHEMA], userName: org.ownerEmail, emails: [{ primary: true, value: org.ownerEmail }], active: true });
      expect(owner.status).toBe(201);
      expect(await memberByEmail(org.ownerEmail)).toMatchObject({ role: 'owner', source: 'manual', disabled: false });

      const disable = await scim(t, token, 'PATCH', `${base}/Users/${owner.body.id}`, patchOps({ op: 'replace', path: 'active', value: false }));
      expectScimError(disable, 409, 'mutability');
      expect((disable.body as unknown as { detail: string }).detail).toMatch(/last active owner/);
      expectScimError(await scim(t, token, 'DELETE', `${base}/Users/${owner.body.id}`), 409, 'mutability');
      expect(await memberByEmail(org.ownerEmail)).toMatchObject({ role: 'owner', disabled: false });
      // The refused change was rolled back whole: the SCIM record still says active.
      expect((await scim(t, token, 'GET', `${base}/Users/${owner.body.id}`)).body).toMatchObject({ active: true, meta: { version: 'W/"1"' } });
      expect((await call(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(org.owner) })).status).toBe(200);
    });
  });

  describe('Groups', () => {
    let alice: ScimBody;
    let bob: ScimBody;
    let group: ScimBody;
    const role = async (email: string) => (await memberByEmail(email))?.role;

    beforeAll(async () => {
      // The organization's group→role rules are its SSO providers' claim rules on `groups`.
      await createProvider(t, org, {
        slug: 'entra',
        displayName: 'Entra',
        type: 'entra',
        tenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47',
        defaultRole: 'viewer',
        claimRules: [
          { claim: 'groups', operator: 'equals', value: 'sc-admins', role: 'admin' },
          { claim: 'groups', operator: 'equals', value: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', role: 'editor' },
        ],
      });
      alice = (await scim(t, token, 'POST', `${base}/Users`, { schemas: [USER_SCHEMA], userName: 'alice@acme.example', active: true })).body;
      bob = (await scim(t, token, 'POST', `${base}/Users`, { schemas: [USER_SCHEMA], userName: 'bob@acme.example', active: true })).body;
    });

    it("creates a group from Entra ID's request and maps members to roles through the claim rules (by externalId)", async () => {
      // Microsoft Learn, "Tutorial: Develop and plan provisioning for a SCIM endpoint": Create Group.
      const created = await scim(t, token, 'POST', `${base}/Groups`, {
        schemas: [GROUP_SCHEMA, 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/Group'],
        externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
        displayName: 'Engineering',
        meta: { resourceType: 'Group' },
      });
      expect(created.status).toBe(201);
      group = created.body;
      expect(group).toMatchObject({ displayName: 'Engineering', members: [], meta: { version: 'W/"1"' } });

      // Entra ID: {"name":"addMember","op":"add","path":"members","value":[{"$ref":null,"value":"<id>"}]}.
      const added = await scim(t, token, 'PATCH', `${base}/Groups/${group.id}`, patchOps({ name: 'addMember', op: 'add', path: 'members', value: [{ $ref: null, value: alice.id }] }));
      expect(added.status).toBe(200);
      expect(added.body['members']).toEqual([expect.objectContaining({ value: alice.id, display: 'alice@acme.example' })]);
      expect(await role('alice@acme.example')).toBe('editor');
      expect((await scim(t, token, 'GET', `${base}/Users/${alice.id}`)).body['groups']).toEqual([expect.objectContaining({ value: group.id, display: 'Engineering' })]);

      // Entra ID: {"name":"removeMember","op":"remove","path":"members","value":[{"$ref":null,"value":"<id>"}]}.
      const removed = await scim(t, token, 'PATCH', `${base}/Groups/${group.id}`, patchOps({ name: 'removeMember', op: 'remove', path: 'members', value: [{ $ref: null, value: alice.id }] }));
      expect(removed.body['members']).toEqual([]);
      expect(await role('alice@acme.example')).toBe('viewer');
    });

    it("applies Okta's group PATCH shapes (Okta developer docs: \"SCIM 2.0 protocol reference\", Update a specific Group)", async () => {
      const okta = await scim(t, token, 'POST', `${base}/Groups`, { schemas: [GROUP_SCHEMA], displayName: 'Test SCIMv2', members: [] });
      const id = okta.body.id;
      // Okta: {"op":"replace","value":{"id":"<id>","displayName":"sc-admins"}}: the rename makes its members admins.
      await scim(t, token, 'PATCH', `${base}/Groups/${id}`, patchOps({ op: 'add', path: 'members', value: [{ value: bob.id, display: 'bob@acme.example' }] }));
      expect(await role('bob@acme.example')).toBe('viewer');
      const renamed = await scim(t, token, 'PATCH', `${base}/Groups/${id}`, patchOps({ op: 'replace', value: { id, displayName: 'sc-admins' } }));
      expect(renamed.body).toMatchObject({ id, displayName: 'sc-admins' });
      expect(await role('bob@acme.example')).toBe('admin');
      // Okta: {"op":"remove","path":"members[value eq \"<id>\"]"}.
      const removed = await scim(t, token, 'PATCH', `${base}/Groups/${id}`, patchOps({ op: 'remove', path: `members[value eq "${bob.id}"]` }));
      expect(removed.body['members']).toEqual([]);
      expect(await role('bob@acme.example')).toBe('viewer');

      // PUT with members, filters, excludedAttributes, deletion.
      const put = await scim(t, token, 'PUT', `${base}/Groups/${id}`, { schemas: [GROUP_SCHEMA], displayName: 'sc-admins', members: [{ value: bob.id }, { value: alice.id }] });
      expect((put.body['members'] as unknown[]).length).toBe(2);
      expect([await role('alice@acme.example'), await role('bob@acme.example')]).toEqual(['admin', 'admin']);
      const filtered = await scim<{ Resources: ScimBody[] }>(t, token, 'GET', `${base}/Groups?filter=${encodeURIComponent('displayName eq "SC-ADMINS"')}&excludedAttributes=members`);
      expect(filtered.body.Resources.map((item) => [item.id, item['members']])).toEqual([[id, undefined]]);
      const byMember = await scim<{ Resources: ScimBody[] }>(t, token, 'GET', `${base}/Groups?filter=${encodeURIComponent(`members.value eq "${alice.id}"`)}`);
      expect(byMember.body.Resources.map((item) => item.id)).toEqual([id]);
      expectScimError(await scim(t, token, 'POST', `${base}/Groups`, { schemas: [GROUP_SCHEMA], displayName: 'SC-Admins' }), 409, 'uniqueness');
      expectScimError(await scim(t, token, 'PATCH', `${base}/Groups/${id}`, patchOps({ op: 'add', path: 'members', value: [{ value: '00000000-0000-4000-8000-000000000000' }] })), 400, 'invalidValue');
      expect((await scim(t, token, 'DELETE', `${base}/Groups/${id}`)).status).toBe(204);
      expect([await role('alice@acme.example'), await role('bob@acme.example')]).toEqual(['viewer', 'viewer']);
    });

    it('never changes a manual membership or an owner through groups', async () => {
      const manual = await addMember(t, org.owner, 'acme', { email: 'manual@acme.example', role: 'editor' });
      const linked = await scim(t, token, 'POST', `${base}/Users`, { schemas: [USER_SCHEMA], userName: 'manual@acme.example', active: true });
      const admins = await scim(t, token, 'POST', `${base}/Groups`, { schemas: [GROUP_SCHEMA], displayName: 'sc-admins', members: [{ value: linked.body.id }] });
      expect(admins.status).toBe(201);
      expect((await memberByEmail(manual.email))?.role).toBe('editor');
    });
  });

  describe('organization boundary', () => {
    let other: SeededOrganization;
    let otherToken: string;

    beforeAll(async () => {
      other = await createOrganization(t, org, { orgId: 'globex' });
      otherToken = (await createScimToken(t, other)).token;
    });

    it("refuses another organization's SCIM token on every SCIM route with 404, and finds none of this organization's users through its own path", async () => {
      const acmeUser = (await scim<{ Resources: ScimBody[] }>(t, token, 'GET', `${base}/Users?count=1`)).body.Resources[0];
      for (const [method, path] of scimRoutes(acmeUser.id)) {
        const response = await scim(t, otherToken, method, `${base}${path}`, method === 'POST' || method === 'PUT' || method === 'PATCH' ? {} : undefined);
        expect([method, path, response.status]).toEqual([method, path, 404]);
        expectScimError(response, 404);
      }
      expectScimError(await scim(t, otherToken, 'GET', `/scim/v2/orgs/globex/Users/${acmeUser.id}`), 404);
      expectScimError(await scim(t, otherToken, 'PATCH', `/scim/v2/orgs/globex/Users/${acmeUser.id}`, patchOps({ op: 'replace', path: 'active', value: false })), 404);
      expect((await scim<{ totalResults: number }>(t, otherToken, 'GET', '/scim/v2/orgs/globex/Users')).body.totalResults).toBe(0);
      expect((await scim(t, token, 'GET', `${base}/Users/${acmeUser.id}`)).body['active']).toBe(acmeUser['active']);
      // The same answer as for an organization that does not exist.
      expectScimError(await scim(t, otherToken, 'GET', '/scim/v2/orgs/no-such-org/Users'), 404);
    });

    it('stops a token whose creating owner is no longer an active owner', async () => {
      const second = await memberWithSession(t, other, 'owner');
      const tokenOfSecond = (await createScimToken(t, { ...other, owner: second.session }, 'by second owner')).token;
      expect((await scim(t, tokenOfSecond, 'GET', '/scim/v2/orgs/globex/Users')).status).toBe(200);
      expect((await call(t.baseUrl, 'PATCH', `/api/v1/orgs/globex/members/${second.userId}`, { headers: sessionHeaders(other.owner), body: { role: 'admin' } })).status).toBe(200);
      expectScimError(await scim(t, tokenOfSecond, 'GET', '/scim/v2/orgs/globex/Users'), 401);
    });
  });
});

/** Every SCIM route (method, path under the organization's base), with a real User id where one is needed. */
function scimRoutes(userId: string): [string, string][] {
  return [
    ['GET', '/ServiceProviderConfig'],
    ['GET', '/ResourceTypes'],
    ['GET', '/ResourceTypes/User'],
    ['GET', '/Schemas'],
    ['GET', `/Schemas/${USER_SCHEMA}`],
    // Users and Groups have the same routes: list, create, and read, replace, patch, delete by id.
    ...['Users', 'Groups'].flatMap((type): [string, string][] => [
      ['GET', `/${type}`],
      ['POST', `/${type}`],
      ...['GET', 'PUT', 'PATCH', 'DELETE'].map((method): [string, string] => [method, `/${type}/${userId}`]),
    ]),
  ];
}
