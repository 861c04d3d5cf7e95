import { Logger } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { createServer, Server } from 'node:http';
import { AddressInfo, createServer as createNetServer } from 'node:net';
import { boundedFetch, checkOutboundUrl, DEFAULT_OUTBOUND_POLICY, HostLookup, OutboundFetchError, OutboundPolicy, UrlPolicy } from './bounded-fetch';

describe('checkOutboundUrl', () => {
  const allow: UrlPolicy = { allowHttpHosts: ['localhost', '127.0.0.1'], allowedNetworks: [ipaddr.parseCIDR('127.0.0.0/8')] };

  it('accepts https to public addresses and http on allowed hosts', () => {
    expect(checkOutboundUrl('https://idp.example.com/token?x=1', allow).searchParams.get('x')).toBe('1');
    expect(checkOutboundUrl('https://8.8.8.8/', allow).hostname).toBe('8.8.8.8');
    expect(checkOutboundUrl('http://127.0.0.1:8080/token', allow).port).toBe('8080');
    expect(checkOutboundUrl('http://LOCALHOST/x', allow).hostname).toBe('localhost');
  });

  it.each([
    ['http://idp.example.com/token', /plain http/],
    ['ftp://idp.example.com/', /ftp: URLs are not allowed/],
    ['file:///etc/passwd', /file: URLs are not allowed/],
    ['https://user:pw@idp.example.com/', /user name or password/],
    ['/relative', /not an absolute URL/],
  ])('refuses %s', (url, message) => {
    expect(() => checkOutboundUrl(url, allow)).toThrow(message);
  });

  it('refuses http on loopback when the allow list is empty, saying no host may use it (not "only no hosts")', () => {
    expect(() => checkOutboundUrl('http://127.0.0.1/', { allowHttpHosts: [], allowedNetworks: allow.allowedNetworks })).toThrow(
      'http://127.0.0.1 uses plain http; use https (no host may use http unless an operator lists it in SERVICE_SSO_ALLOW_HTTP_HOSTS).',
    );
  });

  it('names the hosts that may use http when there are some', () => {
    expect(() => checkOutboundUrl('http://idp.example.com/', allow)).toThrow('http://idp.example.com uses plain http; use https (only localhost and 127.0.0.1 may use http, see SERVICE_SSO_ALLOW_HTTP_HOSTS).');
  });

  it.each([
    'http://127.0.0.1:5432/',
    'http://0x7f000001:6379/',
    'http://2130706433/',
    'http://017700000001/',
    'http://127.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.1/',
    'https://[fd00::1]/',
    'https://100.64.0.1/',
    'https://0.0.0.0/',
  ])('refuses the internal address in %s unless its network is allowed', (url) => {
    const everyHost: UrlPolicy = { allowHttpHosts: ['127.0.0.1'], allowedNetworks: [] };
    expect(() => checkOutboundUrl(url, everyHost)).toThrow(expect.objectContaining({ reason: 'address_not_allowed', message: expect.stringMatching(/is not a public address .*SERVICE_SSO_ALLOWED_NETWORKS/) }));
    const allowed: UrlPolicy = { allowHttpHosts: ['127.0.0.1'], allowedNetworks: ['0.0.0.0/0', '::/0'].map((cidr) => ipaddr.parseCIDR(cidr)) };
    expect(checkOutboundUrl(url, allowed)).toBeInstanceOf(URL);
  });
});

