import type { ServiceRevisionFiles, SyncResult } from '@sc/contracts';
import { bearer, call, createToken, expectErrors, setupOrganization, useTestApp } from '../support';
import { COLD_WORKER_TIMEOUT, bundle, postSync, syncFile, TOPOLOGY } from './bundles';

/**
 * GET /services/:service/files: every artifact of a revision with its files exactly as synced, for
 * `service-cli diff` (issue 24), which parses them with the same code as the checkout it compares them with.
 */
describe('revision files read API (service-cli diff)', () => {
  const t = useTestApp({ env: COLD_WORKER_TIMEOUT });
  let readToken: string;
  let syncToken: string;
  const read = <T>(path: string, token = readToken) => call<T>(t.baseUrl, 'GET', `/api/v1/orgs/acme/services/orders${path}`, { headers: bearer(token) });
  const CONTEXT = '{ "name": "Orders" }\n';
  const NOTES = '# Jobs\n\nnightly-export runs at 02:00 UTC.\n';

  beforeAll(async () => {
    const acme = await setupOrganization(t, { orgId: 'acme' });
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    readToken = (await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
    const first = await postSync<SyncResult>(
      t.baseUrl,
      syncToken,
      bundle([
        { kind: 'architecture-diagram', name: 'topology', file: syncFile('.service/diagrams/topology.mmd', TOPOLOGY), context: syncFile('.service/diagrams/topology.context.json', CONTEXT) },
        { kind: 'job-notes', name: 'jobs', file: syncFile('.service/jobs.md', NOTES) },
      ]),
    );
    const second = await postSync<SyncResult>(t.baseUrl, syncToken, bundle([{ kind: 'architecture-diagram', name: 'topology', file: syncFile('.service/diagrams/topology.mmd', TOPOLOGY) }]));
    if (first.status !== 201 || second.status !== 201) throw new Error(`A sync was refused: ${JSON.stringify([first.body, second.body])}`);
  });

  it('answers the current revision with every file as synced, and an earlier one with ?revision', async () => {
    const current = await read<ServiceRevisionFiles>('/files');
    expect(current.status).toBe(200);
    expect(current.body).toEqual({
      service: 'orders',
      revision: 2,
      artifacts: [
        {
          kind: 'architecture-diagram',
          name: 'topology',
          file: expect.objectContaining({ path: '.service/diagrams/topology.mmd', fileName: 'topology.mmd', content: TOPOLOGY }),
          context: null,
          notes: null,
          engine: null,
          format: null,
        },
      ],
    });
    const first = await read<ServiceRevisionFiles>('/files?revision=1');
    expect(first.body.revision).toBe(1);
    expect(first.body.artifacts.map((artifact) => [artifact.kind, artifact.name, artifact.file.content, artifact.context?.content ?? null])).toEqual([
      ['architecture-diagram', 'topology', TOPOLOGY, CONTEXT],
      ['job-notes', 'jobs', NOTES, null],
    ]);
  });

  it('answers clear errors for unknown services and revisions, and refuses a sync-only token', async () => {
    await expectErrors(read, [
      ['/files?revision=9', 404, 'revision_not_found'],
      ['/files?revision=x', 400, 'invalid_revision'],
    ]);
    const unknown = await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/nope/files', { headers: bearer(readToken) });
    expect(unknown.status).toBe(404);
    expect((await read('/files', syncToken)).status).toBe(403);
  });
});
