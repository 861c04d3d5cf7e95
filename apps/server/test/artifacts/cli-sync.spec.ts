import type { DatabaseView, DiagramView, ErrorBody, FlowListItem, FlowView, JobsView, ServiceDetail, ServiceListItem, ServiceRevisionItem, SummaryView, SyncBundle, SyncResult, TextArtifactListItem, TextArtifactView } from '@sc/contracts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bearer, call, createOrganization, useTestApp, createToken, setupOrganization, type SeededOrganization } from '../support';
import { COLD_WORKER_TIMEOUT, postSync, syncFile } from './bundles';
import { requireBuiltCli, copySampleRepo, recordingProxy, runCli, type CliRun } from './cli-process';

/**
 * End to end: the built `service-cli sync` binary, run as a child process against the fixture repository
 * (apps/cli/test/fixtures/sample-repo: every artifact kind, every diagram kind, a context with every node
 * type), syncs into a server on a real database; everything is read back through the read API.
 */
// Each test spawns the CLI (Node start-up, oclif, Mermaid) one or more times; on a busy 2-core CI box that
// takes far longer than in-process requests.
jest.setTimeout(240_000);

describe('service-cli sync end to end', () => {
  const t = useTestApp({ env: { ...COLD_WORKER_TIMEOUT, SERVICE_SYNC_MAX_BYTES: '512kb', SERVICE_SYNC_MAX_FILE_BYTES: '128kb' } });
  let acme: SeededOrganization;
  let syncToken: string;
  let readToken: string;
  let repo: ReturnType<typeof copySampleRepo>;
  const cleanups: Array<() => unknown> = [];

  const sync = (token = syncToken, dir = repo.dir, gateway = t.baseUrl): Promise<CliRun> =>
    runCli(['sync', '--config', join(dir, '.service.yaml'), '--json', '--retries', '0', '--timeout', '180'], { SERVICE_TOKEN: token, SERVICE_GATEWAY_URL: gateway }, dir);
  const read = <T>(path: string) => call<T>(t.baseUrl, 'GET', `/api/v1/orgs/acme/services/payments${path}`, { headers: bearer(readToken) });
  const repoFile = (path: string) => readFileSync(join(repo.dir, path), 'utf8');
  const resultOf = (run: CliRun) => run.json['result'] as SyncResult;

  beforeAll(async () => {
    await requireBuiltCli();
    acme = await setupOrganization(t, { orgId: 'acme' });
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    readToken = (await createToken(t, acme.owner, 'acme', { name: 'dashboard', scopes: ['read'] })).token;
    repo = copySampleRepo();
    cleanups.push(() => repo.remove());
  }, 180_000);
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('syncs the fixture repository and serves every artifact back through the read API', async () => {
    const run = await sync();
    expect(run.stderr).not.toContain(syncToken);
    expect(run.stdout).not.toContain(syncToken);
    expect(run.code).toBe(0);
    const result = resultOf(run);
    expect(result).toMatchObject({ organizationId: 'acme', service: 'payments', revision: 1, status: 'created', updated: [], unchanged: [], removed: [] });
    expect(result.created).toHaveLength(16);

    const services = await call<ServiceListItem[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services', { headers: bearer(readToken) });
    expect(services.body).toEqual([
      expect.objectContaining({
        name: 'payments',
        description: 'Authorizes, captures, refunds and settles card payments for Acme shops.',
        // The CLI strips the credentials of the fixture's repository URL before sending.
        repositoryUrl: 'https://github.com/acme/payments.git',
        currentRevision: 1,
        artifactCount: 16,
      }),
    ]);
    expect(JSON.stringify(services.body)).not.toContain('s3cr3t');

    const detail = (await read<ServiceDetail>('')).body;
    expect(detail.artifacts.filter((artifact) => artifact.kind === 'architecture-diagram').map((artifact) => [artifact.name, artifact.diagramKind])).toEqual([
      ['checkout-sequence', 'sequence'],
      ['payment-lifecycle', 'state'],
      ['system-context', 'c4'],
      ['topology', 'flowchart'],
    ]);

    type Node = { id: string; overlay?: { type?: string } };
    const topology = (await read<DiagramView<{ nodes: Node[] }, { errors: unknown[]; applied: string[] }>>('/diagrams/topology')).body;
    expect(topology.mermaid).toBe(repoFile('.service/diagrams/topology.mmd'));
    expect(topology.context).toEqual(JSON.parse(repoFile('.service/diagrams/topology.context.json')));
    expect(topology.report?.errors).toEqual([]);
    const overlayTypes = new Set(topology.graph.nodes.map((node) => node.overlay?.type).filter(Boolean));
    expect([...overlayTypes].sort()).toEqual(['cloud', 'code', 'comment', 'component', 'data-source', 'db-table', 'gif', 'image', 'shape', 'table', 'text']);
    for (const name of ['payment-lifecycle', 'checkout-sequence', 'system-context']) {
      const diagram = (await read<DiagramView<{ nodes: Node[] }>>(`/diagrams/${name}`)).body;
      expect(diagram.graph.nodes.length).toBeGreaterThan(0);
    }

    const flows = (await read<FlowListItem[]>('/flows')).body;
    expect(flows.map((flow) => flow.name)).toEqual(['create-payment', 'refunds', 'webhook-delivery']);
    const createPayment = (await read<FlowView<{ nodes: unknown[] }>>('/flows/create-payment')).body;
    expect(createPayment.notes).toBe(repoFile('.service/flows/create-payment.md'));
    expect(createPayment.graph.nodes).toHaveLength(9);

    const ledger = (await read<DatabaseView>('/databases/ledger')).body;
    expect(ledger.tables.map((table) => table.name)).toEqual(['accounts', 'payments', 'entries']);
    expect(ledger.tables[2].columns.find((column) => column.name === 'payment_id')).toMatchObject({ type: 'uuid', nullable: false, references: 'payments.id' });
    expect(ledger.notes).toBe(repoFile('.service/schemas/ledger.md'));
    const reporting = (await read<DatabaseView>('/databases/reporting')).body;
    expect(reporting).toMatchObject({ engine: 'mysql' });
    expect(reporting.tables.map((table) => [table.name, table.primaryKey])).toEqual([['settlements', ['id']], ['payouts', ['id']]]);
    expect(reporting.tables[1].columns.find((column) => column.name === 'settlement_id')?.references).toBe('settlements.id');
    const idempotency = (await read<DatabaseView>('/databases/idempotency')).body;
    expect(idempotency).toMatchObject({ engine: 'dynamodb', collections: ['payments-idempotency'], schema: repoFile('.service/schemas/idempotency.json') });

    const jobs = (await read<JobsView<{ nodes: unknown[] }>>('/jobs')).body;
    expect(jobs.notes).toBe(repoFile('.service/jobs/jobs.md'));
    expect(jobs.dependencies?.mermaid).toBe(repoFile('.service/jobs/job-dependencies.mmd'));
    expect(jobs.dependencies?.graph.nodes).toHaveLength(5);
    expect((await read<SummaryView>('/summary')).body.markdown).toBe(repoFile('.service/service-summary.md'));
    expect((await read<TextArtifactView>('/docs/runbook')).body.content).toBe(repoFile('docs/runbook.md'));
    const specs = (await read<TextArtifactListItem[]>('/api-specs')).body;
    expect(specs.map((spec) => [spec.name, spec.format])).toEqual([['payment-events', 'asyncapi'], ['public-api', 'openapi']]);
    expect((await read<TextArtifactView>('/api-specs/public-api')).body.content).toBe(repoFile('api/openapi.yaml'));
  });

  it('reports "unchanged" on a second sync of the same repository', async () => {
    const run = await sync();
    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ revision: 1, status: 'unchanged', created: [], updated: [], removed: [] });
    expect(resultOf(run).unchanged).toHaveLength(16);
    // Answered by the digest check: no artifact row carries parse results, so no Mermaid file was parsed.
    const rows = run.json['artifacts'] as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(16);
    expect(rows.filter((row) => 'diagramKind' in row)).toEqual([]);
    expect((await read<ServiceRevisionItem[]>('/revisions')).body).toHaveLength(1);
  });

  it('changes only the edited file', async () => {
    writeFileSync(join(repo.dir, 'docs/runbook.md'), `${repoFile('docs/runbook.md')}\n## Escalation\nPage the payments on-call.\n`);
    const run = await sync();
    expect(run.code).toBe(0);
    const result = resultOf(run);
    expect(result).toMatchObject({ revision: 2, status: 'created', created: [], removed: [], updated: [{ kind: 'doc', name: 'runbook' }] });
    expect(result.unchanged).toHaveLength(15);
    expect((await read<TextArtifactView>('/docs/runbook')).body.content).toContain('## Escalation');
    expect((await read<TextArtifactView>('/docs/runbook?revision=1')).body.content).not.toContain('## Escalation');
  });

  it('drops an artifact removed from .service.yaml from the current view and keeps it in history', async () => {
    const config = repoFile('.service.yaml');
    const withoutWebhooks = config.replace(/\n {2}- name: webhook-delivery\n {4}path: \.service\/flows\/webhook-delivery\.mmd\n/, '\n');
    expect(withoutWebhooks).not.toBe(config);
    writeFileSync(join(repo.dir, '.service.yaml'), withoutWebhooks);
    const run = await sync();
    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ revision: 3, removed: [{ kind: 'flow', name: 'webhook-delivery' }], created: [], updated: [] });
    expect((await read<ErrorBody>('/flows/webhook-delivery')).status).toBe(404);
    expect((await read<FlowListItem[]>('/flows')).body.map((flow) => flow.name)).toEqual(['create-payment', 'refunds']);
    expect((await read<FlowView>('/flows/webhook-delivery?revision=2')).status).toBe(200);
    expect((await read<ServiceRevisionItem[]>('/revisions')).body[0]).toMatchObject({ number: 3, artifactCount: 15, removed: [{ kind: 'flow', name: 'webhook-delivery' }] });
  });

  it('refuses an invalid context: the CLI stops locally, and the gateway answers 422 with every error and stores nothing', async () => {
    // What the CLI sends for the current (valid) repository, captured on its way to the gateway.
    const proxy = await recordingProxy(t.baseUrl, { withoutSyncCheck: true });
    cleanups.push(() => proxy.close());
    expect((await sync(syncToken, repo.dir, proxy.url)).code).toBe(0);
    const sent = proxy.bodies[0] as SyncBundle;
    expect(sent.service.name).toBe('payments');

    const contextPath = '.service/diagrams/topology.context.json';
    const original = repoFile(contextPath);
    // Later tests use this repository too: restore the context whatever happens here.
    try {
      const broken = JSON.parse(original) as { nodes: Record<string, Record<string, unknown>> };
      broken.nodes['api']['type'] = 'blob';
      broken.nodes['rules']['shape'] = 'star';
      broken.nodes['gateway']['style'] = { strokeStyle: 'wavy' };
      const brokenText = JSON.stringify(broken, null, 2);
      writeFileSync(join(repo.dir, contextPath), brokenText);

      const local = await sync();
      expect(local.code).toBe(1);
      expect(JSON.stringify(local.json)).toContain('$.nodes.api.type');

      // A client that skips local validation gets the same verdict from the server.
      const tampered: SyncBundle = {
        ...sent,
        artifacts: sent.artifacts.map((artifact) => (artifact.name === 'topology' && artifact.kind === 'architecture-diagram' ? { ...artifact, context: syncFile(contextPath, brokenText) } : artifact)),
      };
      const refused = await postSync<ErrorBody>(t.baseUrl, syncToken, tampered);
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('sync_validation_failed');
      expect(refused.body.error.details.map((detail) => [detail['artifact'], detail.file, detail.path])).toEqual([
        [{ kind: 'architecture-diagram', name: 'topology' }, contextPath, '$.nodes.api.type'],
        // `shape` is only allowed on nodes of type shape, which api no longer is.
        [{ kind: 'architecture-diagram', name: 'topology' }, contextPath, '$.nodes.api.shape'],
        [{ kind: 'architecture-diagram', name: 'topology' }, contextPath, '$.nodes.rules.shape'],
        [{ kind: 'architecture-diagram', name: 'topology' }, contextPath, '$.nodes.gateway.style.strokeStyle'],
      ]);
      expect((await read<ServiceDetail>('')).body.currentRevision).toBe(3);
    } finally {
      writeFileSync(join(repo.dir, contextPath), original);
    }
  });

  it('refuses tokens without the sync scope, and a token of another organization never touches this one', async () => {
    const readOnly = await sync(readToken);
    expect(readOnly.code).toBe(2);
    expect(readOnly.stdout + readOnly.stderr).not.toContain(readToken);
    const unknown = await sync('sct_0000000000000000000000000000000000');
    expect(unknown.code).toBe(2);

    const globex = await createOrganization(t, acme, { orgId: 'globex' });
    const globexSync = (await createToken(t, globex.owner, 'globex', { name: 'ci', scopes: ['sync'] })).token;
    const other = await sync(globexSync);
    expect(other.code).toBe(0);
    expect(resultOf(other)).toMatchObject({ organizationId: 'globex', revision: 1, status: 'created' });
    expect((await read<ServiceDetail>('')).body.currentRevision).toBe(3);
    const crossRead = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/globex/services/payments', { headers: bearer(readToken) });
    expect(crossRead.status).toBe(404);
  });

  it('answers 413 naming the limit when a file is over the per-file limit', async () => {
    const bigRepo = copySampleRepo();
    cleanups.push(() => bigRepo.remove());
    writeFileSync(join(bigRepo.dir, 'docs/runbook.md'), `# Runbook\n${'All systems nominal.\n'.repeat(8000)}`);
    const run = await sync(syncToken, bigRepo.dir);
    expect(run.code).toBe(1);
    expect(JSON.stringify(run.json)).toContain('SERVICE_SYNC_MAX_FILE_BYTES');
    expect((await read<ServiceDetail>('')).body.currentRevision).toBe(3);
  });

  it('serializes concurrent syncs of the same service from separate CI jobs', async () => {
    const repos = [0, 1, 2].map((index) => {
      const copy = copySampleRepo();
      cleanups.push(() => copy.remove());
      writeFileSync(join(copy.dir, 'docs/runbook.md'), `# Runbook from job ${index}\n`);
      return copy;
    });
    const runs = await Promise.all(repos.map((copy) => sync(syncToken, copy.dir)));
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0]);
    const revisions = runs.map((run) => resultOf(run).revision).sort((a, b) => a - b);
    expect(revisions).toEqual([4, 5, 6]);
    const history = (await read<ServiceRevisionItem[]>('/revisions')).body;
    expect(history.map((revision) => revision.number)).toEqual([6, 5, 4, 3, 2, 1]);
    const winner = runs.findIndex((run) => resultOf(run).revision === 6);
    expect((await read<TextArtifactView>('/docs/runbook')).body.content).toBe(`# Runbook from job ${winner}\n`);
  });
});
