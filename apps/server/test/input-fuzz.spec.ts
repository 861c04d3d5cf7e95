import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import * as fc from 'fast-check';
import { addMember, bearer, call, createToken, listRoutes, sessionHeaders, signInAs, type RouteInfo, type SessionCredentials, useSeededApp } from './support';
import { bundle, postSync, syncFile } from './artifacts/bundles';

/**
 * Property-based fuzzing of every route Nest declares (listed from its metadata, like the isolation test, so a
 * route added later is fuzzed too) and of the sync gateway: path parameters, query strings and JSON bodies with
 * NUL characters, unpaired surrogates, nesting 10,000 levels deep, nulls, strings over every limit and values of
 * the wrong type, sent as an owner session (with CSRF) and as an API token. Bodies start from the route's request
 * schema in the OpenAPI document (valid field names and shapes) and get one or two fields replaced, so the bad
 * values reach validators, services and the database rather than stopping at the first unknown key.
 *
 * No answer may be a 5xx or a non-JSON error, and every request must be answered. Seeded (route i uses FUZZ_SEED + i,
 * printed with each failing request): FUZZ_SEED reproduces a run, FUZZ_RUNS sets the cases per route (6 by default,
 * about 300 requests). Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_124);
const RUNS_PER_ROUTE = Number(process.env['FUZZ_RUNS'] ?? 6);
const ANSWER_TIMEOUT_MS = 20_000;
const BODY_LIMIT_BYTES = 256 * 1024;

/** Serialized as JSON nested this deep (JSON.stringify itself would overflow the stack, so it is spliced in). */
const DEEP_DEPTH = 10_000;
const DEEP_MARKER = 'fuzz-deep-marker-2b9c';

/** Query names the handlers read without declaring them in OpenAPI (whole-DTO @Query(), or req.query in SSO callbacks). */
const UNDECLARED_QUERY_NAMES = ['limit', 'before', 'provider', 'outcome', 'redirect', 'code', 'state', 'error', 'error_description'];

/** Routes that end or replace the caller's session: they get a fresh session of the owner each time. */
const SESSION_CHANGING = new Set(['POST /api/v1/auth/sign-out', 'POST /api/v1/auth/switch-organization', 'POST /api/v1/orgs']);

/** Values that broke (or could break) something: each replaces a field, a whole body, or stands alone. */
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constantFrom(0, -1, 1.5, 1e308, true, false, [], {}, [null], { a: null }),
  fc.string({ maxLength: 8 }).map((text) => `${text}\u0000${text}`),
  fc.constantFrom('\u0000', '\ud800', 'a\udfffb', '\ud83d', '😀\ud800'),
  fc.constantFrom('x'.repeat(100_000), '😀'.repeat(20_000), 'x'.repeat(BODY_LIMIT_BYTES + 1)),
  fc.constant(DEEP_MARKER),
  fc.constantFrom('', ' ', '../../etc/passwd', '%00', '\r\nSet-Cookie: a=b', '<script>', 'null', '__proto__', '0x7f000001'),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Path segments as they appear in the URL (already percent-encoded where needed). */
const nastySegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('%00', 'a%00b', '%ED%A0%80', '%FF', '%F0%9F%98%80', '%C0%AF', '..', '%2e%2e', '%2F', '%25', '%20', 'null', '-1', '0', 'a.b', '%E2%80%AE'),
  fc.constant('x'.repeat(3000)),
  fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
);

const nastyQueryValue: fc.Arbitrary<string> = fc.oneof(nastySegment, fc.constantFrom('', '1', '-1', '999999999999', 'abc', '2020-01-01', '%5B%5D', 'a%26b%3Dc'));

interface FuzzCase {
  params: Record<string, string>;
  query: Array<[string, string]>;
  body?: { value: unknown; encoding: 'json' | 'gzip' | 'br-garbage' | 'not-json' };
  as: 'session' | 'token';
}

type Schema = { $ref?: string; type?: string; enum?: unknown[]; pattern?: string; format?: string; minLength?: number; maxLength?: number; minimum?: number; maximum?: number; minItems?: number; items?: Schema; properties?: Record<string, Schema>; required?: string[] };
type OpenApiDocument = {
  paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};

