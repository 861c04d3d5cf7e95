import { TEST_SETUP_TOKEN, bearer, call, useTestApp, createToken, sessionFrom, sessionHeaders } from './support';

describe('logs', () => {
  const lines: string[] = [];
  const t = useTestApp({ env: { SERVICE_LOG_LEVEL: 'debug', SERVICE_SETUP_TOKEN: '' }, logLines: lines });

  it('are structured JSON and never contain session cookies, CSRF values, API tokens or sign-in link tokens', async () => {
    const setupLine = lines.find((line) => line.includes('/setup?token='));
    const setupToken = /token=([\w-]+)/.exec(setupLine ?? '')?.[1] ?? '';
    expect(setupToken.length).toBeGreaterThan(16);
    const setup = await call<{ apiToken: { token: string } }>(t.baseUrl, 'POST', '/api/v1/setup', {
      body: { token: setupToken, organization: { id: 'acme', name: 'Acme' }, owner: { email: 'owner@acme.example' } },
    });
    expect(setup.status).toBe(201);
    const owner = sessionFrom(setup.setCookie);
    const token = await createToken(t, owner, 'acme', { scopes: ['read'] });
    await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(token.token) });
    await call(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: { authorization: 'Bearer sct_wrongone_' + 'x'.repeat(43) } });
    const me = await call<{ user: { id: string } }>(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(owner) });
    const link = await call<{ url: string }>(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${me.body.user.id}/sign-in-link`, { headers: sessionHeaders(owner) });
    const linkToken = new URL(link.body.url).hash.slice(1);
    const redeemed = await call(t.baseUrl, 'POST', '/api/v1/auth/sign-in-link/redeem', { body: { token: linkToken } });
    const second = sessionFrom(redeemed.setCookie);
    await call(t.baseUrl, 'POST', '/api/v1/auth/sign-out', { headers: sessionHeaders(second) });

    const output = lines.join('');
    expect(lines.filter((line) => line.includes('"req"')).length).toBeGreaterThan(5);
    expect(output).toContain('"url":"/api/v1/auth/sign-in-link/[REDACTED]"');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const secrets = {
      session: /sc_session=([^;]+)/.exec(owner.cookieHeader)?.[1] ?? '',
      secondSession: /sc_session=([^;]+)/.exec(second.cookieHeader)?.[1] ?? '',
      csrf: owner.csrfToken,
      apiToken: token.token,
      setupApiToken: setup.body.apiToken.token,
      linkToken,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length).toBeGreaterThan(20);
      expect({ name, found: output.includes(secret) }).toEqual({ name, found: false });
    }
    // The setup token is printed on purpose, once, at boot, and nowhere else (not in the request log).
    expect(lines.filter((line) => line.includes(setupToken))).toHaveLength(1);
    expect(output).not.toContain(TEST_SETUP_TOKEN);
  });

  it('log failed queries through the structured logger with the query text and SQLSTATE, never a parameter or value', async () => {
    const token = 'sct_leakleak_' + 'S'.repeat(43);
    const email = 'leaky.person@secret.example';
    const clientSecret = 'client-secret-never-logged-0123456789';
    const before = lines.length;
    await expect(t.dataSource.query('SELECT $1::uuid AS id, $2::text AS secret', [token, clientSecret])).rejects.toThrow();
    const userId = '00000000-0000-4000-8000-000000000001';
    await t.dataSource.query('INSERT INTO users (id, email, display_name, disabled, created_at) VALUES ($1, $2, $3, false, now())', [userId, email, clientSecret]);
    await expect(
      t.dataSource.query('INSERT INTO users (id, email, display_name, disabled, created_at) VALUES ($1, $2, $3, false, now())', ['00000000-0000-4000-8000-000000000002', email, token]),
    ).rejects.toThrow();

    await expect(t.dataSource.query('SELECT id FROM users WHERE email = $1', [`${email}\u0000`])).rejects.toThrow();

    const failures = lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry['msg'] === 'A database query failed');
    expect(failures.map((entry) => entry['code'])).toEqual(['22P02', '23505', '22021']);
    // Only parameter values are redacted; PostgreSQL's own words (the encoding's name) stay readable.
    expect(failures[2]).toMatchObject({ message: 'invalid byte sequence for encoding "UTF8": 0x00' });
    expect(failures[0]).toMatchObject({ level: 50, context: 'Database', query: 'SELECT $1::uuid AS id, $2::text AS secret', message: 'invalid input syntax for type uuid: "[REDACTED]"' });
    expect(failures[1]).toMatchObject({ table: 'users', message: expect.stringContaining('duplicate key value violates unique constraint') });
    const output = lines.slice(before).join('');
    for (const secret of [token, email, clientSecret]) expect({ secret, found: output.includes(secret) }).toEqual({ secret, found: false });
  });
});
