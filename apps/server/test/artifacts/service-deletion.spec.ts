import type { AuditEntry, ServiceDetail, ServiceListItem, SyncArtifact, SyncResult } from '@sc/contracts';
import { bearer, call, createOrganization, createToken, memberWithSession, sessionHeaders, type SeededOrganization, useSeededApp } from '../support';
import { bundle, postSync, syncFile } from './bundles';

/**
 * DELETE /api/v1/orgs/:orgId/services/:service over HTTP on a real database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): roles, organization isolation, the audit entry, what is removed and what is kept, and
 * syncs of the same service racing the deletion.
 */
function doc(name: string, content: string): SyncArtifact {
  return { kind: 'doc', name, file: syncFile(`docs/${name}.md`, content) };
}

describe('deleting a service', () => {
  const { t, org: acme } = useSeededApp({ orgId: 'acme' });
  let other: SeededOrganization;
  let syncToken: string;
  const sync = async (service: string, artifacts: SyncArtifact[], token = syncToken) => postSync<SyncResult>(t.baseUrl, token, bundle(artifacts, service));
  const remove = (service: string, headers: Record<string, string>, orgId = 'acme') => call<{ error: { code: string; message: string } }>(t.baseUrl, 'DELETE', `/api/v1/orgs/${orgId}/services/${service}`, { headers });
  const blobCount = async (contents: string[]) =>
    Number(((await t.dataSource.query('SELECT count(*)::int AS n FROM artifact_blobs WHERE sha256 = ANY($1)', [contents.map((content) => syncFile('x', content).sha256)])) as Array<{ n: number }>)[0]?.n);

  beforeAll(async () => {
    other = await createOrganization(t, acme, { orgId: 'other' });
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
  });

  it('refuses viewers, editors and read or sync tokens (403), and answers 404 for a service the organization does not have', async () => {
    expect((await sync('guarded', [doc('a', '# guarded\n')])).status).toBe(201);
    const viewer = await memberWithSession(t, acme, 'viewer');
    const editor = await memberWithSession(t, acme, 'editor');
    const readToken = (await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
    for (const headers of [sessionHeaders(viewer.session), sessionHeaders(editor.session), bearer(readToken), bearer(syncToken)]) {
      const refused = await remove('guarded', headers);
      expect(refused.status).toBe(403);
      expect(['insufficient_role', 'insufficient_scope']).toContain(refused.body.error.code);
    }
    const missing = await remove('no-such-service', bearer(acme.adminToken));
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('service_not_found');
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/guarded', { headers: bearer(acme.adminToken) })).status).toBe(200);
  });

  it("never deletes another organization's service: 404 organization_not_found, the service stays", async () => {
    const otherSync = (await createToken(t, other.owner, 'other', { name: 'ci', scopes: ['sync'] })).token;
    expect((await sync('theirs', [doc('a', '# theirs\n')], otherSync)).status).toBe(201);
    for (const headers of [sessionHeaders(acme.owner), bearer(acme.adminToken)]) {
      const refused = await remove('theirs', headers, 'other');
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('organization_not_found');
    }
    // The same name in one's own organization is a different service.
    expect((await remove('theirs', bearer(acme.adminToken))).status).toBe(404);
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/other/services/theirs', { headers: bearer(other.adminToken) })).status).toBe(200);
  });

  it('removes the revisions and the blobs nothing else references, keeps shared blobs, and audits the deletion', async () => {
    const [own1, own2, shared] = ['# own 1\n', '# own 2\n', '# shared with billing\n'];
    await sync('doomed', [doc('a', own1), doc('s', shared)]);
    await sync('doomed', [doc('a', own2), doc('s', shared)]);
    await sync('billing', [doc('s', shared)]);
    const admin = await memberWithSession(t, acme, 'admin');

    expect((await remove('doomed', sessionHeaders(admin.session))).status).toBe(204);

    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/doomed', { headers: bearer(acme.adminToken) })).status).toBe(404);
    expect((await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/doomed/revisions', { headers: bearer(acme.adminToken) })).status).toBe(404);
    const list = await call<ServiceListItem[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services', { headers: bearer(acme.adminToken) });
    expect(list.body.map((service) => service.name)).not.toContain('doomed');
    expect(await blobCount([own1, own2])).toBe(0);
    expect(await blobCount([shared])).toBe(1);
    expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM service_revisions r JOIN services s ON s.id = r.service_id WHERE s.name = 'doomed'`))[0].n).toBe(0);

    const audit = await call<AuditEntry[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/audit?action=service.deleted', { headers: sessionHeaders(acme.owner) });
    expect(audit.body).toEqual([
      expect.objectContaining({
        action: 'service.deleted',
        target: expect.objectContaining({ type: 'service', label: 'doomed' }),
        actor: expect.objectContaining({ type: 'user', email: expect.stringContaining('admin') }),
        before: expect.objectContaining({ name: 'doomed', currentRevision: 2, revisions: 2 }),
        after: null,
      }),
    ]);
    // A later sync starts the service afresh.
    const again = await sync('doomed', [doc('a', own1)]);
    expect(again.body.revision).toBe(1);
  });

  it('lets a sync racing the deletion finish before it or start the service afresh after it, never half way', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `racing-${round}`;
      await sync(name, [doc('a', `# ${name} first\n`)]);
      const [synced, deleted] = await Promise.all([sync(name, [doc('a', `# ${name} second\n`)]), remove(name, bearer(acme.adminToken))]);
      expect(deleted.status).toBe(204);
      expect(synced.status).toBe(201);
      const after = await call<ServiceDetail>(t.baseUrl, 'GET', `/api/v1/orgs/acme/services/${name}`, { headers: bearer(acme.adminToken) });
      if (after.status === 200) {
        // The sync committed after the deletion: a new service whose only revision is that sync.
        expect(synced.body.revision).toBe(1);
        expect(after.body.currentRevision).toBe(1);
      } else {
        expect(after.status).toBe(404);
        expect(synced.body.revision).toBe(2);
      }
    }
  });
});
