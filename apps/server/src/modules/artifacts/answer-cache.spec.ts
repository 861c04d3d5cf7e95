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
