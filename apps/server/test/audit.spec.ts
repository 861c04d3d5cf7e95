import type { AuditEntry, CreatedApiTokenResponse, MemberResponse, SignInLinkResponse, ErrorBody } from '@sc/contracts';
import { nextCursorFromLink } from '@sc/contracts';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AuditEvent } from '../src/modules/audit/audit-event.entity';
import { AuditRepository } from '../src/modules/audit/audit.repository';
import { addMember, bearer, call, createToken, expectError, memberWithSession, sessionHeaders, useSeededApp } from './support';

const CLIENT_SECRET = 'audit-client-secret-0123456789abcdef';
const NEW_CLIENT_SECRET = 'audit-client-secret-replaced-9876543210';

/**
 * The organization audit log over HTTP: every change to members, roles, tokens, SSO providers, sign-in links
 * and the organization leaves one entry with actor, target, before/after and client address, and no secret.
 */
describe('organization audit log', () => {
  const { t, org } = useSeededApp({ orgId: 'acme', ownerEmail: 'owner@acme.example' });
  /** Every secret the calls below handle: none may appear in the log. */
  const secrets: string[] = [CLIENT_SECRET, NEW_CLIENT_SECRET];

  const audit = (query = '', as: Record<string, string> = sessionHeaders(org.owner)) => call<AuditEntry[] & ErrorBody>(t.baseUrl, 'GET', `/api/v1/orgs/acme/audit${query}`, { headers: as });
  /** The newest entry with this action (the log is newest first). */
  const latest = async (action: string): Promise<AuditEntry> => {
    const page = await audit(`?action=${action}&limit=1`);
    expect(page.status).toBe(200);
    const [entry] = page.body;
    if (!entry) throw new Error(`no ${action} entry`);
    return entry;
  };
  const ownerActor = () => ({ type: 'user', userId: org.ownerUserId, email: org.ownerEmail, tokenId: null, tokenPrefix: null });

  beforeAll(async () => {
    secrets.push(org.adminToken, org.owner.csrfToken);
  });

  it('records first-run setup: the organization, its owner and the setup token, by the first owner through setup', async () => {
    const entries = (await audit()).body;
    expect(entries.map((entry) => entry.action)).toEqual(['token.created', 'member.added', 'organization.created']);
    const setupActor = { type: 'setup', userId: org.ownerUserId, email: org.ownerEmail, tokenId: null, tokenPrefix: null };
    for (const entry of entries) {
      expect(entry.actor).toEqual(setupActor);
      expect(entry.ipAddress).toMatch(/127\.0\.0\.1$/);
    }
    expect(entries[2]).toMatchObject({ target: { type: 'organization', id: 'acme', label: 'Org acme' }, before: null, after: { id: 'acme', name: 'Org acme' } });
    expect(entries[1]).toMatchObject({ target: { type: 'member', id: org.ownerUserId, label: org.ownerEmail }, after: { role: 'owner', source: 'manual', disabled: false } });
    expect(entries[0]).toMatchObject({ target: { type: 'token', label: 'Setup admin token' }, after: { name: 'Setup admin token', scopes: ['admin'], createdByUserId: org.ownerUserId } });
  });

  it('records adding a member, changing the role, disabling, enabling and removing, with before and after', async () => {
    const member = await addMember(t, org.owner, 'acme', { email: 'Pat@Acme.Example', role: 'viewer' });
    expect(await latest('member.added')).toMatchObject({
      actor: ownerActor(),
      target: { type: 'member', id: member.userId, label: 'pat@acme.example' },
      before: null,
      after: { role: 'viewer', source: 'manual', disabled: false },
    });

    const patch = (body: unknown) => call<MemberResponse>(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${member.userId}`, { headers: sessionHeaders(org.owner), body });
    expect((await patch({ role: 'editor' })).status).toBe(200);
    expect(await latest('member.role_changed')).toMatchObject({ actor: ownerActor(), target: { id: member.userId }, before: { role: 'viewer' }, after: { role: 'editor' } });

    expect((await patch({ disabled: true })).status).toBe(200);
    expect(await latest('member.disabled')).toMatchObject({ target: { id: member.userId }, before: { disabled: false }, after: { disabled: true } });
    expect((await patch({ disabled: false })).status).toBe(200);
    expect(await latest('member.enabled')).toMatchObject({ target: { id: member.userId }, before: { disabled: true }, after: { disabled: false } });

    // Unchanged values record nothing.
    const before = (await audit()).body.length;
    expect((await patch({ role: 'editor' })).status).toBe(200);
    expect((await audit()).body).toHaveLength(before);

    expect((await call(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/members/${member.userId}`, { headers: sessionHeaders(org.owner) })).status).toBe(204);
    expect(await latest('member.removed')).toMatchObject({ actor: ownerActor(), target: { id: member.userId, label: 'pat@acme.example' }, before: { role: 'editor', source: 'manual', disabled: false }, after: null });

    // A refused change leaves no entry: the entry is written in the change's transaction.
    const count = (await audit('?limit=100')).body.length;
    const lastOwner = await call<ErrorBody>(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/members/${org.ownerUserId}`, { headers: sessionHeaders(org.owner) });
    expect(lastOwner.body.error.code).toBe('last_owner');
    expect((await audit('?limit=100')).body).toHaveLength(count);
  });

  it("records creating and revoking tokens, and the revocation of a removed member's tokens after the removal", async () => {
    const admin = await memberWithSession(t, org, 'admin', 'ada@acme.example');
    const created = await call<CreatedApiTokenResponse>(t.baseUrl, 'POST', '/api/v1/orgs/acme/tokens', { headers: sessionHeaders(admin.session), body: { name: 'deploy', scopes: ['admin'] } });
    expect(created.status).toBe(201);
    secrets.push(created.body.token, admin.session.csrfToken);
    const adminActor = { type: 'user', userId: admin.userId, email: 'ada@acme.example', tokenId: null, tokenPrefix: null };
    expect(await latest('token.created')).toMatchObject({
      actor: adminActor,
      target: { type: 'token', id: created.body.apiToken.id, label: 'deploy' },
      after: { name: 'deploy', prefix: created.body.apiToken.prefix, scopes: ['admin'], expiresAt: null, createdByUserId: admin.userId },
    });

    // A token acting: the entry names the token (id and prefix) and the member answerable for it.
    const made = await call<CreatedApiTokenResponse>(t.baseUrl, 'POST', '/api/v1/orgs/acme/tokens', { headers: bearer(created.body.token), body: { name: 'made by token', scopes: ['read'] } });
    secrets.push(made.body.token);
    expect(await latest('token.created')).toMatchObject({
      actor: { type: 'token', userId: admin.userId, email: 'ada@acme.example', tokenId: created.body.apiToken.id, tokenPrefix: created.body.apiToken.prefix },
      target: { id: made.body.apiToken.id, label: 'made by token' },
    });

    expect((await call(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/tokens/${made.body.apiToken.id}`, { headers: sessionHeaders(org.owner) })).status).toBe(200);
    const revoked = await latest('token.revoked');
    expect(revoked).toMatchObject({ actor: ownerActor(), target: { id: made.body.apiToken.id }, before: { revokedAt: null }, after: { reason: 'revoked', revokedAt: expect.any(String) } });
    // Revoking again changes nothing and records nothing.
    await call(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/tokens/${made.body.apiToken.id}`, { headers: sessionHeaders(org.owner) });
    expect((await latest('token.revoked')).id).toBe(revoked.id);

    expect((await call(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/members/${admin.userId}`, { headers: sessionHeaders(org.owner) })).status).toBe(204);
    const [first, second] = (await audit('?limit=2')).body;
    expect(first).toMatchObject({ action: 'token.revoked', actor: ownerActor(), target: { id: created.body.apiToken.id }, after: { reason: 'creator_removed' } });
    expect(second).toMatchObject({ action: 'member.removed', target: { id: admin.userId } });
  });

  it('records SSO provider changes without the client secret, an update with the changed fields only', async () => {
    const path = '/api/v1/orgs/acme/sso/providers';
    const provider = {
      slug: 'corp',
      displayName: 'Corp',
      type: 'generic',
      authUrl: 'https://idp.example.com/authorize',
      tokenUrl: 'https://idp.example.com/token',
      userinfoUrl: 'https://idp.example.com/userinfo',
      clientId: 'client-id',
      clientSecret: CLIENT_SECRET,
    };
    const created = await call<{ id: string }>(t.baseUrl, 'POST', path, { headers: sessionHeaders(org.owner), body: provider });
    expect(created.status).toBe(201);
    const createdEntry = await latest('sso_provider.created');
    expect(createdEntry).toMatchObject({ actor: ownerActor(), target: { type: 'sso_provider', id: created.body.id, label: 'corp' }, after: { slug: 'corp', displayName: 'Corp', clientId: 'client-id', tokenUrl: 'https://idp.example.com/token', hasClientSecret: true } });
    expect(createdEntry.after).not.toHaveProperty('clientSecret');

    expect((await call(t.baseUrl, 'PATCH', `${path}/corp`, { headers: sessionHeaders(org.owner), body: { displayName: 'Corporate', clientSecret: NEW_CLIENT_SECRET } })).status).toBe(200);
    expect(await latest('sso_provider.updated')).toMatchObject({ before: { displayName: 'Corp' }, after: { displayName: 'Corporate', clientSecretReplaced: true } });
    expect(Object.keys((await latest('sso_provider.updated')).before ?? {})).toEqual(['displayName']);

    expect((await call(t.baseUrl, 'DELETE', `${path}/corp`, { headers: bearer(org.adminToken) })).status).toBe(204);
    expect(await latest('sso_provider.deleted')).toMatchObject({ actor: { type: 'token' }, target: { label: 'corp' }, before: { displayName: 'Corporate', hasClientSecret: true }, after: null });
  });

  it('records minting a sign-in link with who may sign in, never the link', async () => {
    const member = await addMember(t, org.owner, 'acme', { email: 'link@acme.example', role: 'viewer' });
    const minted = await call<SignInLinkResponse>(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${member.userId}/sign-in-link`, { headers: sessionHeaders(org.owner) });
    expect(minted.status).toBe(201);
    secrets.push(minted.body.url, new URL(minted.body.url).hash.slice(1));
    expect(await latest('sign_in_link.created')).toMatchObject({ actor: ownerActor(), target: { type: 'sign_in_link', label: 'link@acme.example' }, after: { userId: member.userId, expiresAt: minted.body.expiresAt } });
  });

  it('filters by action, actor, target and time, and pages with a cursor', async () => {
    const byActor = (await audit(`?actor=${encodeURIComponent('ADA@acme.example')}`)).body;
    expect(byActor.length).toBeGreaterThanOrEqual(2);
    expect(byActor.every((entry) => entry.actor.email === 'ada@acme.example')).toBe(true);
    expect((await audit(`?actor=${org.ownerUserId}`)).body.every((entry) => entry.actor.userId === org.ownerUserId)).toBe(true);

    const byTarget = (await audit('?target=pat@acme.example')).body.map((entry) => entry.action);
    expect(byTarget).toEqual(['member.removed', 'member.enabled', 'member.disabled', 'member.role_changed', 'member.added']);

    const all = (await audit('?limit=100')).body;
    const collected: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await audit(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      collected.push(...page.body.map((entry) => entry.id));
      cursor = nextCursorFromLink(page.headers.get('link'));
    }
    expect(collected).toEqual(all.map((entry) => entry.id));

    t.clock.advance(60 * 60 * 1000);
    const later = t.clock.now().toISOString();
    await addMember(t, org.owner, 'acme', { email: 'late@acme.example', role: 'viewer' });
    expect((await audit(`?from=${later}`)).body.map((entry) => entry.target.label)).toEqual(['late@acme.example']);
    expect((await audit(`?to=${later}`)).body).toHaveLength(all.length);
  });

  it('answers 400 with the field for a bad filter or cursor', async () => {
    const badAction = await audit('?action=member.exploded');
    expect(badAction.status).toBe(400);
    expect(badAction.body.error.details[0]?.path).toBe('action');
    expect((await audit('?from=yesterday')).body.error.code).toBe('validation_failed');
    const range = await audit('?from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z');
    expectError(range, 400, 'audit_range_invalid');
    for (const filter of ['actor=%00', 'target=a%00b']) {
      const control = await audit(`?${filter}`);
      expect({ filter, status: control.status, path: control.body.error.details[0]?.path }).toEqual({ filter, status: 400, path: filter.split('=')[0] });
    }
    const cursor = await audit('?cursor=not-a-cursor');
    expectError(cursor, 400, 'invalid_cursor');
    // The cursor parameter was `before` until every list shared one paging contract: it is refused by name now.
    const renamed = await audit('?before=17');
    expect([renamed.status, renamed.body.error.code, renamed.body.error.details[0]?.path]).toEqual([400, 'validation_failed', 'before']);
  });

  it('downloads the filtered log as JSON lines', async () => {
    const response = await fetch(`${t.baseUrl}/api/v1/orgs/acme/audit/export?target=pat@acme.example`, { headers: sessionHeaders(org.owner) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-acme-\d{4}-\d{2}-\d{2}\.jsonl"$/);
    const lines = (await response.text()).trim().split('\n').map((line) => JSON.parse(line) as AuditEntry);
    expect(lines.map((entry) => entry.action)).toEqual(['member.removed', 'member.enabled', 'member.disabled', 'member.role_changed', 'member.added']);

    const all = await fetch(`${t.baseUrl}/api/v1/orgs/acme/audit/export`, { headers: sessionHeaders(org.owner) });
    expect((await all.text()).trim().split('\n')).toHaveLength((await audit('?limit=100')).body.length);
    const bad = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/acme/audit/export?action=nope', { headers: sessionHeaders(org.owner) });
    expect(bad.status).toBe(400);
  });

  it('is for admins and owners only', async () => {
    const editor = await memberWithSession(t, org, 'editor');
    expect((await audit('', sessionHeaders(editor.session))).body.error.code).toBe('insufficient_role');
    const read = await createToken(t, org.owner, 'acme', { scopes: ['read'] });
    expect((await audit('', bearer(read.token))).status).toBe(403);
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/audit/export', { headers: bearer(read.token) })).status).toBe(403);
    expect((await audit('', bearer(org.adminToken))).status).toBe(200);
  });

  it('holds no secret: no client secret, token, sign-in link or CSRF value in any entry or in the table', async () => {
    const exported = await (await fetch(`${t.baseUrl}/api/v1/orgs/acme/audit/export`, { headers: sessionHeaders(org.owner) })).text();
    const stored = JSON.stringify(await t.dataSource.query('SELECT * FROM audit_events'));
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(15);
      expect({ secret, inExport: exported.includes(secret), inTable: stored.includes(secret) }).toEqual({ secret, inExport: false, inTable: false });
    }
  });
});

describe('audit entries and their change', () => {
  // A log that cannot write removals: the removal itself must then not happen.
  const failingRemovals = {
    insert: async (event: AuditEvent) => {
      if (event.action === 'member.removed') throw new Error('audit storage unavailable');
      // The current unit of work, as the real repository writes (TransactionalRepository).
      await TransactionHost.getInstance<TransactionalAdapterTypeOrm>().tx.insert(AuditEvent, event as never);
    },
  };
  const { t, org } = useSeededApp({ orgId: 'acme' }, { overrideProviders: [{ provide: AuditRepository, useValue: failingRemovals }] });

  it('commit together: a change whose entry cannot be written is rolled back', async () => {
    const member = await addMember(t, org.owner, 'acme', { email: 'stays@acme.example', role: 'viewer' });
    const removal = await call(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/members/${member.userId}`, { headers: sessionHeaders(org.owner) });
    expect(removal.status).toBe(500);
    const members = await call<MemberResponse[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: sessionHeaders(org.owner) });
    expect(members.body.map((entry) => entry.email)).toContain('stays@acme.example');
  });
});
