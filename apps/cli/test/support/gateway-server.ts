import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body after gunzip (when Content-Encoding is gzip). */
  body: string;
  rawLength: number;
}

export type Responder = (request: RecordedRequest, index: number) => { status: number; body?: unknown; headers?: Record<string, string> } | 'destroy';

/** A real HTTP server on 127.0.0.1 that records requests and counts TCP connections. */
export interface GatewayServer {
  url: string;
  /** Everything except digest checks (in practice: the sync POSTs). */
  requests: RecordedRequest[];
  /** POST /api/v1/gateway/sync/check requests. */
  checks: RecordedRequest[];
  /** GET /api/v1/gateway/info requests (the version handshake). */
  infos: RecordedRequest[];
  connections(): number;
  close(): Promise<void>;
}

const CHECK_PATH = '/api/v1/gateway/sync/check';
const INFO_PATH = '/api/v1/gateway/info';

/** The release of the CLI under test (what oclif reports as its version). */
export const CLI_VERSION = (JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { version: string }).version;

/** The handshake answer of a gateway of the CLI's own release. */
export function gatewayInfo(overrides: Record<string, unknown> = {}): Responder {
  return () => ({ status: 200, body: { apiVersion: 1, serverVersion: CLI_VERSION, minCliVersion: CLI_VERSION, cliPackage: null, ...overrides } });
}

/** The answer of a gateway that predates the digest check. */
export const OLD_GATEWAY_CHECK: Responder = () => ({ status: 404, body: { error: { code: 'not_found', message: 'Cannot POST /api/v1/gateway/sync/check', details: [] } } });

/**
 * `respond` answers the sync requests; `check` answers digest checks (by default like an older gateway, so the
 * CLI falls back to validating and posting).
 */
export async function startGatewayServer(respond: Responder, check: Responder = OLD_GATEWAY_CHECK, info: Responder = gatewayInfo()): Promise<GatewayServer> {
  const requests: RecordedRequest[] = [];
  const checks: RecordedRequest[] = [];
  const infos: RecordedRequest[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
      const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, rawLength: raw.length };
      const [log, responder] = req.url === CHECK_PATH ? [checks, check] : req.url === INFO_PATH ? [infos, info] : [requests, respond];
      log.push(recorded);
      const answer = responder(recorded, log.length - 1);
      if (answer === 'destroy') {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    checks,
    infos,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function syncResult(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    organizationId: 'acme',
    service: 'billing',
    revision: 3,
    status: 'created',
    created: [{ kind: 'flow', name: 'invoice' }],
    updated: [{ kind: 'service-summary', name: 'service-summary' }],
    unchanged: [],
    removed: [{ kind: 'doc', name: 'old-runbook' }],
    serviceUrl: 'https://context.example.com/orgs/acme/services/billing',
    ...overrides,
  };
}
