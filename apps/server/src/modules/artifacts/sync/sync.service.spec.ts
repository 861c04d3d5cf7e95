import { createHash } from 'node:crypto';
import type { SyncArtifact, SyncBundle, SyncFile } from '@sc/contracts';
import { DomainError } from '../../../common/errors/domain-error';
import { serviceSpec } from '../../../testing/service-spec';
import type { TokenPrincipal } from '../../access/principal';
import { ArtifactsModule } from '../artifacts.module';
import { ArtifactsReadService } from '../read/artifacts-read.service';
import { SyncService } from './sync.service';

function file(path: string, content: string): SyncFile {
  return { path, content, sha256: createHash('sha256').update(content, 'utf8').digest('hex') };
}

const RUNBOOK: SyncArtifact = { kind: 'doc', name: 'runbook', file: file('docs/runbook.md', '# Runbook\n') };
const API: SyncArtifact = { kind: 'api-spec', name: 'public-api', format: 'openapi', file: file('api/openapi.yaml', 'openapi: 3.1.0\ninfo: {title: Orders, version: "1"}\npaths: {}\n') };

function bundle(artifacts: SyncArtifact[]): SyncBundle {
  return { version: 1, service: { name: 'orders', description: 'Takes orders' }, artifacts };
}

const spec = serviceSpec([ArtifactsModule]);

/**
 * SyncService on a real (in-memory PGlite) database, one per file, without HTTP: organizations "acme" and "globex",
 * each with a sync token of its owner (text artifacts only, so no Mermaid worker has to start).
 */
async function sut() {
  const { app, ctx } = spec;
  const principals = new Map<string, TokenPrincipal>();
  for (const id of ['acme', 'globex']) {
    const org = await ctx.newOrg({ id, name: id });
    principals.set(id, (await ctx.newToken(org, ['sync'], { name: 'CI' })).as);
  }
  const sync = app.get(SyncService);
  const principal = (id: string) => principals.get(id) as TokenPrincipal;
  return { app, sync, read: app.get(ArtifactsReadService), principal, run: async (id: string, body: unknown) => (await sync.sync(principal(id), body)).result };
}

describe('SyncService', () => {
  it('stores a new revision only when an artifact changed, and lists what changed', async () => {
    const { run, read } = await sut();
    expect(await run('acme', bundle([RUNBOOK]))).toMatchObject({ revision: 1, status: 'created', created: [{ kind: 'doc', name: 'runbook' }] });
    expect(await run('acme', bundle([RUNBOOK]))).toMatchObject({ revision: 1, status: 'unchanged', unchanged: [{ kind: 'doc', name: 'runbook' }] });

    const edited = { ...RUNBOOK, file: file('docs/runbook.md', '# Runbook\nRestart the API.\n') };
    expect(await run('acme', bundle([edited, API]))).toMatchObject({ revision: 2, status: 'created', created: [{ kind: 'api-spec', name: 'public-api' }], updated: [{ kind: 'doc', name: 'runbook' }] });
    expect(await run('acme', bundle([API]))).toMatchObject({ revision: 3, removed: [{ kind: 'doc', name: 'runbook' }], unchanged: [{ kind: 'api-spec', name: 'public-api' }] });
    expect((await read.getService('acme', 'orders')).currentRevision).toBe(3);
    // Earlier revisions stay readable as they were.
    expect((await read.getService('acme', 'orders', 1)).artifacts.map((artifact) => artifact.name)).toEqual(['runbook']);
  });

  it('refuses a bundle with any bad artifact whole, naming the problem, and stores nothing', async () => {
    const { run, read } = await sut();
    const refusal = (body: unknown) => run('acme', body).then(() => null, (caught: unknown) => caught as DomainError);
    const unknownKind = await refusal(bundle([RUNBOOK, { kind: 'video', name: 'demo' } as unknown as SyncArtifact]));
    expect(unknownKind).toBeInstanceOf(DomainError);
    expect(unknownKind?.code).toBe('invalid_bundle');
    const wrongDigest = await refusal(bundle([RUNBOOK, { ...API, file: { ...API.file, sha256: '0'.repeat(64) } }]));
    expect(wrongDigest).toBeInstanceOf(DomainError);
    expect([wrongDigest?.code, wrongDigest?.status]).toEqual(['sync_validation_failed', 422]);
    expect(JSON.stringify(wrongDigest?.details)).toContain('api/openapi.yaml');
    await expect(read.getService('acme', 'orders')).rejects.toMatchObject({ code: 'service_not_found' });
  });

  it('keeps each organization\'s services apart, even under the same name', async () => {
    const { run, read } = await sut();
    await run('acme', bundle([RUNBOOK]));
    await run('acme', bundle([RUNBOOK, API]));
    expect(await run('globex', bundle([API]))).toMatchObject({ organizationId: 'globex', revision: 1, status: 'created' });
    expect((await read.getService('acme', 'orders')).currentRevision).toBe(2);
    expect((await read.getService('globex', 'orders')).artifacts.map((artifact) => artifact.name)).toEqual(['public-api']);
  });
});
