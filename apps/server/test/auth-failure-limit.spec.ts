import { request } from 'node:http';
import { SESSION_COOKIE, type ErrorBody } from '@sc/contracts';
import { bearer, call, useSeededApp } from './support';

const LIMIT = 5;
const WINDOW_MS = 3_000;

/** GET /api/v1/me with a bad bearer token from another loopback address (Linux routes all of 127/8 to lo). */
function failFrom(baseUrl: string, localAddress: string): Promise<number> {
  const url = new URL('/api/v1/me', baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', localAddress, headers: bearer('sct_not-a-real-token') }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('failed authentication is rate-limited per client address', () => {
  const { t, org } = useSeededApp({ orgId: 'acme' }, { env: { SERVICE_AUTH_FAILURE_LIMIT: String(LIMIT), SERVICE_AUTH_FAILURE_WINDOW: `${WINDOW_MS}ms` } });

  it('answers 429 rate_limited with Retry-After after SERVICE_AUTH_FAILURE_LIMIT failures, for tokens and cookies alike, without limiting valid credentials', async () => {
    // Requests without credentials are not guesses: they never count.
    for (let i = 0; i < LIMIT + 2; i++) expect((await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/me')).body.error.code).toBe('authentication_required');

    for (let i = 0; i < LIMIT; i++) {
      const failed = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/me', { headers: bearer(`sct_guess-${i}`) });
      expect([failed.status, failed.body.error.code]).toEqual([401, 'token_invalid']);
    }
    const limited = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/me', { headers: bearer('sct_one-more-guess') });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(limited.body.error.message).toMatch(/^Too many failed authentication attempts from your address; try again in \d+ seconds?\.$/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(WINDOW_MS / 1000);

    // A guessed session cookie is refused the same way, and a forged X-Forwarded-For does not escape the limit
    // (SERVICE_TRUST_PROXY is off).
    const cookie = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/me', { headers: { cookie: `${SESSION_COOKIE}=guessed-session`, 'x-forwarded-for': '203.0.113.9' } });
    expect([cookie.status, cookie.body.error.code]).toEqual([429, 'rate_limited']);

    // Valid credentials from the same address keep working: only failures are limited.
    expect((await call(t.baseUrl, 'GET', '/api/v1/me', { headers: bearer(org.adminToken) })).status).toBe(200);
    // Another address is not affected.
    expect(await failFrom(t.baseUrl, '127.0.0.2')).toBe(401);

    // After the window the address may fail again.
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 300));
    const again = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/me', { headers: bearer('sct_after-the-window') });
    expect([again.status, again.body.error.code]).toEqual([401, 'token_invalid']);
  });
});
