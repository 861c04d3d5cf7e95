import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { boundedFetch, checkOutboundUrl, DEFAULT_OUTBOUND_POLICY, OutboundFetchError, OutboundPolicy } from './bounded-fetch';

describe('checkOutboundUrl', () => {
  const allow = ['localhost', '127.0.0.1'];

  it('accepts https anywhere and http on allowed hosts', () => {
    expect(checkOutboundUrl('https://idp.example.com/token?x=1', allow).searchParams.get('x')).toBe('1');
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

  it('refuses http on loopback when the allow list is empty', () => {
    expect(() => checkOutboundUrl('http://127.0.0.1/', [])).toThrow(OutboundFetchError);
  });
});

describe('boundedFetch', () => {
  let server: Server;
  let base: string;
  const policy: OutboundPolicy = { ...DEFAULT_OUTBOUND_POLICY, timeoutMs: 300, maxResponseBytes: 1000 };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? '/';
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
        setTimeout(() => res.end('late'), 2000).unref();
      } else if (path === '/redirect-local') {
        res.writeHead(302, { location: '/small' }).end();
      } else if (path === '/redirect-http') {
        res.writeHead(302, { location: 'http://example.com/' }).end();
      } else if (path === '/loop') {
        res.writeHead(302, { location: '/loop' }).end();
      } else {
        res.writeHead(404).end('nope');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
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
    await expect(boundedFetch(`${base}/big`, {}, policy)).rejects.toMatchObject({ reason: 'too_large' });
    await expect(boundedFetch(`${base}/big-declared`, {}, policy)).rejects.toMatchObject({ reason: 'too_large' });
  });

  it('times out', async () => {
    await expect(boundedFetch(`${base}/slow`, {}, policy)).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('follows redirects through the same checks', async () => {
    const res = await boundedFetch(`${base}/redirect-local`, {}, policy);
    expect(JSON.parse(res.text)).toEqual({ method: 'GET', body: '' });
    await expect(boundedFetch(`${base}/redirect-http`, {}, policy)).rejects.toMatchObject({ reason: 'refused_url' });
    await expect(boundedFetch(`${base}/loop`, {}, policy)).rejects.toMatchObject({ reason: 'too_many_redirects' });
  });

  it('reports unreachable hosts as network failures', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(boundedFetch(`http://127.0.0.1:${port}/`, {}, policy)).rejects.toMatchObject({ reason: 'network' });
  });
});
