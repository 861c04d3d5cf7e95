import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestBrowser } from './browser';
import { readBody } from './read-body';

/**
 * The test browser against a real loopback server: the SSO suites rely on it keeping cookies by path,
 * dropping expired ones, holding a redirect, and on readBody returning the whole form.
 */
describe('TestBrowser', () => {
  let server: Server;
  let origin: string;
  const seen: { path: string; cookie: string | undefined; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      void readBody(req).then((body) => {
        const url = new URL(req.url ?? '/', origin);
        seen.push({ path: url.pathname, cookie: req.headers.cookie, body });
        if (url.pathname === '/start') {
          res.setHeader('set-cookie', ['scoped=1; Path=/callback; HttpOnly', 'site=2; Path=/']);
          res.writeHead(302, { location: '/callback/done?code=abc' }).end();
        } else if (url.pathname === '/forget') {
          res.setHeader('set-cookie', 'site=; Path=/; Max-Age=0');
          res.writeHead(200).end('forgotten');
        } else {
          res.writeHead(200, { 'content-type': 'text/plain' }).end(`at ${url.pathname}`);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('follows redirects, sending each cookie only under its path', async () => {
    const browser = new TestBrowser();
    const page = await browser.follow(`${origin}/start`);
    expect(page).toMatchObject({ status: 200, text: 'at /callback/done' });
    expect(seen.at(-1)?.cookie).toBe('scoped=1; site=2');
    await browser.request(`${origin}/elsewhere`);
    expect(seen.at(-1)?.cookie).toBe('site=2');
  });

  it('holds a redirect when told to stop before it', async () => {
    const page = await new TestBrowser().follow(`${origin}/start`, { stopBefore: (url) => url.pathname.startsWith('/callback/') });
    expect(page.status).toBe(302);
    expect(page.stoppedAt).toBe(`${origin}/callback/done?code=abc`);
  });

  it('drops a cookie the server expires, and posts forms whole', async () => {
    const browser = new TestBrowser();
    await browser.follow(`${origin}/start`);
    expect(browser.cookie('127.0.0.1', 'site')).toBe('2');
    await browser.request(`${origin}/forget`);
    expect(browser.cookie('127.0.0.1', 'site')).toBeUndefined();
    await browser.request(`${origin}/form`, { form: { login: 'ada', note: 'a&b=c' } });
    expect(seen.at(-1)?.body).toBe('login=ada&note=a%26b%3Dc');
  });
});
