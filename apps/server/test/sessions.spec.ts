import { bearer, call, cookiesOf, useSeededApp, expectError, memberWithSession, sessionHeaders, type SessionCredentials } from './support';

// After ./support: the contracts barrel needs reflect-metadata loaded first (class-transformer @Type in sso.ts).
import { CSRF_HEADER, type ErrorBody } from '@sc/contracts';
import { SessionsService } from '../src/modules/sessions/sessions.service';

const HOUR = 60 * 60 * 1000;

describe('sessions', () => {
  const { t, org } = useSeededApp({ orgId: 'acme' }, { env: { SERVICE_SESSION_IDLE_TIMEOUT: '8h', SERVICE_SESSION_MAX_AGE: '7d' } });

  const me = (session: SessionCredentials) => call<ErrorBody & { role: string }>(t.baseUrl, 'GET', '/api/v1/me', { headers: { cookie: session.cookieHeader } });

  it('refuses requests without credentials with 401 authentication_required', async () => {
    const response = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/me');
    expectError(response, 401, 'authentication_required');
  });

  it('sign-out deletes the session row, clears the cookies and the old cookie stops working', async () => {
    const member = await memberWithSession(t, org, 'viewer');
    expect((await me(member.session)).status).toBe(200);
    const before = await t.dataSource.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [member.userId]);
    expect(before[0].n).toBe(1);

    const signOut = await call(t.baseUrl, 'POST', '/api/v1/auth/sign-out', { headers: sessionHeaders(member.session) });
    expect(signOut.status).toBe(204);
    const cleared = signOut.setCookie.filter((cookie) => /Expires=Thu, 01 Jan 1970/.test(cookie)).map((cookie) => cookie.split('=')[0]);
    expect(cleared.sort()).toEqual(['sc_csrf', 'sc_session']);
    const after = await t.dataSource.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [member.userId]);
    expect(after[0].n).toBe(0);
    const response = await me(member.session);
    expectError(response, 401, 'session_invalid');
  });

  it('expires after the idle timeout, and use pushes the idle timeout forward', async () => {
    const active = await memberWithSession(t, org, 'viewer');
    const idle = await memberWithSession(t, org, 'viewer');
    try {
      t.clock.advance(7 * HOUR);
      expect((await me(active.session)).status).toBe(200); // refreshes the idle expiry
      t.clock.advance(2 * HOUR); // 9h after sign-in, 2h after the last use
      expect((await me(active.session)).status).toBe(200);
      const expired = await me(idle.session);
      expectError(expired, 401, 'session_expired');
      expect(expired.setCookie.some((cookie) => cookie.startsWith('sc_session=;'))).toBe(true);
    } finally {
      t.clock.advance(-9 * HOUR);
    }
  });

  it('sweeps expired session rows', async () => {
    const member = await memberWithSession(t, org, 'viewer');
    const count = async () => (await t.dataSource.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [member.userId]))[0].n as number;
    await t.app.get(SessionsService).sweepExpired();
    expect(await count()).toBe(1);
    t.clock.advance(5 * HOUR);
    try {
      expect((await me(org.owner)).status).toBe(200); // keeps the owner's session alive
      t.clock.advance(4 * HOUR);
      await t.app.get(SessionsService).sweepExpired();
      expect(await count()).toBe(0);
      expect((await me(org.owner)).status).toBe(200);
    } finally {
      t.clock.advance(-9 * HOUR);
    }
  });

  it('expires at the absolute maximum age even when used continuously', async () => {
    const member = await memberWithSession(t, org, 'viewer');
    let elapsed = 0;
    try {
      while (elapsed < 7 * 24 * HOUR - 6 * HOUR) {
        t.clock.advance(6 * HOUR);
        elapsed += 6 * HOUR;
        expect((await me(member.session)).status).toBe(200);
      }
      t.clock.advance(7 * 24 * HOUR - elapsed + 1000);
      elapsed = 7 * 24 * HOUR + 1000;
      const response = await me(member.session);
      expectError(response, 401, 'session_expired');
    } finally {
      t.clock.advance(-elapsed);
    }
  });

  it('refuses a disabled membership and a disabled member cannot keep using an old session', async () => {
    const member = await memberWithSession(t, org, 'editor');
    expect((await me(member.session)).status).toBe(200);
    const disabled = await call(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${member.userId}/disable`, { headers: sessionHeaders(org.owner) });
    expect(disabled.status).toBe(200);
    const response = await me(member.session);
    expect(response.status).toBe(401);
  });

  it('refuses a disabled user account with 403 account_disabled', async () => {
    const member = await memberWithSession(t, org, 'editor');
    await t.dataSource.query('UPDATE users SET disabled = true WHERE id = $1', [member.userId]);
    const response = await me(member.session);
    expectError(response, 403, 'account_disabled');
  });

  describe('CSRF (double submit)', () => {
    const addMember = (headers: Record<string, string>) =>
      call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs/acme/members', { headers, body: { email: `csrf-${Math.random().toString(36).slice(2)}@acme.example`, role: 'viewer' } });

    it('refuses a cookie-authenticated change without the header', async () => {
      const response = await addMember({ cookie: org.owner.cookieHeader });
      expectError(response, 403, 'csrf_failed');
    });

    it('refuses a header that does not match the cookie', async () => {
      const response = await addMember({ cookie: org.owner.cookieHeader, [CSRF_HEADER]: 'x'.repeat(43) });
      expectError(response, 403, 'csrf_failed');
    });

    it("refuses another session's CSRF token even when cookie and header agree", async () => {
      const other = await memberWithSession(t, org, 'admin');
      const sessionOnly = org.owner.cookieHeader.split('; ').find((part) => part.startsWith('sc_session=')) ?? '';
      const response = await addMember({ cookie: `${sessionOnly}; sc_csrf=${other.session.csrfToken}`, [CSRF_HEADER]: other.session.csrfToken });
      expectError(response, 403, 'csrf_failed');
    });

    it('accepts the matching header, and bearer tokens need none', async () => {
      expect((await addMember(sessionHeaders(org.owner))).status).toBe(201);
      expect((await addMember(bearer(org.adminToken))).status).toBe(201);
    });

    it('GET /me returns the CSRF token and re-issues the cookie when it is missing', async () => {
      const session = org.owner.cookieHeader.split('; ').find((part) => part.startsWith('sc_session=')) ?? '';
      const response = await call<{ csrfToken: string }>(t.baseUrl, 'GET', '/api/v1/me', { headers: { cookie: session } });
      expect(response.status).toBe(200);
      expect(cookiesOf(response.setCookie)['sc_csrf']).toBe(response.body.csrfToken);
      const kept = await call<{ csrfToken: string }>(t.baseUrl, 'GET', '/api/v1/me', { headers: { cookie: org.owner.cookieHeader } });
      expect(kept.body.csrfToken).toBe(org.owner.csrfToken);
    });
  });

  it('the database never holds a raw session cookie, API token or sign-in link token', async () => {
    const link = await call<{ url: string }>(t.baseUrl, 'POST', `/api/v1/orgs/acme/members/${org.ownerUserId}/sign-in-link`, { headers: sessionHeaders(org.owner) });
    const linkToken = new URL(link.body.url).hash.slice(1);
    const created = await call<{ token: string }>(t.baseUrl, 'POST', '/api/v1/orgs/acme/tokens', { headers: sessionHeaders(org.owner), body: { name: 'scan', scopes: ['read'] } });
    const sessionValue = /sc_session=([^;]+)/.exec(org.owner.cookieHeader)?.[1] ?? '';
    const secrets = [sessionValue, created.body.token, created.body.token.slice('sct_12345678_'.length), org.adminToken, linkToken];
    expect(secrets.every((secret) => secret.length >= 32)).toBe(true);

    const dump: string[] = [];
    for (const table of ['sessions', 'api_tokens', 'sign_in_links', 'users', 'memberships', 'organizations']) {
      const rows: { row: string }[] = await t.dataSource.query(`SELECT t::text AS row FROM ${table} t`);
      dump.push(...rows.map((r) => r.row));
    }
    expect(dump.length).toBeGreaterThan(5);
    for (const secret of secrets) expect(dump.filter((row) => row.includes(secret))).toEqual([]);
  });
});
