import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorBody, SyncResult } from '@sc/contracts';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts } from './artifacts/bundles';
import { bearer, call, createTestApp, freePort, createToken, memberWithSession, TEST_SETUP_TOKEN, useSeededApp } from './support';

const METRICS_TOKEN = 'metrics-scrape-token-5f1c2a9e';

async function scrape(baseUrl: string, token?: string): Promise<{ status: number; text: string; contentType: string | null }> {
  const response = await fetch(`${baseUrl}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, text: await response.text(), contentType: response.headers.get('content-type') };
}

describe('GET /metrics behind SERVICE_METRICS_TOKEN', () => {
  const { t, org } = useSeededApp({ orgId: 'metrics-org-7q2', orgName: 'Metrics Org Zebra', ownerEmail: 'owner.zebra@metrics-org.example' }, { env: { ...COLD_WORKER_TIMEOUT, SERVICE_METRICS_TOKEN: METRICS_TOKEN } });
  const secrets: string[] = [];

  beforeAll(async () => {
    const sync = await createToken(t, org.owner, org.organizationId, { name: 'ci', scopes: ['sync', 'read'] });
    const member = await memberWithSession(t, org, 'viewer', 'viewer.quokka@metrics-org.example');
    secrets.push(org.organizationId, 'Metrics Org Zebra', org.ownerEmail, 'viewer.quokka@metrics-org.example', org.adminToken, sync.token, sync.id, org.ownerUserId, member.userId, TEST_SETUP_TOKEN);
    secrets.push(member.session.csrfToken, ...member.session.cookieHeader.split(/[;=]\s*/).filter((part) => part.length > 20));

    expect((await postSync<SyncResult>(t.baseUrl, sync.token, bundle(sampleArtifacts()))).status).toBe(201);
    expect((await call(t.baseUrl, 'GET', `/api/v1/orgs/${org.organizationId}/services/orders/diagrams/topology`, { headers: bearer(sync.token) })).status).toBe(200);
    const refused = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/auth/sign-in-link/redeem', { body: { token: 'not-a-real-sign-in-link-token' } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    secrets.push('not-a-real-sign-in-link-token');
  });

  it('refuses a scrape without the token (401) and answers with it in the Prometheus text format', async () => {
    expect(await scrape(t.baseUrl)).toMatchObject({ status: 401, text: expect.stringContaining('metrics_token_invalid') });
    expect((await scrape(t.baseUrl, 'wrong-token-of-same-size-xx')).status).toBe(401);
    const { status, contentType } = await scrape(t.baseUrl, METRICS_TOKEN);
    expect(status).toBe(200);
    expect(contentType).toContain('text/plain');
  });

  it('exposes HTTP by route template, syncs, artifacts, Mermaid parsing, sign-ins and process metrics', async () => {
    const { text } = await scrape(t.baseUrl, METRICS_TOKEN);
    expect(text).toMatch(/sc_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/orgs\/:orgId\/services\/:service\/diagrams\/:name",status="200"\} 1\n/);
    expect(text).toMatch(/sc_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/gateway\/sync",status="201"\} 1\n/);
    expect(text).toMatch(/sc_sync_duration_seconds_count\{outcome="created"\} 1\n/);
    expect(text).toMatch(/sc_sync_artifacts_sum 9\n/);
    expect(text).toMatch(/sc_mermaid_parse_duration_seconds_count\{outcome="ok"\} [1-9]/);
    expect(text).toMatch(/sc_mermaid_parse_queue_length 0\n/);
    expect(text).toMatch(/sc_mermaid_parse_timeouts_total 0\n/);
    expect(text).toMatch(/sc_sign_ins_total\{method="sign_in_link",outcome="signed_in"\} 1\n/);
    expect(text).toMatch(/sc_sign_ins_total\{method="sign_in_link",outcome="[a-z_]+"\} 1\n/);
    expect(text).not.toMatch(/outcome="signed_in"\} 2/);
    expect(text).toMatch(/process_cpu_user_seconds_total \d/);
    expect(text).toMatch(/nodejs_eventloop_lag_seconds \d/);
    if (t.config.database.kind === 'postgres') expect(text).toMatch(/sc_db_pool_connections\{state="total"\} \d/);
  });

  it('the example Grafana dashboard (docs/ops) queries only metric families the server exposes', async () => {
    const { text } = await scrape(t.baseUrl, METRICS_TOKEN);
    const dashboard = readFileSync(join(__dirname, '../../../docs/ops/grafana-dashboard.json'), 'utf8');
    const queried = new Set([...dashboard.matchAll(/\b((?:sc|process|nodejs)_[a-z0-9_]+)/g)].map((match) => match[1].replace(/_(bucket|count|sum)$/, '')));
    expect(queried.size).toBeGreaterThan(8);
    for (const family of queried) expect({ family, exposed: text.includes(`# TYPE ${family} `) }).toEqual({ family, exposed: true });
  });

  it('never names an organization, person or token', async () => {
    const { text } = await scrape(t.baseUrl, METRICS_TOKEN);
    for (const secret of secrets) expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
    // A raw URL would carry the organization id; only templates appear.
    expect(text).not.toMatch(/route="[^"]*metrics-org/);
  });
});

describe('GET /metrics placement', () => {
  it('is off (404) when neither SERVICE_METRICS_PORT nor SERVICE_METRICS_TOKEN is set', async () => {
    const t = await createTestApp();
    try {
      const { status, text } = await scrape(t.baseUrl, METRICS_TOKEN);
      expect(status).toBe(404);
      expect(text).not.toContain('process_cpu');
    } finally {
      await t.close();
    }
  });

  it('with SERVICE_METRICS_PORT is served on that port only, without a token', async () => {
    const port = await freePort();
    const t = await createTestApp({ env: { SERVICE_METRICS_PORT: String(port) } });
    try {
      expect((await scrape(t.baseUrl)).status).toBe(404);
      const scraped = await scrape(`http://127.0.0.1:${port}`);
      expect(scraped.status).toBe(200);
      expect(scraped.text).toContain('sc_http_request_duration_seconds');
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      await t.close();
    }
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});
