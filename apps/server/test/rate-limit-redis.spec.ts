import type { ErrorBody } from '@sc/contracts';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { bearer, call, createTestApp, type TestApp, useTestApp } from './support';

/** The machine's Redis; each run counts under its own key prefix and deletes its keys afterwards. */
const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

const redeem = (t: TestApp) => call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/auth/sign-in-link/redeem', { body: { token: 'no-such-sign-in-link-token' } });

describe('rate limits shared through Redis (REDIS_URL)', () => {
  const prefix = `sc-test-${randomBytes(6).toString('hex')}:`;
  const redis = new Redis(REDIS_URL);
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix, SERVICE_AUTH_RATE_LIMIT: '3', SERVICE_AUTH_RATE_WINDOW: '1m', SERVICE_AUTH_FAILURE_LIMIT: '2' };
    [a, b] = await Promise.all([createTestApp({ env }), createTestApp({ env })]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  const keysOf = () => redis.keys(`${prefix}*`);

  it('counts attempts on two instances together', async () => {
    expect((await redeem(a)).status).not.toBe(429);
    expect((await redeem(b)).status).not.toBe(429);
    expect((await redeem(a)).status).not.toBe(429);
    const fourth = await redeem(b);
    expect(fourth.status).toBe(429);
    expect(fourth.body.error.code).toBe('rate_limited');
    expect((await keysOf()).some((key) => key.endsWith(':auth}:hits'))).toBe(true);
    // Ready names Redis among the checks that passed.
    expect((await call(a.baseUrl, 'GET', '/api/v1/health/ready')).body).toMatchObject({ checks: { redis: 'ok' } });
  });

  it('counts failed authentications (guessed tokens) in Redis too', async () => {
    const guess = () => call<ErrorBody>(b.baseUrl, 'GET', '/api/v1/me', { headers: bearer('sc_guessed_token_0123456789abcdef') });
    expect((await guess()).status).toBe(401);
    expect((await keysOf()).some((key) => key.includes('auth-failure'))).toBe(true);
    const answers = [(await call(a.baseUrl, 'GET', '/api/v1/me', { headers: bearer('sc_guessed_token_0123456789abcdef') })).status, (await guess()).status];
    expect(answers).toContain(429);
  });
});

describe('a Redis outage', () => {
  let closed: Server;

  beforeAll(async () => {
    // A port that was just free and is held by a server that resets every connection: Redis "down".
    closed = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  });
  const t = useTestApp(() => ({ env: { REDIS_URL: `redis://127.0.0.1:${(closed.address() as AddressInfo).port}` } }));
  afterAll(() => new Promise((resolve) => closed.close(resolve)));

  it('answers the rate-limited endpoints with 503 rate_limit_unavailable, at once', async () => {
    const started = Date.now();
    const answer = await redeem(t);
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('rate_limit_unavailable');
    expect(answer.body.error.message).toMatch(/Redis/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('keeps the rest of the API up and reports itself not ready', async () => {
    expect((await call(t.baseUrl, 'GET', '/api/v1/health/live')).status).toBe(200);
    expect((await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/me')).body.error.code).toBe('authentication_required');
    const ready = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.error.details.map((detail) => detail.code)).toEqual(['redis']);
  });
});
