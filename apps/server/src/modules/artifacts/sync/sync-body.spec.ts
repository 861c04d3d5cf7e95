// @sc/contracts carries class-transformer decorators, which need the metadata polyfill the server's main.ts loads.
import 'reflect-metadata';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { DomainError } from '../../../common/errors/domain-error';
import { readJsonBody } from './sync-body';

function request(body: Buffer, headers: Record<string, string>, chunkSize = 64 * 1024): IncomingMessage {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += chunkSize) chunks.push(body.subarray(offset, offset + chunkSize));
  return Object.assign(Readable.from(chunks), { headers: { 'content-type': 'application/json', ...headers } }) as unknown as IncomingMessage;
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

const bundle = { version: 1, service: { name: 'svc' }, artifacts: [] };
const json = Buffer.from(JSON.stringify(bundle));

describe('readJsonBody', () => {
  it.each([
    ['identity', (data: Buffer) => data],
    ['gzip', (data: Buffer) => gzipSync(data)],
    ['br', (data: Buffer) => brotliCompressSync(data)],
  ])('parses a %s body', async (encoding, encode) => {
    await expect(readJsonBody(request(encode(json), { 'content-encoding': encoding }), 1024)).resolves.toEqual(bundle);
  });

  it('stops a gzip bomb once the inflated bytes pass the limit, naming the limit', async () => {
    // 64 MiB of zeros as 16 gzip members of 4 MiB each (gzip allows several members one after another; 64 KiB in
    // all): compressing 64 MiB at once took seconds of CPU and timed the test out on a loaded machine. Only ~1 MiB
    // may ever be inflated.
    const bomb = Buffer.concat(Array.from({ length: 16 }, () => gzipSync(Buffer.alloc(4 * 1024 * 1024))));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    const error = await failure(readJsonBody(request(bomb, { 'content-encoding': 'gzip' }), 1024 * 1024));
    expect(error.status).toBe(413);
    expect(error.code).toBe('sync_too_large');
    expect(error.message).toContain('SERVICE_SYNC_MAX_BYTES');
    expect(error.message).toContain('once decompressed');
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
  });

  it('refuses a plain body over the limit, from the declared length or while reading', async () => {
    const big = Buffer.from(JSON.stringify({ padding: 'x'.repeat(4096) }));
    expect((await failure(readJsonBody(request(big, { 'content-length': String(big.length) }), 1024))).status).toBe(413);
    expect((await failure(readJsonBody(request(big, {}), 1024))).code).toBe('sync_too_large');
  });

  it('answers 415 for another media type or an unknown encoding, and 400 for broken gzip or JSON', async () => {
    expect((await failure(readJsonBody(request(json, { 'content-type': 'text/plain' }), 1024))).status).toBe(415);
    expect((await failure(readJsonBody(request(json, { 'content-encoding': 'zstd' }), 1024))).code).toBe('unsupported_content_encoding');
    const broken = await failure(readJsonBody(request(Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' }), 1024));
    expect([broken.status, broken.code]).toEqual([400, 'invalid_bundle']);
    const brokenBrotli = await failure(readJsonBody(request(Buffer.from('definitely not brotli'), { 'content-encoding': 'br' }), 1024));
    expect([brokenBrotli.status, brokenBrotli.code, brokenBrotli.message]).toEqual([400, 'invalid_bundle', expect.stringMatching(/^The br body could not be decompressed/)]);
    const notJson = await failure(readJsonBody(request(Buffer.from('{"version":1,'), {}), 1024));
    expect(notJson.message).toMatch(/^The body is not valid JSON/);
  });

  it('answers 400 json_too_deep for a bundle nested deeper than MAX_JSON_DEPTH', async () => {
    const deep = Buffer.from(`{"version":1,"artifacts":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    const error = await failure(readJsonBody(request(deep, {}), 1024 * 1024));
    expect([error.status, error.code]).toEqual([400, 'json_too_deep']);
    expect(error.details[0].path).toMatch(/^artifacts\[0\]\[0\]/);
  });
});