describe('input fuzzing: no route answers 5xx to bad input', () => {
  const { t, org: acme } = useSeededApp({ orgId: 'acme' }, { env: { SERVICE_BODY_LIMIT: `${BODY_LIMIT_BYTES}b`, SERVICE_SYNC_MAX_BYTES: '1mb', SERVICE_SYNC_MAX_FILE_BYTES: '128kb' } });
  let syncToken: string;
  /** SCIM routes take SCIM tokens only: their fuzz cases send this one. */
  let scimToken: string;
  let openApi: OpenApiDocument;
  let validParams: Record<string, string>;

  beforeAll(async () => {
    const victim = await addMember(t, acme.owner, 'acme', { email: 'victim@acme.example', role: 'viewer' });
    const victimToken = await createToken(t, acme.owner, 'acme', { name: 'victim', scopes: ['read'] });
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    const provider = await call(t.baseUrl, 'POST', '/api/v1/orgs/acme/sso/providers', {
      headers: sessionHeaders(acme.owner),
      body: { slug: 'corp', displayName: 'Corp', type: 'generic', authUrl: 'https://idp.example.com/a', tokenUrl: 'https://idp.example.com/t', userinfoUrl: 'https://idp.example.com/u', clientId: 'c', clientSecret: 's' },
    });
    expect(provider.status).toBe(201);
    const synced = await postSync(t.baseUrl, syncToken, baseBundle());
    expect(synced.status).toBe(201);
    openApi = (await call<OpenApiDocument>(t.baseUrl, 'GET', '/api/docs-json')).body;
    scimToken = (await call<{ token: string }>(t.baseUrl, 'POST', '/api/v1/orgs/acme/scim-tokens', { headers: sessionHeaders(acme.owner), body: { name: 'idp' } })).body.token;
    const scimUser = await call<{ id: string }>(t.baseUrl, 'POST', '/scim/v2/orgs/acme/Users', { headers: bearer(scimToken), body: { userName: 'scim@acme.example' } });
    expect(scimUser.status).toBe(201);
    validParams = { orgId: 'acme', organizationId: 'acme', userId: victim.userId, tokenId: victimToken.id, slug: 'corp', service: 'orders', id: scimUser.body.id };
  });

  it('answers every route and the gateway with a 2xx-4xx JSON answer, whatever the path, query and body', async () => {
    const routes = listRoutes(t.app);
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    for (const [index, route] of routes.entries()) {
      await fc.assert(
        fc.asyncProperty(caseFor(route), async (fuzzCase) => {
          const failure = await send(route, fuzzCase);
          if (failure) failures.push(`[seed ${SEED + index}] ${failure}`);
        }),
        { seed: SEED + index, numRuns: RUNS_PER_ROUTE },
      );
    }
    expect(failures).toEqual([]);
  }, 600_000);

  function caseFor(route: RouteInfo): fc.Arbitrary<FuzzCase> {
    const operation = openApi.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
    const paramNames = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
    const params = fc.record(Object.fromEntries(paramNames.map((name) => [name, fc.oneof({ weight: 3, arbitrary: fc.constant(validParam(route, name)) }, { weight: 1, arbitrary: nastySegment })])));
    const queryNames = [...new Set([...(operation?.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name), ...UNDECLARED_QUERY_NAMES])];
    const query = fc.array(fc.tuple(fc.constantFrom(...queryNames, 'x%00', 'a[b]'), nastyQueryValue), { maxLength: 3 });
    const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
    const schema = operation?.requestBody?.content?.['application/json']?.schema;
    const gateway = route.access?.kind === 'token' && !schema;
    const base = gateway ? bundleArbitrary() : schema ? arbitraryOf(schema, openApi.components.schemas) : fc.constant({});
    const edits = fc.array(fc.tuple(fc.nat(), nastyValue, fc.constantFrom<Edit[2][]>('replace', 'add', 'nul-key')), { minLength: 1, maxLength: 2 });
    const value = fc.oneof(
      { weight: 6, arbitrary: fc.tuple(base, edits).map(([valid, changes]) => mutate(valid, changes)) },
      { weight: 1, arbitrary: base },
      { weight: 1, arbitrary: nastyValue },
    );
    const body = hasBody
      ? fc.record({
          // Half the fuzzed bundles get their hashes recomputed, so a bad content is judged for itself.
          value: gateway ? fc.tuple(value, fc.boolean()).map(([bundleValue, rehash]) => (rehash ? withFreshHashes(bundleValue) : bundleValue)) : value,
          encoding: fc.constantFrom<Array<NonNullable<FuzzCase['body']>['encoding']>>('json', 'json', 'json', 'json', 'json', 'json', 'gzip', 'br-garbage', 'not-json'),
        })
      : fc.constant(undefined);
    return fc.record({ params, query, body, as: fc.constantFrom<Array<FuzzCase['as']>>('session', 'token') });
  }

  function validParam(route: RouteInfo, name: string): string {
    if (name !== 'name') return encodeURIComponent(validParams[name] ?? '00000000-0000-4000-8000-000000000000');
    const kind = /\/services\/:service\/([\w-]+)\/:name/.exec(route.path)?.[1];
    return ({ docs: 'runbook', databases: 'sessions', 'api-specs': 'public-api' } as Record<string, string>)[kind ?? ''] ?? 'topology';
  }

  async function send(route: RouteInfo, fuzzCase: FuzzCase): Promise<string | undefined> {
    const path = route.path.replace(/:(\w+)/g, (_, name: string) => fuzzCase.params[name] ?? '');
    const query = fuzzCase.query.map(([name, value]) => `${name}=${value}`).join('&');
    const url = `${t.baseUrl}${path}${query ? `?${query}` : ''}`;
    const headers: Record<string, string> = { accept: 'application/json', ...(await credentials(route, fuzzCase.as)) };
    const body = fuzzCase.body && encodeBody(fuzzCase.body, headers);
    const sent = `${route.method} ${url.slice(t.baseUrl.length).slice(0, 300)} as ${fuzzCase.as}${body ? ` with ${headers['content-encoding'] ?? 'plain'} body ${preview(fuzzCase.body?.value)}` : ''}`;
    try {
      const response = await fetchRetryingLostConnection(url, { method: route.method, headers, body, redirect: 'manual' });
      const text = await response.text();
      if (response.status >= 500) return `${sent} → ${response.status} ${text.slice(0, 300)}`;
      if (response.status >= 400 && !isErrorBody(text) && !(path.startsWith('/scim/') && isScimErrorBody(text))) return `${sent} → ${response.status} without the error body: ${text.slice(0, 200)}`;
      return undefined;
    } catch (error) {
      const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
      return `${sent} → no answer: ${(error as Error).message}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}`;
    }
  }

  async function credentials(route: RouteInfo, as: FuzzCase['as']): Promise<Record<string, string>> {
    if (route.path.startsWith('/scim/')) return bearer(scimToken);
    if (as === 'token') return bearer(route.access?.kind === 'token' ? syncToken : acme.adminToken);
    const session: SessionCredentials = SESSION_CHANGING.has(`${route.method} ${route.path}`) ? await signInAs(t, acme.owner, 'acme', acme.ownerUserId) : acme.owner;
    return sessionHeaders(session);
  }
});

