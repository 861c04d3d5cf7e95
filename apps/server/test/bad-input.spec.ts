import type { ErrorBody } from '@sc/contracts';
import { brotliCompressSync } from 'node:zlib';
import { bearer, call, createToken, expectError, memberWithSession, sessionHeaders, useSeededApp } from './support';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts, syncFile, TOPOLOGY } from './artifacts/bundles';

/** JSON text nested `depth` levels deep: [[[…]]]. */
function nestedArrays(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

function genericProvider(slug: string) {
  const idp = 'https://idp.example.com';
  return { slug, displayName: 'Corp', type: 'generic', authUrl: `${idp}/authorize`, tokenUrl: `${idp}/token`, userinfoUrl: `${idp}/userinfo`, clientId: 'client', clientSecret: 'secret' };
}

/**
 * Bad input answers a 4xx with a code, a sentence and where, never a 500 (issue 9 §4). Every case here answered
 * 500 (or lost the body) before; they run on PGlite and, with TEST_DATABASE_URL, on PostgreSQL, whose text
 * columns cannot hold a NUL character at all.
 */
describe('bad input gets a 4xx, never a 500', () => {
  const { t, org: acme } = useSeededApp({ orgId: 'acme' }, { env: COLD_WORKER_TIMEOUT });
  let syncToken: string;

  beforeAll(async () => {
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
  });

  const post = (path: string, body: unknown, headers = sessionHeaders(acme.owner)) => call<ErrorBody>(t.baseUrl, 'POST', path, { headers, body });
  const patch = (path: string, body: unknown) => call<ErrorBody>(t.baseUrl, 'PATCH', path, { headers: sessionHeaders(acme.owner), body });

  describe('NUL characters', () => {
    it('refuses a NUL in a JSON body string with validation_failed naming the field', async () => {
      const response = await post('/api/v1/orgs/acme/tokens', { name: 'ci\u0000token', scopes: ['read'] });
      expectError(response, 400, 'validation_failed');
      expect(response.body.error.details).toEqual([expect.objectContaining({ path: 'name', message: expect.stringContaining('NUL') })]);
    });

    it('refuses a NUL in a property name and in a query parameter', async () => {
      const key = await post('/api/v1/orgs/acme/members', { email: 'a@acme.example', role: 'viewer', ['x\u0000']: 1 });
      expectError(key, 400, 'validation_failed');
      const query = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/acme/sso/audit?cursor=a%00b', { headers: sessionHeaders(acme.owner) });
      expect(query.status).toBe(400);
      expect(query.body.error).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ path: 'cursor' })] });
    });

    it('refuses a NUL in a URL path parameter', async () => {
      const response = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/auth/orgs/%00/providers');
      expectError(response, 400, 'validation_failed');
      expect(response.body.error.message).toContain('NUL');
    });

    it('refuses a NUL in a synced file by its name, line and column', async () => {
      const artifacts = sampleArtifacts().map((artifact) =>
        artifact.name === 'runbook' ? { ...artifact, file: syncFile(artifact.file.path, '# Runbook\nstep one\u0000\n') } : artifact,
      );
      const response = await postSync<ErrorBody>(t.baseUrl, syncToken, bundle(artifacts));
      expectError(response, 422, 'sync_validation_failed');
      expect(response.body.error.details).toEqual([expect.objectContaining({ code: 'unstorable_character', file: 'docs/runbook.md', line: 2, column: 9 })]);
    });


    it.each([
      ['$.service.name', (b: ReturnType<typeof bundle>) => ({ ...b, service: { ...b.service, name: 'or\u0000ders' } })],
      ['$.artifacts[0].name', (b: ReturnType<typeof bundle>) => ({ ...b, artifacts: [{ ...b.artifacts[0], name: 'topo\u0000logy' }] })],
      ['$.artifacts[0].file.path', (b: ReturnType<typeof bundle>) => ({ ...b, artifacts: [{ ...b.artifacts[0], file: syncFile('d/topo\u0000logy.mmd', TOPOLOGY) }] })],
      ['$.service.description', (b: ReturnType<typeof bundle>) => ({ ...b, service: { ...b.service, description: 'Takes\u0000orders' } })],
      ['$.service.repositoryUrl', (b: ReturnType<typeof bundle>) => ({ ...b, service: { ...b.service, repositoryUrl: 'https://git.example/\ud800' } })],
    ])('refuses an unstorable character at %s with 400 invalid_bundle naming the JSON path, before any query', async (path, mutate) => {
      const response = await postSync<ErrorBody>(t.baseUrl, syncToken, mutate(bundle(sampleArtifacts().slice(0, 1), 'nul-names')));
      expectError(response, 400, 'invalid_bundle');
      expect(response.body.error.details).toEqual([expect.objectContaining({ path, message: expect.stringMatching(/NUL|surrogate/) })]);
    });

    it('refuses \\u0000 in a context file with the file, line and JSON path', async () => {
      const context = '{\n  "name": "topo\\u0000logy"\n}\n';
      const artifacts = [{ kind: 'architecture-diagram' as const, name: 'topology', file: syncFile('d/topology.mmd', TOPOLOGY), context: syncFile('d/topology.context.json', context) }];
      const response = await postSync<ErrorBody>(t.baseUrl, syncToken, bundle(artifacts, 'ctx-nul'));
      expect(response.status).toBe(422);
      expect(response.body.error.details).toEqual([expect.objectContaining({ file: 'd/topology.context.json', line: 2, path: '$.name' })]);
    });

    it('refuses \\u0000 in a JSON database schema with the file and line', async () => {
      const schema = '{\n  "TableName": "Ses\\u0000sions"\n}\n';
      const artifacts = [{ kind: 'database-schema' as const, name: 'sessions', engine: 'dynamodb' as const, file: syncFile('s/sessions.json', schema) }];
      const response = await postSync<ErrorBody>(t.baseUrl, syncToken, bundle(artifacts, 'schema-nul'));
      expect(response.status).toBe(422);
      expect(response.body.error.details).toEqual([expect.objectContaining({ file: 's/sessions.json', line: 2 })]);
    });
  });

  describe('deep nesting', () => {
    const deep = nestedArrays(10_000);

    it.each([
      ['/api/v1/setup', `{"token":${deep}}`],
      ['/api/v1/auth/sign-in-link/preview', `{"token":${deep}}`],
      ['/api/v1/auth/sign-in-link/redeem', `{"token":${deep}}`],
      ['/api/v1/orgs/acme/tokens', `{"name":${deep},"scopes":["read"]}`],
    ])('answers 400 json_too_deep on %s', async (path, body) => {
      const response = await post(path, body);
      expectError(response, 400, 'json_too_deep');
      expect(response.body.error.message).toMatch(/more than 64 levels deep/);
    });

    it('answers 400 json_too_deep on the gateway sync and its check', async () => {
      const check = await post('/api/v1/gateway/sync/check', `{"service":${deep},"digest":"x"}`, bearer(syncToken));
      expectError(check, 400, 'json_too_deep');
      const sync = await postSync<ErrorBody>(t.baseUrl, syncToken, undefined, { gzip: false, raw: Buffer.from(`{"version":1,"service":{"name":"x"},"artifacts":${deep}}`) });
      expectError(sync, 400, 'json_too_deep');
    });

    it('refuses a deeply nested context file with the file, line and JSON path', async () => {
      const context = `{\n  "nodes": ${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}\n}`;
      const artifacts = [{ kind: 'architecture-diagram' as const, name: 'topology', file: syncFile('d/topology.mmd', TOPOLOGY), context: syncFile('d/topology.context.json', context) }];
      const response = await postSync<ErrorBody>(t.baseUrl, syncToken, bundle(artifacts, 'ctx-deep'));
      expect(response.status).toBe(422);
      expect(response.body.error.details).toEqual([
        expect.objectContaining({ file: 'd/topology.context.json', line: 2, path: expect.stringMatching(/^\$\.nodes\.a\.a/), message: expect.stringContaining('nested') }),
      ]);
    });

    it('refuses a deeply nested JSON database schema with the file and line', async () => {
      const schema = `{"TableName":"Sessions",\n"x":${nestedArrays(5_000)}}`;
      const artifacts = [{ kind: 'database-schema' as const, name: 'sessions', engine: 'dynamodb' as const, file: syncFile('s/sessions.json', schema) }];
      const response = await postSync<ErrorBody>(t.baseUrl, syncToken, bundle(artifacts, 'schema-deep'));
      expect(response.status).toBe(422);
      expect(response.body.error.details).toEqual([expect.objectContaining({ file: 's/sessions.json', line: 2, message: expect.stringContaining('nested') })]);
    });
  });

  describe('null where a value is required', () => {
    it.each([{ role: null }, { disabled: null }])('answers 400 validation_failed for PATCH member %j', async (body) => {
      const member = await memberWithSession(t, acme, 'viewer');
      const response = await patch(`/api/v1/orgs/acme/members/${member.userId}`, body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ path: Object.keys(body)[0] })] });
    });

    it.each([{ displayName: null }, { enabled: null }, { scopes: null }, { claimRules: null }, { allowSignUp: null }])('answers 400 validation_failed for PATCH provider %j', async (body) => {
      const created = await post('/api/v1/orgs/acme/sso/providers', genericProvider(`p${Math.random().toString(36).slice(2, 8)}`));
      expect(created.status).toBe(201);
      const response = await patch(`/api/v1/orgs/acme/sso/providers/${(created.body as unknown as { slug: string }).slug}`, body);
      expectError(response, 400, 'validation_failed');
      expect(new Set(response.body.error.details.map((detail) => detail.path))).toEqual(new Set(Object.keys(body)));
    });
  });

  describe('lone surrogates, encodings and odd paths', () => {
    it('refuses a lone surrogate in an email and in a claim rule', async () => {
      const email = await post('/api/v1/orgs/acme/members', { email: 'a\ud800@acme.example', role: 'viewer' });
      expect(email.status).toBe(400);
      expect(email.body.error).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ path: 'email', message: expect.stringContaining('surrogate') })] });
      const rule = await post('/api/v1/orgs/acme/sso/providers', { ...genericProvider('rules'), claimRules: [{ claim: 'groups', operator: 'regex', value: '^a\udc00', role: 'admin' }] });
      expect(rule.status).toBe(400);
      expect(rule.body.error).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ path: 'claimRules[0].value' })] });
    });

    it('answers 400 for a Content-Encoding: br body that is not brotli, on the API and on the gateway', async () => {
      const garbage = Buffer.from('definitely not brotli');
      const api = await fetch(`${t.baseUrl}/api/v1/orgs/acme/tokens`, { method: 'POST', headers: { ...sessionHeaders(acme.owner), 'content-type': 'application/json', 'content-encoding': 'br' }, body: garbage });
      expect(api.status).toBe(400);
      expect(((await api.json()) as ErrorBody).error.code).toBe('bad_request');
      const gateway = await postSync<ErrorBody>(t.baseUrl, syncToken, undefined, { gzip: false, raw: garbage, headers: { 'content-encoding': 'br' } });
      expectError(gateway, 400, 'invalid_bundle');
      const valid = await postSync<ErrorBody>(t.baseUrl, syncToken, undefined, { gzip: false, raw: brotliCompressSync(Buffer.from(JSON.stringify(bundle(sampleArtifacts(), 'brotli')))), headers: { 'content-encoding': 'br' } });
      expect(valid.status).toBe(201);
    });

    it('answers 404 for an SSO callback whose slug is not a slug', async () => {
      const response = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/auth/orgs/acme/callback/%F0%9F%98%80?code=x&state=y', { headers: { accept: 'application/json' } });
      expectError(response, 404, 'provider_not_found');
    });
  });

  describe('the gateway path as Express routes it', () => {
    it.each(['/api/v1/gateway/sync/', '/API/v1/gateway/sync', '/api/v1/Gateway/Sync/'])('keeps the body on POST %s', async (path) => {
      const response = await fetch(`${t.baseUrl}${path}`, { method: 'POST', headers: { ...bearer(syncToken), 'content-type': 'application/json' }, body: JSON.stringify(bundle(sampleArtifacts(), 'paths')) });
      expect([200, 201]).toContain(response.status);
    });
  });

  describe('the service description', () => {
    it('refuses a description over the limit in a sync, naming the field', async () => {
      const response = await postSync<ErrorBody>(t.baseUrl, syncToken, { ...bundle([], 'long'), service: { name: 'long', description: 'x'.repeat(5 * 1024 * 1024) } });
      expect(response.status).toBe(422);
      expect(response.body.error.details).toEqual([expect.objectContaining({ code: 'text_too_long', path: '$.service.description', message: expect.stringContaining('at most 2000') })]);
    });
  });
});
