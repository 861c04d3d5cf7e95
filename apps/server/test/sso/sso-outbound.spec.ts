import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import type { SsoTestReport, SsoTestStartResponse, ErrorBody } from '@sc/contracts';
import { readBody, TestBrowser } from '@sc/testing-idp';
import { call, sessionHeaders, type SeededOrganization, type TestApp, useSeededApp } from '../support';
import { callbackUrl, CLIENT_SECRET, createProvider } from './sso-support';

const INTERNAL_SECRET = 'internal-only-4711';

/**
 * A service inside the server's network (an admin API, a metadata service, a database port): it records
 * every request and answers anything with JSON that would pass for a discovery document and holds a secret.
 */
class InternalService {
  readonly requests: { method: string; url: string; body: string }[] = [];
  /** Location a request to /redirect is sent to. */
  redirectTo = '';

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<InternalService> {
    const server = createHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const service = new InternalService(server, (server.address() as AddressInfo).port);
    server.on('request', (req: IncomingMessage, res) => {
      void readBody(req).then((body) => {
        service.requests.push({ method: req.method ?? '', url: req.url ?? '', body });
        if (req.url?.startsWith('/redirect')) {
          res.writeHead(302, { location: service.redirectTo }).end();
          return;
        }
        const origin = `http://127.0.0.1:${service.port}`;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ issuer: origin, authorization_endpoint: `${origin}/a`, token_endpoint: `${origin}/t`, access_token: INTERNAL_SECRET, secret: INTERNAL_SECRET }));
      });
    });
    return service;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

async function discover(t: TestApp, org: SeededOrganization, issuer: string) {
  return call<ErrorBody>(t.baseUrl, 'POST', `/api/v1/orgs/${org.organizationId}/sso/discovery`, { headers: sessionHeaders(org.owner), body: { issuer } });
}

