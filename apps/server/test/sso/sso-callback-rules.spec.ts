import type { SsoAuditEntry, ErrorBody } from '@sc/contracts';
import { addMember, call, createOrganization, sessionHeaders, useSeededApp } from '../support';
import { MiniIdp, TestBrowser } from '@sc/testing-idp';
import { CLIENT_ID, CLIENT_SECRET, createProvider, isSpaPage, loginUrl, meOf, patchProvider } from './sso-support';

type Claims = Record<string, unknown>;

const TENANT = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';

/**
 * Every callback rule against loopback servers shaped like the providers the service supports: a generic
 * lab provider whose answers each test sets, GitHub (no ID token, email null, emails endpoint), Entra and
 * Okta (derived URLs through the host overrides) and a token endpoint that only accepts HTTP Basic.
 */
describe('SSO callback rules and provider shapes', () => {
  let lab: MiniIdp;
  let github: MiniIdp;
  let entra: MiniIdp;
  let okta: MiniIdp;
  let basic: MiniIdp;
  let userinfo: Claims;
  let idToken: Claims | null;

  beforeAll(async () => {
    lab = await MiniIdp.start({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      paths: { authorize: '/authorize', token: '/token', userinfo: '/userinfo', jwks: '/jwks' },
      userinfo: () => ({ body: userinfo }),
      idTokenClaims: () => idToken,
    });
    github = await MiniIdp.start({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      paths: { authorize: '/login/oauth/authorize', token: '/login/oauth/access_token', userinfo: '/user', emails: '/user/emails' },
      userinfo: () => ({ body: { id: 4242, login: 'octocat', name: 'The Octocat', email: null } }),
      emails: [
        { email: 'octocat@users.noreply.github.com', primary: false, verified: true },
        { email: 'octo@example.com', primary: true, verified: true },
      ],
    });
    entra = await MiniIdp.start({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      paths: { authorize: `/${TENANT}/oauth2/v2.0/authorize`, token: `/${TENANT}/oauth2/v2.0/token`, userinfo: '/oidc/userinfo', jwks: `/${TENANT}/discovery/v2.0/keys` },
      userinfo: () => ({ body: { sub: 'entra-sub-1', email: 'erin@contoso.example', name: 'Erin' } }),
      idTokenClaims: () => ({ sub: 'entra-sub-1', tid: TENANT, _claim_names: { groups: 'src1' }, _claim_sources: { src1: { endpoint: 'https://graph.microsoft.com/v1.0/users/x/getMemberObjects' } } }),
    });
    okta = await MiniIdp.start({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      paths: { authorize: '/oauth2/v1/authorize', token: '/oauth2/v1/token', userinfo: '/oauth2/v1/userinfo', jwks: '/oauth2/v1/keys' },
      userinfo: () => ({ body: { sub: 'okta-sub-1', email: 'olga@acme-okta.example', name: 'Olga', groups: ['Everyone', 'sc-editors'] } }),
      idTokenClaims: () => ({ sub: 'okta-sub-1' }),
    });
    basic = await MiniIdp.start({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      tokenAuth: 'basic-only',
      paths: { authorize: '/authorize', token: '/token', userinfo: '/userinfo' },
      userinfo: () => ({ body: {} }),
    });
    // Entra's tenant and graph hosts are overridden to two names of one loopback server.
    (entra.options as { issuer?: string }).issuer = `http://127.0.0.1:${entra.port}/${TENANT}/v2.0`;
    (okta.options as { issuer?: string }).issuer = okta.origin;
  });
  afterAll(() => Promise.all([lab, github, entra, okta, basic].map((idp) => idp?.close())));
  const { t, org } = useSeededApp({ orgId: 'acme' }, () => ({
    env: {
      SERVICE_SSO_ENTRA_TENANT_HOST: `http://127.0.0.1:${entra.port}`,
      SERVICE_SSO_ENTRA_GRAPH_HOST: `http://localhost:${entra.port}`,
      SERVICE_SSO_OKTA_BASE_URL: okta.origin,
      SERVICE_SSO_FETCH_TIMEOUT: '2500ms',
      SERVICE_SSO_FETCH_MAX_BYTES: '64kb',
    },
  }));
  beforeAll(async () => {
    await createProvider(t, org, {
      slug: 'lab',
      displayName: 'Lab',
      type: 'generic',
      authUrl: `${lab.origin}/authorize`,
      tokenUrl: `${lab.origin}/token`,
      userinfoUrl: `${lab.origin}/userinfo?fields=email,name&v=2`,
      jwksUri: `${lab.origin}/jwks`,
      issuer: lab.origin,
      allowSignUp: true,
    });
    await createProvider(t, org, {
      slug: 'github',
      displayName: 'GitHub',
      type: 'generic',
      authUrl: `${github.origin}/login/oauth/authorize`,
      tokenUrl: `${github.origin}/login/oauth/access_token`,
      userinfoUrl: `${github.origin}/user`,
      scopes: 'read:user user:email',
      subjectClaim: 'id',
      allowSignUp: true,
    });
    await createProvider(t, org, { slug: 'entra', displayName: 'Entra', type: 'entra', tenantId: TENANT, allowSignUp: true });
    await createProvider(t, org, { slug: 'okta', displayName: 'Okta', type: 'okta', domain: 'acme.okta.com', allowSignUp: true, claimRules: [{ claim: 'groups', operator: 'equals', value: 'sc-editors', role: 'editor' }] });
    await createProvider(t, org, { slug: 'basic', displayName: 'Basic', type: 'generic', authUrl: `${basic.origin}/authorize`, tokenUrl: `${basic.origin}/token`, userinfoUrl: `${basic.origin}/userinfo`, allowSignUp: true });
  });

  beforeEach(() => {
    userinfo = { sub: 'lab-1', email: 'lab@example.com', name: 'Lab User' };
    idToken = null;
    lab.options.authorizeError = undefined;
    lab.options.tokenDelayMs = undefined;
    lab.options.userinfo = () => ({ body: userinfo });
  });

  /** Runs a whole sign-in with `Accept: application/json`; returns the redirect target or the error. */
  async function signIn(slug: string, browser = new TestBrowser({ accept: 'application/json' })) {
    const page = await browser.follow(loginUrl(t, 'acme', slug, '/orgs/acme/home'), { stopBefore: isSpaPage(t) });
    const body = page.stoppedAt ? undefined : (JSON.parse(page.text) as ErrorBody);
    return { status: page.status, redirectedTo: page.stoppedAt, error: body?.error, browser, page };
  }

  it('GitHub: no ID token, email null → the primary verified address from the emails endpoint', async () => {
    const result = await signIn('github');
    expect(result.error).toBeUndefined();
    expect(result.redirectedTo).toBe(`${t.baseUrl}/orgs/acme/home`);
    expect(github.emailsRequests).toHaveLength(1);
    expect(github.emailsRequests[0].url.pathname).toBe('/user/emails');
    expect(github.emailsRequests[0].authorization).toMatch(/^Bearer at-/);
    const me = await meOf(t, result.browser);
    expect(me.body.user).toMatchObject({ email: 'octo@example.com', displayName: 'The Octocat' });
    const link = (await t.dataSource.query(`SELECT subject FROM sso_identities i JOIN sso_providers p ON p.id = i.provider_id WHERE p.slug = 'github'`)) as { subject: string }[];
    expect(link).toEqual([{ subject: '4242' }]);
  });

  it('GitHub without a primary verified address → 400 no_email', async () => {
    github.options.emails = [{ email: 'octo@example.com', primary: true, verified: false }];
    try {
      const result = await signIn('github');
      expect(result.status).toBe(400);
      expect(result.error?.code).toBe('no_email');
    } finally {
      github.options.emails = [{ email: 'octo@example.com', primary: true, verified: true }];
    }
  });

  it('Entra: exact derived URLs through the host overrides, ID token verified, overage recorded as a warning', async () => {
    const browser = new TestBrowser({ accept: 'application/json' });
    const start = await browser.request(loginUrl(t, 'acme', 'entra'));
    expect(start.status).toBe(302);
    const location = new URL(start.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(`http://127.0.0.1:${entra.port}/${TENANT}/oauth2/v2.0/authorize`);
    const result = await signIn('entra', browser);
    expect(result.error).toBeUndefined();
    expect(entra.tokenRequests.at(-1)?.form.get('client_secret')).toBe(CLIENT_SECRET);
    expect(entra.userinfoRequests.at(-1)?.host).toBe(`localhost:${entra.port}`);
    expect(entra.userinfoRequests.at(-1)?.url.pathname).toBe('/oidc/userinfo');
    const audit = await call<SsoAuditEntry[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/sso/audit?provider=entra', { headers: sessionHeaders(org.owner) });
    expect(audit.body[0]).toMatchObject({ outcome: 'success', email: 'erin@contoso.example', role: 'viewer' });
    expect(audit.body[0].warnings.join(' ')).toMatch(/overage/i);
  });

  it('Okta: exact derived URLs, ID token verified with the org authorization server keys, claim rule role', async () => {
    const browser = new TestBrowser({ accept: 'application/json' });
    const start = await browser.request(loginUrl(t, 'acme', 'okta'));
    const location = new URL(start.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(`${okta.origin}/oauth2/v1/authorize`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: `${t.baseUrl}/api/v1/auth/orgs/acme/callback/okta`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(location.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    expect(location.searchParams.get('nonce')).toMatch(/^[\w-]{32}$/);
    expect(location.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    const result = await signIn('okta', browser);
    expect(result.error).toBeUndefined();
    expect(okta.tokenRequests.at(-1)?.form.get('code_verifier')).toMatch(/^[\w-]{43}$/);
    expect((await meOf(t, browser)).body.role).toBe('editor');
  });

  it('a token endpoint that demands HTTP Basic → 502 token_exchange_failed with the invalid_client advice', async () => {
    const result = await signIn('basic');
    expect(result.status).toBe(502);
    expect(result.error?.code).toBe('token_exchange_failed');
    expect(result.error?.message).toMatch(/invalid_client/);
    expect(result.error?.message).toMatch(/client ID and client secret/);
    expect(result.error?.message).toMatch(/client_secret_post/);
    const request = basic.tokenRequests.at(-1);
    expect(request?.authorization).toBeUndefined();
    expect(request?.form.get('client_id')).toBe(CLIENT_ID);
    expect(request?.form.get('client_secret')).toBe(CLIENT_SECRET);
    expect(request?.form.get('grant_type')).toBe('authorization_code');
    expect(result.error?.message).not.toContain(CLIENT_SECRET);
  });

  it('keeps the UserInfo query string and sends the access token as Bearer', async () => {
    const result = await signIn('lab');
    expect(result.error).toBeUndefined();
    const request = lab.userinfoRequests.at(-1);
    expect(request?.url.search).toBe('?fields=email,name&v=2');
    expect(request?.authorization).toMatch(/^Bearer at-/);
  });

  it('rule 2: ?error= from the provider → 400 provider_error with its error and description', async () => {
    lab.options.authorizeError = { error: 'access_denied', error_description: 'The user cancelled.' };
    const result = await signIn('lab');
    expect(result.status).toBe(400);
    expect(result.error?.code).toBe('provider_error');
    // The description's own full stop ends the sentence: no "cancelled.." on the page.
    expect(result.error?.message).toBe('The identity provider refused the sign-in: access_denied — The user cancelled.');
    lab.options.authorizeError = { error: 'access_denied', error_description: 'The user cancelled' };
    expect((await signIn('lab')).error?.message).toBe('The identity provider refused the sign-in: access_denied — The user cancelled.');
    const page = await new TestBrowser().follow(loginUrl(t, 'acme', 'lab'), { stopBefore: isSpaPage(t) });
    expect(page.text).toContain('<p data-error-message>The identity provider refused the sign-in: access_denied — The user cancelled.</p>');
    expect(page.text).toContain('<h1>The identity provider did not complete the sign-in</h1>');
    expect(page.text).toContain('href="/orgs/acme/sign-in?error=provider_error">Back to sign-in</a>');
  });

  it('rule 4: UserInfo failing → 502 userinfo_failed', async () => {
    lab.options.userinfo = () => ({ status: 500, body: { message: 'boom' } });
    const result = await signIn('lab');
    expect(result.status).toBe(502);
    expect(result.error?.code).toBe('userinfo_failed');
  });

  it('bounds every call to the provider: a silent token endpoint times out, a huge UserInfo is cut off', async () => {
    lab.options.tokenDelayMs = 4000;
    const slow = await signIn('lab');
    expect(slow.status).toBe(502);
    expect(slow.error?.code).toBe('token_exchange_failed');
    expect(slow.error?.message).toMatch(/: timed out after 2500 ms\.$/);
    lab.options.tokenDelayMs = undefined;
    lab.options.userinfo = () => ({ body: { sub: 'big', email: 'big@example.com', padding: 'x'.repeat(100 * 1024) } });
    const big = await signIn('lab');
    expect(big.status).toBe(502);
    expect(big.error?.code).toBe('userinfo_failed');
    expect(big.error?.message).toMatch(/: answer too large \(more than 65536 bytes\)/);
  });

  it('a callback without code (and without error) → 400 missing_code, after the state check', async () => {
    const browser = new TestBrowser({ accept: 'application/json' });
    const held = await browser.follow(loginUrl(t, 'acme', 'lab'), { stopBefore: (url) => url.pathname.includes('/callback/') });
    const callback = new URL(held.stoppedAt ?? '');
    callback.searchParams.delete('code');
    const page = await browser.request(callback.toString());
    expect(page.status).toBe(400);
    expect((JSON.parse(page.text) as ErrorBody).error.code).toBe('missing_code');
    const again = await browser.request(callback.toString());
    expect((JSON.parse(again.text) as ErrorBody).error.code).toBe('invalid_or_expired_state');
  });

  it('rule 4: ID token and UserInfo with different sub → 400 subject_mismatch', async () => {
    idToken = { sub: 'someone-else' };
    const result = await signIn('lab');
    expect(result.status).toBe(400);
    expect(result.error?.code).toBe('subject_mismatch');
  });

  it('rule 4: a forged, expired or foreign (nonce, audience, issuer) ID token is refused (502 invalid_id_token)', async () => {
    idToken = { sub: 'lab-1', nonce: 'not-the-one-we-sent' };
    expect((await signIn('lab')).error?.code).toBe('invalid_id_token');
    idToken = { sub: 'lab-1', aud: 'another-client' };
    const result = await signIn('lab');
    expect(result.status).toBe(502);
    expect(result.error?.code).toBe('invalid_id_token');
    idToken = { sub: 'lab-1', exp: Math.floor(Date.now() / 1000) - 3600 };
    expect((await signIn('lab')).error?.message).toMatch(/"exp"/);
    idToken = { sub: 'lab-1', iss: 'https://impostor.example' };
    expect((await signIn('lab')).error?.message).toMatch(/"iss"/);
    idToken = { sub: 'lab-1' };
    lab.options.forgeIdTokens = true;
    try {
      const forged = await signIn('lab');
      expect(forged.error?.code).toBe('invalid_id_token');
      expect(forged.error?.message).toMatch(/signature/i);
    } finally {
      lab.options.forgeIdTokens = false;
    }
  });

  it('rule 4: claims merge with UserInfo winning on duplicates', async () => {
    idToken = { sub: 'merge-1', email: 'from-token@example.com', name: 'Token Name', department: 'R&D' };
    userinfo = { sub: 'merge-1', email: 'merge@example.com' };
    await patchProvider(t, org, 'lab', { claimRules: [{ claim: 'department', operator: 'equals', value: 'R&D', role: 'editor' }] });
    const result = await signIn('lab');
    expect(result.error).toBeUndefined();
    const me = await meOf(t, result.browser);
    expect(me.body.user).toMatchObject({ email: 'merge@example.com', displayName: 'Token Name' });
    expect(me.body.role).toBe('editor');
    await patchProvider(t, org, 'lab', { claimRules: [] });
  });

  it('rule 6: no email in the configured claim → 400 no_email listing the causes', async () => {
    userinfo = { sub: 'no-mail', name: 'Nomail' };
    const result = await signIn('lab');
    expect(result.status).toBe(400);
    expect(result.error?.code).toBe('no_email');
    expect(result.error?.message).toMatch(/email scope/);
    expect(result.error?.message).toMatch(/hides the address/);
    expect(result.error?.message).toMatch(/does not resolve to a string/);
  });

  it('rule 7: email domain not allowed (case-insensitive) → 403 email_domain_not_allowed', async () => {
    await patchProvider(t, org, 'lab', { allowedDomains: ['Example.COM'] });
    userinfo = { sub: 'dom-1', email: 'someone@other.org' };
    const refused = await signIn('lab');
    expect(refused.status).toBe(403);
    expect(refused.error?.code).toBe('email_domain_not_allowed');
    userinfo = { sub: 'dom-2', email: 'Someone@EXAMPLE.com' };
    expect((await signIn('lab')).error).toBeUndefined();
    await patchProvider(t, org, 'lab', { allowedDomains: [] });
  });

  it('rule 7: sign-up off → 403 signup_disabled for unknown people and for users of another organization', async () => {
    await patchProvider(t, org, 'lab', { allowSignUp: false });
    try {
      userinfo = { sub: 'new-1', email: 'newcomer@example.com' };
      const unknown = await signIn('lab');
      expect(unknown.status).toBe(403);
      expect(unknown.error?.code).toBe('signup_disabled');
      const other = await createOrganization(t, org, { orgId: 'globex' });
      await addMember(t, other.owner, 'globex', { email: 'globex-user@example.com', role: 'viewer' });
      userinfo = { sub: 'glx-1', email: 'globex-user@example.com' };
      const foreign = await signIn('lab');
      expect(foreign.error?.code).toBe('signup_disabled');
      await addMember(t, org.owner, 'acme', { email: 'invited@example.com', role: 'editor' });
      userinfo = { sub: 'inv-1', email: 'invited@example.com' };
      const invited = await signIn('lab');
      expect(invited.error).toBeUndefined();
      expect((await meOf(t, invited.browser)).body.role).toBe('editor');
    } finally {
      await patchProvider(t, org, 'lab', { allowSignUp: true });
    }
  });

  it('rule 7: a disabled membership → 403 account_disabled', async () => {
    const member = await addMember(t, org.owner, 'acme', { email: 'disabled@example.com', role: 'viewer' });
    await call(t.baseUrl, 'PATCH', `/api/v1/orgs/acme/members/${member.userId}`, { headers: sessionHeaders(org.owner), body: { disabled: true } });
    userinfo = { sub: 'dis-1', email: 'disabled@example.com' };
    const result = await signIn('lab');
    expect(result.status).toBe(403);
    expect(result.error?.code).toBe('account_disabled');
  });

  it('rule 8: a different subject for an already linked user → 403 identity_conflict, no takeover', async () => {
    userinfo = { sub: 'owner-of-link', email: 'linked@example.com' };
    expect((await signIn('lab')).error).toBeUndefined();
    userinfo = { sub: 'impostor', email: 'LINKED@example.com' };
    const result = await signIn('lab');
    expect(result.status).toBe(403);
    expect(result.error?.code).toBe('identity_conflict');
    const links = (await t.dataSource.query(`SELECT subject FROM sso_identities WHERE email = 'linked@example.com'`)) as { subject: string }[];
    expect(links).toEqual([{ subject: 'owner-of-link' }]);
  });

  it('rule 10: email_verified is not checked', async () => {
    userinfo = { sub: 'unverified', email: 'unverified@example.com', email_verified: false };
    const result = await signIn('lab');
    expect(result.error).toBeUndefined();
    expect((await meOf(t, result.browser)).body.user?.email).toBe('unverified@example.com');
  });

  it('rule 8: the display name falls back to the email when the name claim is empty', async () => {
    userinfo = { sub: 'noname', email: 'noname@example.com', name: '' };
    const result = await signIn('lab');
    expect((await meOf(t, result.browser)).body.user).toMatchObject({ displayName: 'noname@example.com' });
  });

  it('rule 9: the first matching rule (dot paths, arrays) sets the role of SSO memberships at every login; manual memberships keep theirs', async () => {
    await patchProvider(t, org, 'lab', {
      defaultRole: 'viewer',
      claimRules: [
        { claim: 'realm_access.roles', operator: 'startsWith', value: 'sc-admin', role: 'admin' },
        { claim: 'realm_access.roles', operator: 'regex', value: '^sc-(edit|write)$', role: 'editor' },
      ],
    });
    userinfo = { sub: 'role-1', email: 'roles@example.com', realm_access: { roles: ['offline', 'sc-write'] } };
    const first = await signIn('lab');
    expect((await meOf(t, first.browser)).body.role).toBe('editor');
    userinfo = { sub: 'role-1', email: 'roles@example.com', realm_access: { roles: ['sc-admins'] } };
    const second = await signIn('lab');
    expect((await meOf(t, second.browser)).body.role).toBe('admin');
    userinfo = { sub: 'role-1', email: 'roles@example.com' };
    const third = await signIn('lab');
    expect((await meOf(t, third.browser)).body.role).toBe('viewer');

    // The owner's membership was made by hand at setup: SSO never changes it.
    userinfo = { sub: 'owner-sub', email: org.ownerEmail, realm_access: { roles: ['sc-write'] } };
    const owner = await signIn('lab');
    expect(owner.error).toBeUndefined();
    expect((await meOf(t, owner.browser)).body.role).toBe('owner');
    await patchProvider(t, org, 'lab', { claimRules: [] });
  });

  it('login start for a disabled or unknown provider shows a readable page', async () => {
    await patchProvider(t, org, 'lab', { enabled: false });
    const html = await new TestBrowser().request(loginUrl(t, 'acme', 'lab'));
    expect(html.status).toBe(403);
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    expect(html.text).toContain('provider_disabled');
    expect(html.text).toContain('What to do');
    await patchProvider(t, org, 'lab', { enabled: true, confirmUntested: true });
    const unknown = await new TestBrowser({ accept: 'application/json' }).request(loginUrl(t, 'acme', 'nope'));
    expect(unknown.status).toBe(404);
    expect((JSON.parse(unknown.text) as ErrorBody).error.code).toBe('provider_not_found');
  });

  it('browsers get an HTML error page with the code and what to do', async () => {
    userinfo = { sub: 'x', name: 'no email' };
    const page = await new TestBrowser().follow(loginUrl(t, 'acme', 'lab'), { stopBefore: isSpaPage(t) });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain('<code data-error-code>no_email</code>');
    expect(page.text).toContain('What to do');
    expect(page.text).toContain('<a class="button" href="/orgs/acme/sign-in?error=no_email">Back to sign-in</a>');
  });

  it('audits every attempt with its code, claim names without values, newest first, paginated', async () => {
    userinfo = { sub: 'audit-1', email: 'audit@example.com', groups: ['top-secret-group'], phone: '+1-555-0100' };
    await signIn('lab');
    const page = await call<SsoAuditEntry[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/sso/audit?provider=lab&limit=100', { headers: sessionHeaders(org.owner) });
    expect(page.status).toBe(200);
    const codes = page.body.map((e) => e.errorCode);
    for (const code of ['provider_error', 'userinfo_failed', 'subject_mismatch', 'invalid_id_token', 'no_email', 'email_domain_not_allowed', 'signup_disabled', 'account_disabled', 'identity_conflict', 'provider_disabled']) {
      expect(codes).toContain(code);
    }
    const latest = page.body[0];
    expect(latest).toMatchObject({ outcome: 'success', email: 'audit@example.com', subject: 'audit-1', test: false, claimNames: { groups: 'array(1)', phone: 'string', email: 'string', sub: 'string' } });
    expect(JSON.stringify(page.body)).not.toContain('top-secret-group');
    expect(JSON.stringify(page.body)).not.toContain('555-0100');
    const failures = await call<SsoAuditEntry[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/sso/audit?outcome=failure&limit=2', { headers: sessionHeaders(org.owner) });
    expect(failures.body).toHaveLength(2);
    expect(failures.body.every((e) => e.outcome === 'failure')).toBe(true);
    // The next page's link keeps the filter and the limit.
    const link = failures.headers.get('link') ?? '';
    expect(link).toMatch(/^<\/api\/v1\/orgs\/acme\/sso\/audit\?outcome=failure&limit=2&cursor=[\w-]+>; rel="next"$/);
    const next = await call<SsoAuditEntry[]>(t.baseUrl, 'GET', link.slice(1, link.indexOf('>')), { headers: sessionHeaders(org.owner) });
    expect(next.body).toHaveLength(2);
    expect(next.body[0].id).not.toBe(failures.body[1].id);
    expect(next.body[0].createdAt <= failures.body[1].createdAt).toBe(true);
    const bad = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/acme/sso/audit?cursor=garbage', { headers: sessionHeaders(org.owner) });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_cursor');
  });
});
