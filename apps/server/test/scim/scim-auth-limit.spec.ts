import type { ErrorBody } from '@sc/contracts';
import { bearer, call, sessionHeaders, useSeededApp } from '../support';
import { createScimToken, expectScimError, scim, type ScimErrorBody } from './scim-support';

const LIMIT = 4;

/**
 * Guessed SCIM tokens count in the same failed-guess limiter as API tokens and session cookies (per client address),
 * and the 429 is a SCIM error body.
 */
describe('SCIM token guesses are rate-limited like API token guesses', () => {
  const { t, org } = useSeededApp({ orgId: 'acme' }, { env: { SERVICE_AUTH_FAILURE_LIMIT: String(LIMIT), SERVICE_AUTH_FAILURE_WINDOW: '10m' } });
  const base = '/scim/v2/orgs/acme';

  it('answers 429 with Retry-After as a SCIM error after the limit, shares the counter with the API, and never limits a valid token', async () => {
    const token = (await createScimToken(t, org)).token;
    const revoked = await createScimToken(t, org, 'Old');
    await call(t.baseUrl, 'DELETE', `/api/v1/orgs/acme/scim-tokens/${revoked.scimToken.id}`, { headers: sessionHeaders(org.owner) });

    // Requests without a token and revoked tokens come from real clients: they never count.
    for (let i = 0; i < LIMIT + 1; i++) expectScimError(await call(t.baseUrl, 'GET', `${base}/Users`), 401);
    for (let i = 0; i < LIMIT + 1; i++) expectScimError(await scim(t, revoked.token, 'GET', `${base}/Users`), 401);

    for (let i = 0; i < LIMIT - 1; i++) expectScimError(await scim(t, `scim_guess00${i}_${'a'.repeat(43)}`, 'GET', `${base}/Users`), 401);
    // One API token guess from the same address fills the shared counter.
    expect((await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/me', { headers: bearer('sct_a-guess') })).body.error.code).toBe('token_invalid');

    const limited = await scim<ScimErrorBody>(t, `scim_abcdefgh_${'b'.repeat(43)}`, 'GET', `${base}/Users`);
    expectScimError(limited, 429);
    expect(limited.body.detail).toMatch(/^Too many failed authentication attempts from your address; try again in \d+ seconds?\.$/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The API answers the next guess from this address with its own 429 too.
    expect((await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/me', { headers: bearer('sct_another-guess') })).status).toBe(429);

    // The valid SCIM token keeps working.
    expect((await scim(t, token, 'GET', `${base}/Users`)).status).toBe(200);
  });
});
