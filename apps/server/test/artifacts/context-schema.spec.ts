import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, useTestApp } from '../support';

const FIXTURE = join(__dirname, '../../../cli/test/fixtures/sample-repo/.service/diagrams/topology.context.json');

/** GET /schemas/context.v1.json: public, cacheable, the schema the validator's reference generates. */
describe('the context file JSON Schema route', () => {
  const t = useTestApp();

  it('serves the schema without authentication, with caching headers and its own address as $id', async () => {
    const response = await call<Record<string, unknown>>(t.baseUrl, 'GET', '/schemas/context.v1.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/schema+json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('etag')).toMatch(/^"sha256-[0-9a-f]{64}"$/);
    expect(response.body['$id']).toBe(`${t.baseUrl}/schemas/context.v1.json`);

    const validate = new Ajv({ allErrors: true, strict: true }).compile(response.body);
    expect(validate(JSON.parse(readFileSync(FIXTURE, 'utf8')))).toBe(true);
    expect(validate({ nodes: { api: { type: 'servce' } } })).toBe(false);
  });

  it('answers 304 to a revalidation with the same ETag', async () => {
    const first = await call(t.baseUrl, 'GET', '/schemas/context.v1.json');
    const again = await fetch(`${t.baseUrl}/schemas/context.v1.json`, { headers: { 'If-None-Match': first.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
  });

  it('is not under the API prefix', async () => {
    expect((await call(t.baseUrl, 'GET', '/api/v1/schemas/context.v1.json')).status).toBe(404);
  });
});
