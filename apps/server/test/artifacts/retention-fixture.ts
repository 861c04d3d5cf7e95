import type { ServiceRevisionItem, SyncArtifact, SyncResult } from '@sc/contracts';
import { BlobStore } from '../../src/modules/artifacts/store/blob-store';
import { ServicesRepository } from '../../src/modules/artifacts/store/services.repository';
import { RetentionService } from '../../src/modules/artifacts/retention/retention.service';
import { bearer, call, createToken, setupOrganization, type SeededOrganization, type TestApp, createTestApp } from '../support';
import { bundle, postSync, syncFile } from './bundles';

/** The app every retention spec runs against (SERVICE_REVISIONS_KEEP=2), filled in by useRetentionApp's beforeAll. */
export interface RetentionApp {
  t: TestApp;
  acme: SeededOrganization;
  syncToken: string;
  retention: RetentionService;
  repository: ServicesRepository;
  blobs: BlobStore;
}

export function doc(name: string, content: string): SyncArtifact {
  return { kind: 'doc', name, file: syncFile(`docs/${name}.md`, content) };
}

export const sha = (content: string) => syncFile('x', content).sha256;

/**
 * Starts a server with SERVICE_REVISIONS_KEEP=2 and an organization with a sync token for the calling describe
 * block, and the helpers its tests share. Shared by retention.spec.ts (every database) and
 * retention-concurrency.postgres.spec.ts (two real PostgreSQL connections).
 */
export function useRetentionApp() {
  const app = {} as RetentionApp;
  let unique = 0;
  /** Content nobody else in this app synced: each test starts from its own blobs. */
  const fresh = (label: string) => `# ${label} ${++unique} ${Math.random()}\n`;
  const sync = async (service: string, artifacts: SyncArtifact[]) => {
    const result = await postSync<SyncResult>(app.t.baseUrl, app.syncToken, bundle(artifacts, service));
    if (result.status !== 201 && result.status !== 200) throw new Error(`sync ${service}: ${result.status} ${JSON.stringify(result.body)}`);
    return result.body;
  };
  const blobExists = async (content: string) =>
    ((await app.t.dataSource.query('SELECT 1 FROM artifact_blobs WHERE sha256 = $1', [sha(content)])) as unknown[]).length === 1;
  const revisions = async (service: string) =>
    (await call<ServiceRevisionItem[]>(app.t.baseUrl, 'GET', `/api/v1/orgs/acme/services/${service}/revisions`, { headers: bearer(app.acme.adminToken) })).body.map((item) => item.number);
  /** Backends of this test's database waiting for a lock held by another transaction (PostgreSQL). */
  const lockWaiters = async () =>
    Number(((await app.t.dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)) as Array<{ n: number }>)[0]?.n);
  const untilWaiting = async () => {
    for (let attempt = 0; attempt < 200; attempt++) {
      if ((await lockWaiters()) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('Nothing started waiting for the lock.');
  };

  beforeAll(async () => {
    app.t = await createTestApp({ env: { SERVICE_REVISIONS_KEEP: '2' } });
    app.acme = await setupOrganization(app.t, { orgId: 'acme' });
    app.syncToken = (await createToken(app.t, app.acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    app.retention = app.t.app.get(RetentionService);
    app.repository = app.t.app.get(ServicesRepository);
    app.blobs = app.t.app.get(BlobStore);
  });
  afterAll(() => app.t?.close());

  return { app, fresh, sync, blobExists, revisions, untilWaiting };
}
