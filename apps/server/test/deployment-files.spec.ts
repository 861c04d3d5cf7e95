import { load } from 'js-yaml';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseDurationMs } from '../src/config/env';
import { useTestApp, listRoutes } from './support';

/**
 * docker/compose.yaml, docker/compose.scaled.yaml and docker/Caddyfile cannot be started here (no Docker engine), so
 * what they promise is checked against the server itself: every health URL they probe is a route of the app and
 * answers 200, every variable they set is one the server reads and the README documents, and the scaled example
 * has two replicas behind the proxy, PostgreSQL and Redis, each with a health check.
 */
const ROOT = resolve(__dirname, '../../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
}

const compose = (path: string) => (load(read(path)) as { services: Record<string, ComposeService> }).services;

function serverSources(dir = join(ROOT, 'apps/server/src')): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) => (statSync(path).isDirectory() ? serverSources(path) : path.endsWith('.ts') && !path.endsWith('.spec.ts') ? readFileSync(path, 'utf8') : ''))
    .join('\n');
}

describe('deployment files (docker/) match the server', () => {
  const t = useTestApp();

  const scaled = compose('docker/compose.scaled.yaml');
  const replicas = Object.entries(scaled).filter(([, service]) => service.build !== undefined);
  const caddyfile = read('docker/Caddyfile');

  it('the scaled example runs two server replicas behind Caddy, on PostgreSQL and Redis, all with health checks', () => {
    expect(replicas.map(([name]) => name)).toEqual(['server-1', 'server-2']);
    expect(scaled['postgres']?.image).toMatch(/^postgres:/);
    expect(scaled['redis']?.image).toMatch(/^redis:/);
    expect(scaled['proxy']?.image).toMatch(/^caddy:/);
    for (const name of ['postgres', 'redis', 'server-1', 'server-2']) expect({ name, healthcheck: Boolean(scaled[name]?.healthcheck?.test.length) }).toEqual({ name, healthcheck: true });
    for (const [, replica] of replicas) {
      expect(replica.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
      expect(replica.environment).toMatchObject({ REDIS_URL: expect.stringMatching(/^redis:\/\/redis:/), DATABASE_URL: expect.stringMatching(/@postgres:5432\//) });
    }
    expect(scaled['proxy']?.depends_on).toEqual({ 'server-1': { condition: 'service_healthy' }, 'server-2': { condition: 'service_healthy' } });
    // Caddy balances over exactly the replicas, on the port they listen on (PORT defaults to 3000).
    expect(/reverse_proxy ([^{]+)\{/.exec(caddyfile)?.[1]?.trim().split(/\s+/)).toEqual(['server-1:3000', 'server-2:3000']);
  });

  it('every health URL the files probe is a route of the server and answers 200', async () => {
    const probed = new Set<string>([...(/health_uri (\S+)/.exec(caddyfile)?.slice(1) ?? [])]);
    const servers = [...replicas, ...Object.entries(compose('docker/compose.yaml')).filter(([, service]) => service.build !== undefined)];
    for (const [name, server] of servers) expect({ name, probesReady: server.healthcheck?.test.join(' ').includes('/api/v1/health/ready') }).toEqual({ name, probesReady: true });
    for (const [, replica] of servers) for (const match of replica.healthcheck?.test.join(' ').matchAll(/127\.0\.0\.1:3000(\/[^'"\s)]+)/g) ?? []) probed.add(match[1]);
    expect([...probed]).toEqual(['/api/v1/health/ready']);
    const routes = listRoutes(t.app).filter((route) => route.method === 'GET').map((route) => route.path);
    for (const path of probed) {
      expect(routes).toContain(path);
      expect((await fetch(`${t.baseUrl}${path}`)).status).toBe(200);
    }
  });

  it('every variable the compose files set is read by the server and documented in the README', () => {
    const sources = serverSources();
    const readme = read('README.md');
    const variables = new Set([...Object.values(compose('docker/compose.yaml')), ...Object.values(scaled)].filter((service) => service.build !== undefined).flatMap((service) => Object.keys(service.environment ?? {})));
    expect(variables.size).toBeGreaterThan(5);
    for (const name of variables) expect({ name, read: sources.includes(`'${name}'`), documented: readme.includes(`\`${name}\``) }).toEqual({ name, read: true, documented: true });
  });

  it('compose waits longer than the drain: stop_grace_period exceeds SERVICE_SHUTDOWN_GRACE', () => {
    for (const [name, replica] of replicas) {
      const grace = parseDurationMs(replica.environment?.['SERVICE_SHUTDOWN_GRACE'] ?? '25s') ?? 0;
      expect({ name, drainFitsStop: (parseDurationMs(replica.stop_grace_period ?? '10s') ?? 0) > grace }).toEqual({ name, drainFitsStop: true });
    }
  });
});
