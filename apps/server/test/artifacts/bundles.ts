import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseServiceConfig, type SyncArtifact, type SyncBundle, type SyncFile } from '@sc/contracts';

/**
 * Under Jest the parser workers start from TypeScript sources (tsx, then the Mermaid import), which can take
 * longer than the production parse timeout on a busy 2-core machine; the timeout includes that start-up.
 */
export const COLD_WORKER_TIMEOUT = { SERVICE_MERMAID_PARSE_TIMEOUT: '120s' };

/** Builders for sync bundles posted straight to the gateway (the CLI end-to-end spec builds them from a repository). */

export function syncFile(path: string, content: string): SyncFile {
  return { path, content, sha256: createHash('sha256').update(content, 'utf8').digest('hex') };
}

export const TOPOLOGY = `flowchart LR
  subgraph core[Core]
    api[Orders API] --> db[(Orders DB)]
  end
  web[Web] --> api
  api --> queue>Events]
`;

export const TOPOLOGY_CONTEXT = JSON.stringify(
  {
    name: 'Orders topology',
    nodes: {
      api: { type: 'shape', shape: 'rounded-rect', name: 'Orders API', style: { fill: '#eef', strokeStyle: 'dashed' } },
      db: { type: 'data-source', dbConfig: { serviceName: 'orders', databaseName: 'orders-db', tableName: '' } },
    },
    edges: { 'api-db': { label: 'SQL', markerEnd: { type: 'arrow' } } },
    groups: { core: { name: 'Core services', nodes: ['api', 'db'] } },
  },
  null,
  2,
);

export function sampleArtifacts(): SyncArtifact[] {
  return [
    {
      kind: 'architecture-diagram',
      name: 'topology',
      file: syncFile('.service/diagrams/topology.mmd', TOPOLOGY),
      context: syncFile('.service/diagrams/topology.context.json', TOPOLOGY_CONTEXT),
    },
    {
      kind: 'flow',
      name: 'checkout',
      file: syncFile('.service/flows/checkout.mmd', 'sequenceDiagram\n  participant web as Web\n  participant api as API\n  web->>api: POST /checkout\n  api-->>web: 201\n'),
      notes: syncFile('.service/flows/checkout.md', '# Checkout\nIdempotent by order key.\n'),
    },
    {
      kind: 'database-schema',
      name: 'orders-db',
      engine: 'postgres',
      file: syncFile('.service/schemas/orders.sql', 'CREATE TABLE orders (\n  id uuid PRIMARY KEY,\n  total numeric(10,2) NOT NULL\n);\n'),
      notes: syncFile('.service/schemas/orders.md', 'Orders database.\n'),
    },
    {
      kind: 'database-schema',
      name: 'sessions',
      engine: 'dynamodb',
      file: syncFile('.service/schemas/sessions.json', JSON.stringify({ TableName: 'Sessions', KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }] })),
    },
    { kind: 'job-notes', name: 'jobs', file: syncFile('.service/jobs/jobs.md', '# Jobs\n- nightly-report\n') },
    { kind: 'job-dependencies', name: 'job-dependencies', file: syncFile('.service/jobs/job-dependencies.mmd', 'flowchart TD\n  extract --> report\n') },
    { kind: 'service-summary', name: 'summary', file: syncFile('.service/service-summary.md', '# Orders\nTakes orders.\n') },
    { kind: 'doc', name: 'runbook', file: syncFile('docs/runbook.md', '# Runbook\n') },
    { kind: 'api-spec', name: 'public-api', format: 'openapi', file: syncFile('api/openapi.yaml', 'openapi: 3.1.0\ninfo: {title: Orders, version: "1"}\npaths: {}\n') },
  ];
}

/**
 * The bundle of a repository's .service.yaml, read with the contracts' own config rules (the CLI's loader lives in
 * another project): every planned artifact with its files as written. The repository URL is left out (the CLI would
 * strip its credentials first).
 */
export function repositoryBundle(dir: string): SyncBundle {
  const { config, artifacts, problems } = parseServiceConfig(readFileSync(join(dir, '.service.yaml'), 'utf8'), '.service.yaml');
  if (!config) throw new Error(`${dir}/.service.yaml is not valid: ${JSON.stringify(problems)}`);
  const read = (path: string) => syncFile(path, readFileSync(join(dir, path), 'utf8'));
  return {
    version: 1,
    service: { name: config.service.name, ...(config.service.description ? { description: config.service.description } : {}) },
    artifacts: artifacts.map(({ kind, name, engine, format, files }) => {
      const file = (role: string) => files.find((candidate) => candidate.role === role);
      const [main, context, notes] = [file('main'), file('context'), file('notes')];
      if (!main) throw new Error(`${kind} ${name} has no main file.`);
      return {
        kind,
        name,
        file: read(main.path),
        ...(context ? { context: read(context.path) } : {}),
        ...(notes ? { notes: read(notes.path) } : {}),
        ...(engine ? { engine } : {}),
        ...(format ? { format } : {}),
      };
    }),
  };
}

export function bundle(artifacts: SyncArtifact[], service = 'orders'): SyncBundle {
  return { version: 1, service: { name: service, description: 'Takes orders', repositoryUrl: 'https://git.example/orders' }, artifacts };
}

/** Replaces one artifact's main file content (keeping its path). */
export function withContent(artifacts: SyncArtifact[], name: string, content: string): SyncArtifact[] {
  return artifacts.map((artifact) => (artifact.name === name ? { ...artifact, file: syncFile(artifact.file.path, content) } : artifact));
}

export interface PostResult<T = unknown> {
  status: number;
  body: T;
}

/** POSTs to the gateway the way the CLI does: gzip-compressed JSON with a bearer token. */
export async function postSync<T = unknown>(
  baseUrl: string,
  token: string | undefined,
  body: unknown,
  options: { gzip?: boolean; raw?: Buffer; headers?: Record<string, string>; query?: string } = {},
): Promise<PostResult<T>> {
  const gzip = options.gzip ?? true;
  const payload = options.raw ?? (gzip ? gzipSync(Buffer.from(JSON.stringify(body))) : Buffer.from(JSON.stringify(body)));
  const response = await fetch(`${baseUrl}/api/v1/gateway/sync${options.query ?? ''}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...options.headers,
    },
    body: new Uint8Array(payload),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}
