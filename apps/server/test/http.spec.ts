import type { ErrorBody } from '@sc/contracts';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SETUP_TOKEN, call, expectError, useTestApp } from './support';

function expectErrorShape(body: unknown): void {
  expect(body).toEqual({ error: { code: expect.stringMatching(/^[a-z]+(_[a-z]+)*$/), message: expect.stringMatching(/\S.*[.!?]$/), details: expect.any(Array) } });
}

describe('HTTP conventions', () => {
  const t = useTestApp({ env: { SERVICE_BODY_LIMIT: '2kb' } });

  it('GET /api/v1/health checks the database', async () => {
    const response = await call(t.baseUrl, 'GET', '/api/v1/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', database: 'ok' });
  });

  it('answers unknown API routes with 404 not_found in the error shape', async () => {
    const response = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/nope');
    expect(response.status).toBe(404);
    expectErrorShape(response.body);
    expect(response.body.error.code).toBe('not_found');
  });

  it('answers malformed JSON with 400 bad_request', async () => {
    const response = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/setup', { body: '{"token": ' });
    expect(response.status).toBe(400);
    expectErrorShape(response.body);
    expect(response.body.error.message).toMatch(/not valid JSON/);
  });

  it('answers bodies over SERVICE_BODY_LIMIT with 413 payload_too_large', async () => {
    const response = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/setup', { body: { token: 'x'.repeat(4096) } });
    expect(response.status).toBe(413);
    expectErrorShape(response.body);
    expect(response.body.error.code).toBe('payload_too_large');
  });

  it('reports validation errors with one detail per field, unknown fields included', async () => {
    const response = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/setup', { body: { token: TEST_SETUP_TOKEN, organization: { id: 'ok-id', name: 'n', extra: 1 }, owner: { email: 'a@b.example' }, admin: true } });
    expect(response.status).toBe(400);
    expectErrorShape(response.body);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details).toEqual(
      expect.arrayContaining([
        { path: 'admin', message: 'property admin should not exist' },
        { path: 'organization.extra', message: 'property extra should not exist' },
      ]),
    );
  });

  it('sets security headers (helmet) and hides the framework', async () => {
    const response = await call(t.baseUrl, 'GET', '/api/v1/health');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    // Diagram image nodes load https and data: images in the browser; scripts stay same-origin only.
    expect(response.headers.get('content-security-policy')).toContain("img-src 'self' data: https:");
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('strict-transport-security')).toBeNull(); // http public URL
  });

  it('serves the OpenAPI document at /api/docs', async () => {
    const ui = await call<string>(t.baseUrl, 'GET', '/api/docs');
    expect(ui.status).toBe(200);
    const json = await call<{ paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } }>(t.baseUrl, 'GET', '/api/docs-json');
    expect(Object.keys(json.body.paths)).toEqual(expect.arrayContaining(['/api/v1/setup', '/api/v1/orgs/{orgId}/members', '/api/v1/health']));
    // Request bodies are described from the same class-validator rules that validate them.
    expect(json.body.components.schemas['SetupRequest']).toEqual({
      type: 'object',
      additionalProperties: false,
      required: expect.arrayContaining(['token', 'organization', 'owner']),
      properties: {
        token: { type: 'string', minLength: 1, maxLength: 200 },
        organization: { $ref: '#/components/schemas/CreateOrganizationRequest' },
        owner: { $ref: '#/components/schemas/SetupOwnerRequest' },
      },
    });
    expect(json.body.components.schemas['CreateOrganizationRequest']).toMatchObject({ properties: { id: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{1,62}$' } } });
    expect(json.body.components.schemas['CreateApiTokenRequest']).toMatchObject({
      required: ['name', 'scopes'],
      properties: { scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: ['sync', 'read', 'admin'] } }, expiresAt: { type: 'string', format: 'date-time' } },
    });
  });
});

describe('rate limit on auth endpoints', () => {
  const t = useTestApp({ env: { SERVICE_AUTH_RATE_LIMIT: '3', SERVICE_AUTH_RATE_WINDOW: '1m' } });

  it('answers 429 rate_limited after the configured number of attempts', async () => {
    const statuses: number[] = [];
    let last: ErrorBody | undefined;
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/auth/sign-in-link/redeem', { body: { token: `guess-${attempt}` } });
      statuses.push(response.status);
      last = response.body;
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    expectErrorShape(last);
    expect(last?.error.code).toBe('rate_limited');
    // Other endpoints are not limited by it.
    expect((await call(t.baseUrl, 'GET', '/api/v1/health')).status).toBe(200);
  });
});

describe('admin SPA serving', () => {
  let adminDir: string;
  beforeAll(() => {
    adminDir = mkdtempSync(join(tmpdir(), 'sc-admin-'));
    writeFileSync(join(adminDir, 'index.html'), '<!doctype html><title>admin</title><app-root></app-root>');
    mkdirSync(join(adminDir, 'assets'));
    writeFileSync(join(adminDir, 'assets', 'app.js'), 'console.log(1);');
  });
  const t = useTestApp(() => ({ env: { SERVICE_ADMIN_DIR: adminDir } }));
  afterAll(() => rmSync(adminDir, { recursive: true, force: true }));

  it('serves files, falls back to index.html for client routes, and never for /api', async () => {
    const root = await call<string>(t.baseUrl, 'GET', '/');
    expect(root.status).toBe(200);
    expect(root.body).toContain('<app-root>');
    const asset = await call<string>(t.baseUrl, 'GET', '/assets/app.js');
    expect(asset.body).toBe('console.log(1);');
    const deep = await call<string>(t.baseUrl, 'GET', '/orgs/acme/members');
    expect(deep.status).toBe(200);
    expect(deep.body).toContain('<app-root>');
    const api = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/unknown');
    expectError(api, 404, 'not_found');
  });
});