/**
 * One retry when the connection was lost before any answer: when the (same-process) server's event loop stalls past
 * its keep-alive timeout, fetch may send on an idle connection the server is about to close ("other side closed").
 * A server that really drops the connection on some input drops the retry too, and the failure is reported.
 */
async function fetchRetryingLostConnection(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (!['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'].includes(code ?? '')) throw error;
    return fetch(url, { ...init, signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
  }
}

function encodeBody(body: NonNullable<FuzzCase['body']>, headers: Record<string, string>): string | Uint8Array<ArrayBuffer> {
  headers['content-type'] = 'application/json';
  if (body.encoding === 'not-json') return '{"unterminated": ';
  if (body.encoding === 'br-garbage') {
    headers['content-encoding'] = 'br';
    return 'this is not brotli';
  }
  const text = serialize(body.value);
  if (body.encoding === 'json') return text;
  headers['content-encoding'] = 'gzip';
  return new Uint8Array(gzipSync(text));
}

/** JSON text of a fuzzed value, with DEEP_MARKER strings replaced by arrays nested DEEP_DEPTH levels. */
function serialize(value: unknown): string {
  return JSON.stringify(value ?? null).replaceAll(`"${DEEP_MARKER}"`, `${'['.repeat(DEEP_DEPTH)}${']'.repeat(DEEP_DEPTH)}`);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value ?? null).replaceAll(`"${DEEP_MARKER}"`, `<nested ${DEEP_DEPTH} deep>`);
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} chars)` : text;
}

/** RFC 7644 §3.12: what the SCIM routes answer errors with. */
function isScimErrorBody(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { schemas?: unknown; status?: unknown; detail?: unknown };
    return Array.isArray(parsed.schemas) && parsed.schemas.includes('urn:ietf:params:scim:api:messages:2.0:Error') && typeof parsed.status === 'string' && typeof parsed.detail === 'string';
  } catch {
    return false;
  }
}

function isErrorBody(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    return typeof parsed.error?.code === 'string' && typeof parsed.error.message === 'string';
  } catch {
    return false;
  }
}

/**
 * Replaces (or adds next to) one value in a copy of `base`, chosen among all of its nested values by `pick`;
 * `nul-key` adds a property whose name holds a NUL.
 */
type Edit = [pick: number, nasty: unknown, how: 'replace' | 'add' | 'nul-key'];

function mutate(base: unknown, edits: Edit[]): unknown {
  const root = { value: structuredClone(base) };
  for (const [pick, nasty, how] of edits) {
    const slots: Array<[Record<string | number, unknown>, string | number]> = [];
    const collect = (container: Record<string | number, unknown>, key: string | number) => {
      slots.push([container, key]);
      const value = container[key];
      if (Array.isArray(value)) value.forEach((_, index) => collect(value as unknown as Record<number, unknown>, index));
      else if (typeof value === 'object' && value !== null) for (const child of Object.keys(value)) collect(value as Record<string, unknown>, child);
    };
    collect(root as Record<string, unknown>, 'value');
    const [container, key] = slots[pick % slots.length];
    const target = container[key];
    if (how !== 'replace' && typeof target === 'object' && target !== null && !Array.isArray(target)) {
      (target as Record<string, unknown>)[how === 'add' ? 'extra' : 'bad\u0000key'] = nasty;
    } else {
      container[key] = nasty;
    }
  }
  return root.value;
}

/** A value of the request schema's shape (field names, enums, patterns, lengths) as the OpenAPI document states it. */
function arbitraryOf(schema: Schema, components: Record<string, Schema>): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitraryOf(components[schema.$ref.split('/').pop() ?? ''] ?? {}, components);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string':
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'date-time') return fc.date({ min: new Date(Date.now() + 86_400_000), max: new Date('2100-01-01'), noInvalidDate: true }).map((date) => date.toISOString());
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 30) });
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ noNaN: true });
    case 'array':
      return fc.array(arbitraryOf(schema.items ?? {}, components), { minLength: schema.minItems ?? 0, maxLength: 3 });
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      if (properties.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      return fc.record(Object.fromEntries(properties.map(([name, property]) => [name, arbitraryOf(property, components)])), { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The gateway has no body schema (it reads the bundle itself): bundles like the seeded one with fuzzed text. */
function bundleArbitrary(): fc.Arbitrary<unknown> {
  return fc
    .record({ description: fc.string({ maxLength: 40 }), doc: fc.string({ maxLength: 200, unit: 'binary' }), schema: fc.jsonValue({ maxDepth: 3 }) })
    .map(({ description, doc, schema }) => ({ ...baseBundle(doc, JSON.stringify({ TableName: 'Sessions', schema })), service: { name: 'orders', description } }));
}

function baseBundle(doc = '# Runbook\n', schema = '{"TableName":"Sessions"}') {
  return bundle(
    [
      { kind: 'doc', name: 'runbook', file: syncFile('docs/runbook.md', doc) },
      { kind: 'database-schema', name: 'sessions', engine: 'dynamodb', file: syncFile('schemas/sessions.json', schema) },
      { kind: 'api-spec', name: 'public-api', format: 'openapi', file: syncFile('api/openapi.yaml', 'openapi: 3.1.0\n') },
      { kind: 'service-summary', name: 'summary', file: syncFile('summary.md', '# Orders\n') },
    ],
    'orders',
  );
}

/** Recomputes each file's SHA-256 after fuzzing, so a bad content is judged for itself and not as a hash mismatch. */
function withFreshHashes<T>(value: T): T {
  const isObject = (candidate: unknown): candidate is Record<string, unknown> => typeof candidate === 'object' && candidate !== null;
  const artifacts = isObject(value) ? value['artifacts'] : undefined;
  for (const artifact of Array.isArray(artifacts) ? artifacts : []) {
    for (const file of isObject(artifact) ? [artifact['file'], artifact['context'], artifact['notes']] : []) {
      if (isObject(file) && typeof file['content'] === 'string') file['sha256'] = createHash('sha256').update(file['content'], 'utf8').digest('hex');
    }
  }
  return value;
}
