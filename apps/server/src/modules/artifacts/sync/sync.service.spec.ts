import { createHash } from 'node:crypto';
import type { SyncArtifact, SyncBundle, SyncFile } from '@sc/contracts';
import { DomainError } from '../../../common/errors/domain-error';
import { createServiceTestModule } from '../../../testing/service-test-module';
import type { TokenPrincipal } from '../../access/principal';
import { OrganizationsModule } from '../../organizations/organizations.module';
import { OrganizationsService } from '../../organizations/organizations.service';
import { TokensModule } from '../../tokens/tokens.module';
import { TokensService } from '../../tokens/tokens.service';
import { UsersService } from '../../users/users.service';
import { ArtifactsModule } from '../artifacts.module';
import { ArtifactsReadService } from '../read/artifacts-read.service';
import { SyncService } from './sync.service';

// Each sut migrates a fresh in-memory PGlite database: seconds, more on a busy machine.
jest.setTimeout(120_000);

function file(path: string, content: string): SyncFile {
  return { path, content, sha256: createHash('sha256').update(content, 'utf8').digest('hex') };
}

const RUNBOOK: SyncArtifact = { kind: 'doc', name: 'runbook', file: file('docs/runbook.md', '# Runbook\n') };
const API: SyncArtifact = { kind: 'api-spec', name: 'public-api', format: 'openapi', file: file('api/openapi.yaml', 'openapi: 3.1.0\ninfo: {title: Orders, version: "1"}\npaths: {}\n') };

function bundle(artifacts: SyncArtifact[]): SyncBundle {
  return { version: 1, service: { name: 'orders', description: 'Takes orders' }, artifacts };
}

/**
 * SyncService on a real (in-memory PGlite) database, without HTTP: organizations "acme" and "globex", each with
 * a sync token (text artifacts only, so no Mermaid worker has to start).
 */
async function sut() {
  const app = await createServiceTestModule([OrganizationsModule, TokensModule, ArtifactsModule]);
  const principals = new Map<string, TokenPrincipal>();
  for (const id of ['acme', 'globex']) {
    const token = await app.inUnitOfWork(async () => {
      const { user } = await app.get(UsersService).findOrCreate({ email: `owner@${id}.example` });
      const actor = { kind: 'setup' as const, userId: user.id, clientAddress: null };
      await app.get(OrganizationsService).create({ id, name: id }, actor);
      return app.get(TokensService).create({ organizationId: id, name: 'CI', scopes: ['sync'], actor });
    });
    principals.set(id, { kind: 'token', organizationId: id, scopes: ['sync'], tokenId: token.apiToken.id, tokenPrefix: token.apiToken.prefix, tokenName: token.apiToken.name, createdByUserId: null, creatorRole: null, creatorEmail: null, clientAddress: null });
  }
  const sync = app.get(SyncService);
  const principal = (id: string) => principals.get(id) as TokenPrincipal;
  return { app, sync, read: app.get(ArtifactsReadService), principal, run: async (id: string, body: unknown) => (await sync.sync(principal(id), body)).result };
}

describe('SyncService', () => {
  it('stores a new revision only when an artifact changed, and lists what changed', async () => {
    const { app, run, read } = await sut();
    try {
      expect(await run('acme', bundle([RUNBOOK]))).toMatchObject({ revision: 1, status: 'created', created: [{ kind: 'doc', name: 'runbook' }] });
      expect(await run('acme', bundle([RUNBOOK]))).toMatchObject({ revision: 1, status: 'unchanged', unchanged: [{ kind: 'doc', name: 'runbook' }] });

      const edited = { ...RUNBOOK, file: file('docs/runbook.md', '# Runbook\nRestart the API.\n') };
      expect(await run('acme', bundle([edited, API]))).toMatchObject({ revision: 2, status: 'created', created: [{ kind: 'api-spec', name: 'public-api' }], updated: [{ kind: 'doc', name: 'runbook' }] });
      expect(await run('acme', bundle([API]))).toMatchObject({ revision: 3, removed: [{ kind: 'doc', name: 'runbook' }], unchanged: [{ kind: 'api-spec', name: 'public-api' }] });
      expect((await read.getService('acme', 'orders')).currentRevision).toBe(3);
      // Earlier revisions stay readable as they were.
      expect((await read.getService('acme', 'orders', 1)).artifacts.map((artifact) => artifact.name)).toEqual(['runbook']);
    } finally {
      await app.close();
    }
  });

  it('refuses a bundle with any bad artifact whole, naming the problem, and stores nothing', async () => {
    const { app, run, read } = await sut();
    const refusal = (body: unknown) => run('acme', body).then(() => null, (caught: unknown) => caught as DomainError);
    try {
      const unknownKind = await refusal(bundle([RUNBOOK, { kind: 'video', name: 'demo' } as unknown as SyncArtifact]));
      expect(unknownKind).toBeInstanceOf(DomainError);
      expect(unknownKind?.code).toBe('invalid_bundle');
      const wrongDigest = await refusal(bundle([RUNBOOK, { ...API, file: { ...API.file, sha256: '0'.repeat(64) } }]));
      expect(wrongDigest).toBeInstanceOf(DomainError);
      expect([wrongDigest?.code, wrongDigest?.status]).toEqual(['sync_validation_failed', 422]);
      expect(JSON.stringify(wrongDigest?.details)).toContain('api/openapi.yaml');
      await expect(read.getService('acme', 'orders')).rejects.toMatchObject({ code: 'service_not_found' });
    } finally {
      await app.close();
    }
  });

  it('keeps each organization\'s services apart, even under the same name', async () => {
    const { app, run, read } = await sut();
    try {
      await run('acme', bundle([RUNBOOK]));
      await run('acme', bundle([RUNBOOK, API]));
      expect(await run('globex', bundle([API]))).toMatchObject({ organizationId: 'globex', revision: 1, status: 'created' });
      expect((await read.getService('acme', 'orders')).currentRevision).toBe(2);
      expect((await read.getService('globex', 'orders')).artifacts.map((artifact) => artifact.name)).toEqual(['public-api']);
    } finally {
      await app.close();
    }
  });
});
