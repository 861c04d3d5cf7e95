import { createHash } from 'node:crypto';
import { syncBundleDigest, type ErrorBody, type ServiceDetail, type SyncArtifact, type SyncBundle, type SyncCheckResult, type SyncResult } from '@sc/contracts';
import { bearer, call, createOrganization, createToken, sessionHeaders, useSeededApp } from '../support';
import { MermaidParseService } from '../../src/modules/parsing/mermaid-parse.service';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts, syncFile, withContent, TOPOLOGY } from './bundles';

const digestOf = (synced: SyncBundle): string => syncBundleDigest(synced, (text) => createHash('sha256').update(text, 'utf8').digest('hex'));

/**
 * POST /api/v1/gateway/sync/check over HTTP on a real database: the digest of the bundle that made the current
 * revision is "current"; any other bundle is not. The CLI side is in apps/cli/test/sync.spec.ts.
 */
describe('gateway sync check', () => {
  const { t, org: acme } = useSeededApp({ orgId: 'acme' }, { env: COLD_WORKER_TIMEOUT });
  let syncToken: string;
  let readToken: string;
  const check = (body: unknown, token = syncToken) => call<SyncCheckResult>(t.baseUrl, 'POST', '/api/v1/gateway/sync/check', { headers: bearer(token), body });
  const lastSyncedAt = async (): Promise<number> =>
    Date.parse((await call<ServiceDetail>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders', { headers: bearer(readToken) })).body.lastSyncedAt ?? '');

  beforeAll(async () => {
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    readToken = (await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
  });

  it('knows no revision of a service that was never synced, and starts the parser threads for the sync to come', async () => {
    const parser = t.app.get(MermaidParseService);
    expect(parser.warm).toBe(false);
    const answer = await check({ service: 'orders', digest: digestOf(bundle(sampleArtifacts())) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ organizationId: 'acme', service: 'orders', revision: null, current: false, serviceUrl: `${t.baseUrl}/orgs/acme/services/orders` });
    expect(parser.warm).toBe(true);
  });

  it("reports the synced bundle's digest as current and counts the check as an unchanged sync", async () => {
    const synced = await postSync<SyncResult>(t.baseUrl, syncToken, bundle(sampleArtifacts()));
    expect(synced.body).toMatchObject({ revision: 1, status: 'created' });
    const before = await lastSyncedAt();
    t.clock.advance(60_000);
    const answer = await check({ service: 'orders', digest: digestOf(bundle(sampleArtifacts())) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ organizationId: 'acme', service: 'orders', revision: 1, current: true, serviceUrl: `${t.baseUrl}/orgs/acme/services/orders` });
    expect(await lastSyncedAt()).toBeGreaterThanOrEqual(before + 60_000);
  });

  const variants: Array<[string, () => SyncBundle]> = [
    ['one file content', () => bundle(withContent(sampleArtifacts(), 'topology', TOPOLOGY.replace('web', 'browser')))],
    ['a context file', () => bundle(sampleArtifacts().map((artifact) => (artifact.context ? { ...artifact, context: syncFile(artifact.context.path, '{}') } : artifact)))],
    ['a file path', () => bundle(sampleArtifacts().map((artifact) => (artifact.name === 'runbook' ? { ...artifact, file: syncFile('docs/moved.md', artifact.file.content) } : artifact)))],
    ['an artifact name', () => bundle(sampleArtifacts().map((artifact) => (artifact.name === 'runbook' ? { ...artifact, name: 'operations' } : artifact)))],
    ['the description', () => ({ ...bundle(sampleArtifacts()), service: { ...bundle([]).service, description: 'Takes and ships orders' } })],
    ['the repository URL', () => ({ ...bundle(sampleArtifacts()), service: { name: 'orders', description: 'Takes orders' } })],
    ['one artifact fewer', () => bundle(sampleArtifacts().filter((artifact) => artifact.name !== 'runbook'))],
    ['one artifact more', () => bundle([...sampleArtifacts(), { kind: 'doc', name: 'faq', file: syncFile('docs/faq.md', '# FAQ\n') } satisfies SyncArtifact])],
  ];
  it.each(variants)('is not current after a change to %s', async (_label, changed) => {
    const answer = await check({ service: 'orders', digest: digestOf(changed()) });
    expect(answer.body).toEqual({ organizationId: 'acme', service: 'orders', revision: 1, current: false, serviceUrl: `${t.baseUrl}/orgs/acme/services/orders` });
  });

  it('follows the revisions: a new revision makes the old digest stale, and a metadata-only sync re-keys the revision', async () => {
    const edited = bundle(withContent(sampleArtifacts(), 'topology', TOPOLOGY.replace('web', 'browser')));
    expect((await postSync<SyncResult>(t.baseUrl, syncToken, edited)).body).toMatchObject({ revision: 2, status: 'created' });
    expect((await check({ service: 'orders', digest: digestOf(bundle(sampleArtifacts())) })).body).toMatchObject({ revision: 2, current: false });
    expect((await check({ service: 'orders', digest: digestOf(edited) })).body).toMatchObject({ revision: 2, current: true });

    // Same artifacts, new description: no new revision, but from now on this bundle is the current one.
    const described: SyncBundle = { ...edited, service: { ...edited.service, description: 'Takes and ships orders' } };
    expect((await postSync<SyncResult>(t.baseUrl, syncToken, described)).body).toMatchObject({ revision: 2, status: 'unchanged' });
    expect((await check({ service: 'orders', digest: digestOf(described) })).body).toMatchObject({ revision: 2, current: true });
    expect((await check({ service: 'orders', digest: digestOf(edited) })).body).toMatchObject({ revision: 2, current: false });
  });

  it('treats a revision stored before digests existed as unknown until the next sync records its digest', async () => {
    const current = bundle(withContent(sampleArtifacts(), 'topology', TOPOLOGY.replace('web', 'browser')));
    const described: SyncBundle = { ...current, service: { ...current.service, description: 'Takes and ships orders' } };
    await t.dataSource.query(`UPDATE service_revisions SET bundle_digest = NULL`);
    expect((await check({ service: 'orders', digest: digestOf(described) })).body).toMatchObject({ revision: 2, current: false });
    expect((await postSync<SyncResult>(t.baseUrl, syncToken, described)).body).toMatchObject({ revision: 2, status: 'unchanged' });
    expect((await check({ service: 'orders', digest: digestOf(described) })).body).toMatchObject({ revision: 2, current: true });
  });

  it("searches the token's organization only", async () => {
    const globex = await createOrganization(t, acme, { orgId: 'globex' });
    const globexSync = (await createToken(t, globex.owner, 'globex', { name: 'ci', scopes: ['sync'] })).token;
    const before = await lastSyncedAt();
    t.clock.advance(60_000);
    const { body: acmeState } = await check({ service: 'orders', digest: digestOf(bundle(sampleArtifacts())) });
    expect(acmeState.current).toBe(false);
    const answers = await Promise.all(
      [bundle(sampleArtifacts()), bundle(withContent(sampleArtifacts(), 'topology', TOPOLOGY.replace('web', 'browser')))].map((candidate) =>
        check({ service: 'orders', digest: digestOf({ ...candidate, service: { ...candidate.service, description: 'Takes and ships orders' } }) }, globexSync),
      ),
    );
    for (const answer of answers) expect(answer.body).toEqual({ organizationId: 'globex', service: 'orders', revision: null, current: false, serviceUrl: `${t.baseUrl}/orgs/globex/services/orders` });
    expect(await lastSyncedAt()).toBe(before);
  });

  it('refuses callers without the sync scope', async () => {
    const body = { service: 'orders', digest: 'a'.repeat(64) };
    expect((await call(t.baseUrl, 'POST', '/api/v1/gateway/sync/check', { body })).status).toBe(401);
    for (const token of [readToken, acme.adminToken]) {
      const refused = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/gateway/sync/check', { headers: bearer(token), body });
      expect([refused.status, refused.body.error.code]).toEqual([403, 'insufficient_scope']);
    }
    const session = await call(t.baseUrl, 'POST', '/api/v1/gateway/sync/check', { headers: sessionHeaders(acme.owner), body });
    expect(session.status).toBe(403);
  });

  it('answers 400 naming the field for a malformed request', async () => {
    const refused = await check({ service: 'orders', digest: 'A'.repeat(64), extra: true });
    expect(refused.status).toBe(400);
    const error = (refused.body as unknown as ErrorBody).error;
    expect(error.code).toBe('validation_failed');
    expect(JSON.stringify(error.details)).toMatch(/digest/);
    expect(JSON.stringify(error.details)).toMatch(/extra/);
    expect((await check({ digest: 'a'.repeat(64) })).status).toBe(400);
  });
});
