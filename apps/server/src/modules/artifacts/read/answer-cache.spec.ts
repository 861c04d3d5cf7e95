import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { AnswerCache, serialize } from './answer-cache';

describe('AnswerCache', () => {
  it('builds an answer once per key and serves the same bytes and ETag after', async () => {
    const cache = new AnswerCache(1024 * 1024);
    let builds = 0;
    const build = async () => ({ n: ++builds });
    const first = await cache.answer('v1@1', build);
    const second = await cache.answer('v1@1', build);
    expect(builds).toBe(1);
    expect(second).toBe(first);
    expect(first).toEqual(serialize({ n: 1 }));
    expect((await cache.answer('v1@2', build)).body).toBe('{"n":2}');
  });

  it('stays within its size: the least recently used answer goes first', async () => {
    const cache = new AnswerCache(600);
    const builds: string[] = [];
    const build = (key: string) => async () => (builds.push(key), { key, padding: 'x'.repeat(120) });
    await cache.answer('a', build('a'));
    await cache.answer('b', build('b'));
    await cache.answer('c', build('c'));
    await cache.answer('a', build('a'));
    expect(builds).toEqual(['a', 'b', 'c', 'a']);
  });

  it('compresses an answer once per content and coding, keeps the bytes in the same budget, and not at all when off', async () => {
    const cache = new AnswerCache(64 * 1024);
    const answer = await cache.answer('v1@1', async () => ({ text: 'context '.repeat(500) }));
    const br = await cache.compressed(answer, 'br');
    const gzip = await cache.compressed(answer, 'gzip');
    expect(brotliDecompressSync(br ?? Buffer.alloc(0)).toString()).toBe(answer.body);
    expect(gunzipSync(gzip ?? Buffer.alloc(0)).toString()).toBe(answer.body);
    expect(await cache.compressed(answer, 'br')).toBe(br);
    // The same content read in another revision's answer shares the bytes: the key is the content (ETag).
    expect(await cache.compressed({ ...answer }, 'gzip')).toBe(gzip);

    const small = new AnswerCache(600);
    const big = serialize({ padding: 'x'.repeat(100) });
    const first = await small.compressed(big, 'gzip');
    for (let i = 0; i < 10; i++) await small.answer(`filler${i}`, async () => ({ i, padding: 'y'.repeat(100) }));
    expect(await small.compressed(big, 'gzip')).not.toBe(first);

    expect(await AnswerCache.fromEnv({ SERVICE_READ_CACHE_SIZE: '0' }).compressed(answer, 'br')).toBeNull();
  });

  it('SERVICE_READ_CACHE_SIZE=0 turns it off; a bad size stops the boot naming the variable', async () => {
    const off = AnswerCache.fromEnv({ SERVICE_READ_CACHE_SIZE: '0' });
    let builds = 0;
    await off.answer('k', async () => ++builds);
    await off.answer('k', async () => ++builds);
    expect(builds).toBe(2);
    expect(() => AnswerCache.fromEnv({ SERVICE_READ_CACHE_SIZE: 'lots' })).toThrow(/SERVICE_READ_CACHE_SIZE/);
  });

  it('ETags are strong and follow the bytes', () => {
    expect(serialize({ a: 1 }).etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(serialize({ a: 1 }).etag).toBe(serialize({ a: 1 }).etag);
    expect(serialize({ a: 2 }).etag).not.toBe(serialize({ a: 1 }).etag);
  });
});