describe('SSO outbound calls on a server whose operator allowed no internal network', () => {
  // Plain http stays allowed for loopback names, so what refuses the calls below is the address rule alone.
  const { t, org } = useSeededApp({ orgId: 'acme' }, { env: { SERVICE_SSO_ALLOWED_NETWORKS: '', SERVICE_SSO_ALLOW_HTTP_HOSTS: '127.0.0.1,localhost' } });
  let internal: InternalService;

  beforeAll(async () => {
    internal = await InternalService.start();
  });
  afterAll(() => internal?.close());

  beforeEach(() => {
    internal.requests.length = 0;
  });

  it('refuses discovery at internal addresses, in any spelling, without calling them or echoing them', async () => {
    const issuers = [
      `http://127.0.0.1:${internal.port}/secret-json`,
      `http://0x7f000001:${internal.port}/secret-json`,
      `http://2130706433:${internal.port}`,
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/realms/acme',
      'https://[fd00::1]/realms/acme',
      `https://[::1]:${internal.port}`,
      `https://[::ffff:127.0.0.1]:${internal.port}`,
    ];
    for (const issuer of issuers) {
      const response = await discover(t, org, issuer);
      expect([issuer, response.status, response.body.error.code]).toEqual([issuer, 400, 'outbound_url_refused']);
      expect(response.body.error.message).toMatch(/^https?:\/\/\S+ is not a public address \(\w+\); the server only calls public addresses unless an operator allows the network in SERVICE_SSO_ALLOWED_NETWORKS\.$/);
      expect(response.body.error.details).toEqual([{ path: 'issuer', message: response.body.error.message }]);
    }
    expect(internal.requests).toEqual([]);
  });

  it('refuses discovery at a name that resolves to an internal address, with the generic message', async () => {
    const response = await discover(t, org, `http://localhost:${internal.port}/secret-json`);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'outbound_url_refused',
      message: `Could not reach the provider at http://localhost:${internal.port}: address not allowed; the server only calls public addresses unless an operator allows the network in SERVICE_SSO_ALLOWED_NETWORKS.`,
    });
    expect(JSON.stringify(response.body)).not.toContain(INTERNAL_SECRET);
    expect(internal.requests).toEqual([]);
  });

  it('refuses to save provider URLs that name an internal address', async () => {
    const response = await call<ErrorBody>(t.baseUrl, 'POST', '/api/v1/orgs/acme/sso/providers', {
      headers: sessionHeaders(org.owner),
      body: { slug: 'inside', displayName: 'Inside', type: 'generic', clientId: 'c', clientSecret: CLIENT_SECRET, authUrl: 'https://idp.example.com/authorize', tokenUrl: `http://127.0.0.1:${internal.port}/token`, userinfoUrl: 'https://169.254.169.254/latest/meta-data/iam' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_provider_config');
    expect(response.body.error.details.map((detail) => [detail.path, detail.message.replace(/:\d+/, ':PORT')])).toEqual([
      ['tokenUrl', 'tokenUrl: http://127.0.0.1:PORT is not a public address (loopback); the server only calls public addresses unless an operator allows the network in SERVICE_SSO_ALLOWED_NETWORKS.'],
      ['userinfoUrl', 'userinfoUrl: https://169.254.169.254 is not a public address (linkLocal); the server only calls public addresses unless an operator allows the network in SERVICE_SSO_ALLOWED_NETWORKS.'],
    ]);
  });

  it('a test sign-in whose token endpoint resolves to loopback sends it neither code, client secret nor verifier', async () => {
    // A name, not an address: saving cannot know where it points; the call must find out and refuse.
    await createProvider(t, org, { slug: 'probe', displayName: 'Probe', type: 'generic', authUrl: 'https://idp.example.com/authorize', tokenUrl: `http://localhost:${internal.port}/token`, userinfoUrl: `http://localhost:${internal.port}/userinfo` });
    const browser = new TestBrowser({ accept: 'application/json' });
    for (const pair of org.owner.cookieHeader.split('; ')) {
      const [name, value] = pair.split('=');
      browser.setCookie('127.0.0.1', name, value);
    }
    const started = await browser.request(`${t.baseUrl}/api/v1/orgs/acme/sso/providers/probe/test`, { method: 'POST', json: {}, headers: { 'x-csrf-token': org.owner.csrfToken } });
    expect(started.status).toBe(200);
    const state = new URL((JSON.parse(started.text) as SsoTestStartResponse).authorizationUrl).searchParams.get('state') ?? '';
    // What the identity provider would do after the person signed in: send the browser back with a code.
    const page = await browser.request(`${callbackUrl(t, 'acme', 'probe')}?code=code-from-the-idp&state=${encodeURIComponent(state)}`);
    expect(page.status).toBe(200);
    const report = JSON.parse(page.text) as SsoTestReport;
    expect(report).toMatchObject({
      ok: false,
      errorCode: 'token_exchange_failed',
      failedStep: 'the token exchange',
      errorMessage: `The code exchange with the provider's token endpoint failed. Could not reach the provider at http://localhost:${internal.port}: address not allowed; the server only calls public addresses unless an operator allows the network in SERVICE_SSO_ALLOWED_NETWORKS.`,
    });
    expect(page.text).not.toContain(INTERNAL_SECRET);
    expect(internal.requests).toEqual([]);
  });
});

describe('SSO outbound calls on a server whose operator allowed loopback for an internal identity provider', () => {
  let internal: InternalService;
  let hangUp: NetServer;
  const logLines: string[] = [];
  // The test app's defaults allow 127.0.0.0/8 and ::1 (SERVICE_SSO_ALLOWED_NETWORKS) and http on 127.0.0.1.
  const { t, org } = useSeededApp({ orgId: 'acme' }, { env: { SERVICE_LOG_LEVEL: 'warn' }, logLines });

  beforeAll(async () => {
    internal = await InternalService.start();
    // Like PostgreSQL or Redis answering an HTTP request: the connection opens, then closes without an HTTP answer.
    hangUp = createNetServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => hangUp?.close(resolve));
    await internal?.close();
  });

  it('answers the same for a closed port, a non-HTTP port and a non-TLS port; the detail is only in the log', async () => {
    const closed = createNetServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const origins = [`http://127.0.0.1:${closedPort}`, `http://127.0.0.1:${(hangUp.address() as AddressInfo).port}`, `https://127.0.0.1:${internal.port}`];
    const answers = new Set<string>();
    for (const origin of origins) {
      const response = await discover(t, org, origin);
      expect([response.status, response.body.error.code]).toEqual([502, 'discovery_failed']);
      answers.add(JSON.stringify(response.body).replaceAll(origin, 'ORIGIN'));
    }
    expect([...answers]).toEqual([
      JSON.stringify({ error: { code: 'discovery_failed', message: 'Could not reach the provider at ORIGIN: connection failed. The discovery document ORIGIN/.well-known/openid-configuration could not be read.', details: [] } }),
    ]);
    const log = logLines.join('');
    expect(log).toContain('ECONNREFUSED');
    expect(log).toContain('other side closed');
    expect(log).toContain('wrong version number');
  });

  it("logs an unreachable provider (the admin's input, not a server fault) at warn with the reason and no stack, in discovery and in a test sign-in", async () => {
    const closed = createNetServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const before = logLines.length;

    expect((await discover(t, org, origin)).status).toBe(502);
    await createProvider(t, org, { slug: 'unreachable', displayName: 'Unreachable', type: 'generic', authUrl: `${origin}/authorize`, tokenUrl: `${origin}/token`, userinfoUrl: `${origin}/userinfo` });
    const browser = new TestBrowser({ accept: 'application/json' });
    for (const pair of org.owner.cookieHeader.split('; ')) {
      const [name, value] = pair.split('=');
      browser.setCookie('127.0.0.1', name, value);
    }
    const started = await browser.request(`${t.baseUrl}/api/v1/orgs/acme/sso/providers/unreachable/test`, { method: 'POST', json: {}, headers: { 'x-csrf-token': org.owner.csrfToken } });
    const state = new URL((JSON.parse(started.text) as SsoTestStartResponse).authorizationUrl).searchParams.get('state') ?? '';
    const page = await browser.request(`${callbackUrl(t, 'acme', 'unreachable')}?code=code-from-the-idp&state=${encodeURIComponent(state)}`);
    expect(JSON.parse(page.text)).toMatchObject({ ok: false, errorCode: 'token_exchange_failed' });

    const entries = logLines.slice(before).map((line) => JSON.parse(line) as { level: number; msg: string; context?: string } & Record<string, unknown>);
    expect(entries.filter((entry) => entry.level >= 50)).toEqual([]);
    expect(logLines.slice(before).join('')).not.toMatch(/\\n\s+at /);
    // Besides the request lines (at warn for the 502) and the outbound call's own line with the socket error:
    expect(entries.filter((entry) => entry.context !== 'OutboundCall' && !('res' in entry))).toEqual([
      expect.objectContaining({ level: 40, context: 'Errors', msg: expect.stringMatching(/^discovery_failed: Could not reach the provider at .*: connection failed/) }),
      expect.objectContaining({ level: 40, context: 'SsoSignIn', msg: 'SSO test sign-in failed', code: 'token_exchange_failed', provider: 'unreachable', reason: expect.stringContaining('connection failed') }),
    ]);
  });

  it('follows no redirect from the allowed provider to an internal address outside the allowed networks', async () => {
    for (const target of ['https://169.254.169.254/latest/meta-data/', 'https://10.0.0.1/admin', 'https://[fd00::1]/', 'https://0x0a000001/']) {
      internal.redirectTo = target;
      const response = await discover(t, org, `http://127.0.0.1:${internal.port}/redirect`);
      expect([target, response.status, response.body.error.code]).toEqual([target, 400, 'outbound_url_refused']);
      expect(response.body.error.message).toBe(
        `Could not reach the provider at http://127.0.0.1:${internal.port}: redirected to an address that is not allowed; the server only calls public addresses unless an operator allows the network in SERVICE_SSO_ALLOWED_NETWORKS.`,
      );
    }
    expect(internal.requests.map((request) => request.url)).toEqual(Array(4).fill('/redirect/.well-known/openid-configuration'));
  });
});
