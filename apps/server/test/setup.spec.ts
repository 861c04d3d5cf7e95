import { Logger } from '@nestjs/common';
import { CSRF_COOKIE, SESSION_COOKIE, type ErrorBody } from '@sc/contracts';
import { TEST_SETUP_TOKEN, bearer, call, createTestApp, expectError, sessionFrom, sessionHeaders, useTestApp } from './support';

const setupBody = (token: string, orgId = 'acme') => ({ token, organization: { id: orgId, name: 'Acme' }, owner: { email: 'Founder@Acme.Example', name: 'Fran Founder' } });

describe('first-run setup', () => {
  const t = useTestApp();

  it('reports that setup is required while no organization exists', async () => {
    expect((await call(t.baseUrl, 'GET', '/api/v1/setup')).body).toEqual({ required: true });
  });

  it('refuses a wrong token with 403 setup_token_invalid', async () => {
    const response = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/setup', { body: setupBody('wrong-token-wrong-token') });
    expectError(response, 403, 'setup_token_invalid');
  });

  it('validates the body field by field', async () => {
    const response = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/setup', {
      body: { token: TEST_SETUP_TOKEN, organization: { id: 'Not Valid!', name: '' }, owner: { email: 'nope' } },
    });
    expectError(response, 400, 'validation_failed');
    expect(response.body.error.details.map((detail) => detail.path).sort()).toEqual(['organization.id', 'organization.name', 'owner.email']);
  });

  it('creates the organization and owner, starts a session and returns a one-time admin token', async () => {
    const response = await call<{ organization: { id: string }; user: { email: string; displayName: string }; apiToken: { token: string; apiToken: { scopes: string[] } } }>(
      t.baseUrl,
      'POST',
      '/api/v1/setup',
      { body: setupBody(TEST_SETUP_TOKEN) },
    );
    expect(response.status).toBe(201);
    expect(response.body.organization.id).toBe('acme');
    expect(response.body.user).toMatchObject({ email: 'founder@acme.example', displayName: 'Fran Founder' });
    expect(response.body.apiToken.apiToken.scopes).toEqual(['admin']);
    const sessionCookie = response.setCookie.find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`)) ?? '';
    expect(sessionCookie).toMatch(/; HttpOnly/i);
    expect(sessionCookie).toMatch(/; SameSite=Lax/i);
    expect(sessionCookie).toMatch(/; Path=\//i);
    expect(sessionCookie).not.toMatch(/; Secure/i); // http public URL
    const csrfCookie = response.setCookie.find((cookie) => cookie.startsWith(`${CSRF_COOKIE}=`)) ?? '';
    expect(csrfCookie).not.toMatch(/HttpOnly/i);

    const session = sessionFrom(response.setCookie);
    const me = await call<{ role: string; organization: { id: string } }>(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(session) });
    expect(me.body).toMatchObject({ role: 'owner', organization: { id: 'acme' } });
    const viaToken = await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(response.body.apiToken.token) });
    expect(viaToken.status).toBe(200);
  });

  it('answers 409 setup_already_done once an organization exists, even with the right token', async () => {
    const response = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/setup', { body: setupBody(TEST_SETUP_TOKEN, 'second') });
    expectError(response, 409, 'setup_already_done');
    expect((await call(t.baseUrl, 'GET', '/api/v1/setup')).body).toEqual({ required: false });
  });
});

describe('first-run setup race', () => {
  it('lets exactly one of several concurrent setups win', async () => {
    // Its own app: the block above has already set up an organization.
    const t = await createTestApp();
    try {
      const responses = await Promise.all(['one', 'two', 'three', 'four', 'five'].map((id) => call(t.baseUrl, 'POST', '/api/v1/setup', { body: setupBody(TEST_SETUP_TOKEN, `race-${id}`) })));
      expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409]);
      const organizations = await t.dataSource.query('SELECT id FROM organizations');
      expect(organizations).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe('generated setup token', () => {
  const logged: string[] = [];
  beforeAll(() => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(function (message: unknown) {
      logged.push(String(message));
    });
  });
  const t = useTestApp({ env: { SERVICE_SETUP_TOKEN: '' } });
  afterAll(() => jest.restoreAllMocks());

  it('prints the setup URL once at boot and refuses the token after one hour', async () => {
    const lines = logged.filter((line) => line.includes('/setup?token='));
    expect(lines).toHaveLength(1);
    const url = new URL(/(http\S+)/.exec(lines[0])?.[1] ?? '');
    expect(url.origin).toBe(t.config.publicUrl);
    const token = url.searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThanOrEqual(32);

    t.clock.advance(60 * 60 * 1000 + 1000);
    const expired = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/setup', { body: setupBody(token) });
    expectError(expired, 403, 'setup_token_invalid');
  });
});

describe('setup token from SERVICE_SETUP_TOKEN', () => {
  const lines: string[] = [];
  const t = useTestApp({ env: { SERVICE_LOG_LEVEL: 'info' }, logLines: lines });

  it('is never logged: the start-up line says setup is waiting and that the configured token applies', async () => {
    const waiting = lines.filter((line) => line.includes('First run'));
    expect(waiting).toHaveLength(1);
    expect(JSON.parse(waiting[0] ?? '{}').msg).toBe(`First run: waiting for setup. Open ${t.config.publicUrl}/setup and enter the token configured in SERVICE_SETUP_TOKEN to create the first organization.`);
    expect((await call(t.baseUrl, 'POST', '/api/v1/setup', { body: setupBody(TEST_SETUP_TOKEN) })).status).toBe(201);
    expect(lines.join('')).not.toContain(TEST_SETUP_TOKEN);
  });
});
