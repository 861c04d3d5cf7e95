import type { ApiTokenResponse, AuditEntry, ErrorBody, MemberResponse, ServiceRevisionItem, SyncResult } from '@sc/contracts';
import { syncBundleDigest } from '@sc/contracts';
import { createHash } from 'node:crypto';
import { ShutdownService } from '../src/modules/health/shutdown.service';
import { HealthErrorCode, healthError } from '../src/modules/health/health.errors';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts, syncFile } from './artifacts/bundles';
import { addMember, bearer, call, createOrganization, createToken, expectError, sessionHeaders, useSeededApp } from './support';

const SOURCE = { commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', branch: 'main', ciRunUrl: 'https://github.com/acme/orders/actions/runs/42' };

/**
 * Issue 23, "Who did what": members say how and by whom they were added, tokens who created them, every sync (and
 * every refused one) is in the audit log with its token, creator, service, revision and origin, and revisions keep
 * who synced them from which commit, branch and CI run.
 */
describe('who did what', () => {
  const { t, org } = useSeededApp({ orgId: 'acme' }, { env: COLD_WORKER_TIMEOUT });
  let sync: { token: string; id: string };

  const audit = async (query: string): Promise<AuditEntry[]> => (await call<AuditEntry[]>(t.baseUrl, 'GET', `/api/v1/orgs/acme/audit${query}`, { headers: bearer(org.adminToken) })).body;
  const members = async (orgId = 'acme', headers = bearer(org.adminToken)) => (await call<MemberResponse[]>(t.baseUrl, 'GET', `/api/v1/orgs/${orgId}/members`, { headers })).body;

  beforeAll(async () => {
    sync = await createToken(t, org.owner, 'acme', { name: 'orders CI', scopes: ['sync'] });
  });

  it('records how each member was added: first-run setup, a member, an API token, creating an organization', async () => {
    const byOwner = await addMember(t, org.owner, 'acme', { email: 'ada@acme.example', role: 'editor' });
    const byToken = await addMember(t, org.adminToken, 'acme', { email: 'bob@acme.example', role: 'viewer' });
    const adminToken = (await call<ApiTokenResponse[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/tokens', { headers: bearer(org.adminToken) })).body.find((token) => token.name === 'Setup admin token');
    const list = await members();
    const addedBy = (userId: string) => list.find((member) => member.userId === userId)?.addedBy;
    expect(addedBy(org.ownerUserId)).toEqual({ kind: 'setup' });
    expect(addedBy(byOwner.userId)).toEqual({ kind: 'member', userId: org.ownerUserId, email: org.ownerEmail });
    expect(addedBy(byToken.userId)).toEqual({ kind: 'token', tokenId: adminToken?.id, tokenName: 'Setup admin token', tokenPrefix: adminToken?.prefix, userId: org.ownerUserId, email: org.ownerEmail });

    const globex = await createOrganization(t, org, { orgId: 'globex' });
    expect((await members('globex', sessionHeaders(globex.owner)))[0]?.addedBy).toEqual({ kind: 'organization' });
  });

  it('lists each API token with the member who created it', async () => {
    const tokens = (await call<ApiTokenResponse[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/tokens', { headers: sessionHeaders(org.owner) })).body;
    expect(tokens.find((token) => token.id === sync.id)?.createdBy).toEqual({ email: org.ownerEmail, displayName: expect.any(String) });
  });

  it('audits a sync and keeps who synced the revision, from which commit, branch and CI run', async () => {
    const created = await postSync<SyncResult>(t.baseUrl, sync.token, { ...bundle(sampleArtifacts()), source: SOURCE });
    expect({ status: created.status, problems: created.status === 201 ? undefined : created.body }).toEqual({ status: 201 });
    const [entry] = await audit('?action=service.synced');
    expect(entry).toMatchObject({
      actor: { type: 'token', tokenId: sync.id, userId: org.ownerUserId, email: org.ownerEmail },
      target: { type: 'service', label: 'orders' },
      after: { revision: 1, status: 'created', created: 9, tokenName: 'orders CI', repositoryUrl: 'https://git.example/orders', ...SOURCE },
    });

    const revisions = await call<ServiceRevisionItem[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders/revisions', { headers: bearer(org.adminToken) });
    expect(revisions.body[0]).toMatchObject({
      number: 1,
      syncedBy: { tokenId: sync.id, tokenName: 'orders CI', userId: org.ownerUserId, email: org.ownerEmail },
      source: SOURCE,
    });
  });

  it('audits an unchanged sync, also one the sync check answers', async () => {
    const unchanged = await postSync<SyncResult>(t.baseUrl, sync.token, { ...bundle(sampleArtifacts()), source: { branch: 'release' } });
    expect(unchanged.status).toBe(200);
    expect((await audit('?action=service.synced&limit=1'))[0]?.after).toMatchObject({ revision: 1, status: 'unchanged', branch: 'release', commit: null });

    const digest = syncBundleDigest(bundle(sampleArtifacts()), (text) => createHash('sha256').update(text, 'utf8').digest('hex'));
    const check = await call<{ current: boolean }>(t.baseUrl, 'POST', '/api/v1/gateway/sync/check', { headers: bearer(sync.token), body: { service: 'orders', digest, source: { commit: 'abcdef1' } } });
    expect(check.body.current).toBe(true);
    expect((await audit('?action=service.synced&limit=1'))[0]?.after).toMatchObject({ revision: 1, status: 'unchanged', commit: 'abcdef1' });
  });

  it('audits a refused sync with its reason, and stores nothing of it', async () => {
    const broken = [{ kind: 'architecture-diagram' as const, name: 'topology', file: syncFile('.service/diagrams/topology.mmd', 'flowchart LR\n  a[unclosed --> b\n') }];
    const refused = await postSync<ErrorBody>(t.baseUrl, sync.token, { ...bundle(broken), source: SOURCE });
    expectError(refused, 422, 'sync_validation_failed');
    const [entry] = await audit('?action=service.sync_refused');
    expect(entry).toMatchObject({
      actor: { type: 'token', tokenId: sync.id, email: org.ownerEmail },
      target: { type: 'service', label: 'orders' },
      after: { code: 'sync_validation_failed', problems: expect.any(Number), currentRevision: 1, tokenName: 'orders CI', ...SOURCE },
    });
    expect((entry?.after as { problems: number }).problems).toBeGreaterThan(0);
  });

  it('audits a sync refused inside its transaction although the transaction rolled back', async () => {
    const shutdown = t.app.get(ShutdownService);
    const cutOff = jest.spyOn(shutdown, 'assertRunning').mockImplementationOnce(() => {
      throw healthError(HealthErrorCode.ShuttingDown, 'The service is shutting down; nothing was stored. Retry the request.');
    });
    const changed = sampleArtifacts().map((artifact) => (artifact.name === 'runbook' ? { ...artifact, file: syncFile(artifact.file.path, '# Runbook v2\n') } : artifact));
    const refused = await postSync<ErrorBody>(t.baseUrl, sync.token, { ...bundle(changed), source: SOURCE });
    cutOff.mockRestore();
    expect(refused.status).toBe(503);
    const revisions = await call<ServiceRevisionItem[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders/revisions', { headers: bearer(org.adminToken) });
    expect(revisions.body.map((revision) => revision.number)).toEqual([1]);
    expect((await audit('?action=service.sync_refused&limit=1'))[0]?.after).toMatchObject({ code: 'shutting_down', currentRevision: 1 });
    // The accepted-sync entry the rolled-back transaction wrote is gone with it.
    expect((await audit('?action=service.synced')).every((item) => (item.after as { revision: number }).revision === 1)).toBe(true);
  });

  it('finds audit entries by a part of the target name', async () => {
    const found = await audit('?target=RDER');
    // The service orders and the token "orders CI", and nothing else.
    expect(new Set(found.map((entry) => entry.target.label))).toEqual(new Set(['orders', 'orders CI']));
    expect(await audit('?target=nothing-like-it')).toEqual([]);
  });

  it('refuses a source it cannot keep: a CI run link that is not http(s), a commit that is not one, a long branch', async () => {
    const refused = await postSync<ErrorBody>(t.baseUrl, sync.token, { ...bundle(sampleArtifacts()), source: { commit: 'not-a-commit', branch: 'x'.repeat(256), ciRunUrl: 'javascript:alert(1)' } });
    expectError(refused, 400, 'invalid_bundle');
    expect(refused.body.error.details.map((detail) => detail.path).sort()).toEqual(['$.source.branch', '$.source.ciRunUrl', '$.source.commit']);
    const check = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/gateway/sync/check', { headers: bearer(sync.token), body: { service: 'orders', digest: 'a'.repeat(64), source: { ciRunUrl: 'ftp://ci.example/1' } } });
    expectError(check, 400, 'validation_failed');
  });
});