describe('boundedFetch', () => {
  let server: Server;
  let base: string;
  let port: number;
  const received: { url: string; host: string | undefined }[] = [];
  const loopback = [ipaddr.parseCIDR('127.0.0.0/8')];
  const policy: OutboundPolicy = { ...DEFAULT_OUTBOUND_POLICY, allowHttpHosts: ['127.0.0.1'], allowedNetworks: loopback, timeoutMs: 30_000, maxResponseBytes: 1000 };
  // Only the timeout's own test waits for a timeout: a short one elsewhere failed healthy requests on a busy machine.
  const shortTimeout: OutboundPolicy = { ...policy, timeoutMs: 300 };
  /** The policy of a server whose operator allowed no internal network. */
  const publicOnly: OutboundPolicy = { ...policy, allowedNetworks: [] };

  /** A resolver that answers from a fixed table, as a DNS server under an attacker's control could. */
  function resolver(table: Record<string, string[]>): HostLookup & { calls: string[] } {
    const calls: string[] = [];
    const lookup = async (hostname: string) => {
      calls.push(hostname);
      const addresses = table[hostname];
      if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    return Object.assign(lookup, { calls });
  }

  /** What the server log receives (Nest's Logger, as in the running server). */
  const logLines: string[] = [];

  beforeAll(async () => {
    Logger.overrideLogger({ log: () => undefined, error: () => undefined, warn: (message: unknown) => void logLines.push(String(message)) });
    server = createServer((req, res) => {
      const path = req.url ?? '/';
      received.push({ url: path, host: req.headers.host });
      if (path === '/small') {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => res.end(JSON.stringify({ method: req.method, body })));
      } else if (path === '/big') {
        res.setHeader('content-type', 'application/json');
        res.write('x'.repeat(800));
        res.end('y'.repeat(800));
      } else if (path === '/big-declared') {
        res.setHeader('content-length', '5000');
        res.end('z'.repeat(5000));
      } else if (path === '/slow') {
        // Never answers (the connection is closed in afterAll): the client's timeout alone ends the request.
        void res;
      } else if (path === '/redirect-local') {
        res.writeHead(302, { location: '/small' }).end();
      } else if (path.startsWith('/redirect-to?')) {
        res.writeHead(302, { location: new URL(path, 'http://x').searchParams.get('target') ?? '/' }).end();
      } else if (path === '/loop') {
        res.writeHead(302, { location: '/loop' }).end();
      } else {
        res.writeHead(404).end('nope');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });

  beforeEach(() => {
    received.length = 0;
  });

  afterAll(async () => {
    Logger.overrideLogger(['log', 'error', 'warn']);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('returns status and text', async () => {
    const res = await boundedFetch(`${base}/small`, { method: 'POST', body: 'a=1' }, policy);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ method: 'POST', body: 'a=1' });
    const missing = await boundedFetch(`${base}/missing`, {}, policy);
    expect(missing.ok).toBe(false);
    expect(missing.status).toBe(404);
  });

  it('stops reading past the size limit, declared or streamed', async () => {
    await expect(boundedFetch(`${base}/big`, {}, policy)).rejects.toMatchObject({ reason: 'too_large', message: `Could not reach the provider at ${base}: answer too large (more than 1000 bytes).` });
    await expect(boundedFetch(`${base}/big-declared`, {}, policy)).rejects.toMatchObject({ reason: 'too_large' });
  });

  it('times out', async () => {
    await expect(boundedFetch(`${base}/slow`, {}, shortTimeout)).rejects.toMatchObject({ reason: 'timeout', message: `Could not reach the provider at ${base}: timed out after 300 ms.` });
  });

  it('follows redirects through the same checks', async () => {
    const res = await boundedFetch(`${base}/redirect-local`, {}, policy);
    expect(JSON.parse(res.text)).toEqual({ method: 'GET', body: '' });
    await expect(boundedFetch(`${base}/redirect-to?target=http://example.com/`, {}, policy)).rejects.toMatchObject({ reason: 'refused_url', message: `Could not reach the provider at ${base}: redirected to a URL that is not allowed.` });
    await expect(boundedFetch(`${base}/loop`, {}, policy)).rejects.toMatchObject({ reason: 'too_many_redirects' });
  });

  it('calls no internal address unless its network is allowed', async () => {
    for (const url of [`${base}/small`, `http://0x7f000001:${port}/small`, `http://2130706433:${port}/small`, `http://127.1:${port}/small`]) {
      await expect(boundedFetch(url, { method: 'POST', body: 'client_secret=s3cret' }, publicOnly)).rejects.toMatchObject({ reason: 'address_not_allowed' });
    }
    expect(received).toEqual([]);
  });

  it('refuses a public-looking name that resolves to an internal address, before connecting', async () => {
    const lookup = resolver({ 'idp.example.com': ['127.0.0.1'], 'mixed.example.com': ['93.184.216.34', '127.0.0.1'], 'metadata.google.internal': ['169.254.169.254'] });
    const names: OutboundPolicy = { ...publicOnly, allowHttpHosts: ['idp.example.com', 'mixed.example.com', 'metadata.google.internal'], lookup };
    for (const host of ['idp.example.com', 'mixed.example.com', 'metadata.google.internal']) {
      const failure = await boundedFetch(`http://${host}:${port}/small`, { method: 'POST', body: 'client_secret=s3cret' }, names).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OutboundFetchError);
      expect(failure).toMatchObject({ reason: 'address_not_allowed', message: `Could not reach the provider at http://${host}:${port}: address not allowed; the server only calls public addresses unless an operator allows the network in SERVICE_SSO_ALLOWED_NETWORKS.` });
      // What the name resolved to stays in the server log.
      expect((failure as Error).message).not.toMatch(/127\.0\.0\.1|169\.254/);
      expect(logLines.at(-1)).toMatch(new RegExp(`^POST http://${host}:${port}/small failed \\(address_not_allowed\\): .*${host} resolved to (127\\.0\\.0\\.1|169\\.254\\.169\\.254)`));
    }
    expect(received).toEqual([]);
  });

  it('connects to the address it checked, once resolved, with the name still in the Host header', async () => {
    const lookup = resolver({ 'idp.internal.example': ['127.0.0.1'] });
    const internalIdp: OutboundPolicy = { ...policy, allowHttpHosts: ['idp.internal.example'], lookup };
    const res = await boundedFetch(`http://idp.internal.example:${port}/small`, {}, internalIdp);
    expect(res.status).toBe(200);
    expect(received).toEqual([{ url: '/small', host: `idp.internal.example:${port}` }]);
    expect(lookup.calls).toEqual(['idp.internal.example']);
  });

  it('re-checks every redirect hop: an allowed server cannot send the call to an internal address', async () => {
    const lookup = resolver({ 'rebind.example.com': ['10.0.0.7'] });
    const onlyThisServer: OutboundPolicy = { ...policy, allowedNetworks: [ipaddr.parseCIDR('127.0.0.1/32')], allowHttpHosts: ['127.0.0.1', '127.0.0.2', 'rebind.example.com'], lookup };
    for (const target of ['https://169.254.169.254/latest/meta-data/', 'https://10.0.0.1/', 'https://[fd00::1]/', 'http://127.0.0.2/', 'https://rebind.example.com/']) {
      await expect(boundedFetch(`${base}/redirect-to?target=${encodeURIComponent(target)}`, {}, onlyThisServer)).rejects.toMatchObject({
        reason: 'address_not_allowed',
        message: expect.stringMatching(new RegExp(`^Could not reach the provider at ${base}: redirected to an address that is not allowed|^Could not reach the provider at ${base}: address not allowed`)),
      });
    }
    expect(received.map((r) => r.url.split('?')[0])).toEqual(Array(5).fill('/redirect-to'));
  });

  it('reports every connection failure in the same words: no port scanning through error texts', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    // Like PostgreSQL or Redis answering an HTTP request: the socket opens, then closes without an HTTP answer.
    const hangUp = createNetServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
    const hangUpPort = (hangUp.address() as AddressInfo).port;
    try {
      const messages: string[] = [];
      for (const url of [`http://127.0.0.1:${closedPort}/`, `http://127.0.0.1:${hangUpPort}/`, `https://127.0.0.1:${port}/`]) {
        const failure = (await boundedFetch(url, {}, policy).catch((error: unknown) => error)) as OutboundFetchError;
        expect(failure.reason).toBe('network');
        messages.push(failure.message.replace(/https?:\/\/127\.0\.0\.1:\d+/, 'ORIGIN'));
      }
      expect(new Set(messages)).toEqual(new Set(['Could not reach the provider at ORIGIN: connection failed.']));
      // The operator still learns what happened.
      expect(logLines.join('\n')).toMatch(/ECONNREFUSED[\s\S]*other side closed[\s\S]*wrong version number/);
    } finally {
      await new Promise((resolve) => hangUp.close(resolve));
    }
  });
});
