/**
 * A small browser for tests: keeps cookies per host (like browsers, ports do not separate cookies; the
 * Path and Max-Age/Expires attributes are honoured), follows redirects one hop at a time and can stop
 * before a URL, so a test can hold a callback URL and replay it.
 */
export interface Page {
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

interface StoredCookie {
  value: string;
  path: string;
  expires: number | null;
}

export class TestBrowser {
  private readonly jar = new Map<string, Map<string, StoredCookie>>();

  constructor(private readonly extraHeaders: Record<string, string> = {}) {}

  /** One request, no redirect following. */
  async request(url: string, init: { method?: string; form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {}): Promise<Page> {
    const target = new URL(url);
    const headers: Record<string, string> = { ...this.extraHeaders, ...init.headers };
    const cookie = this.cookieHeader(target);
    if (cookie) headers['cookie'] = cookie;
    let body: string | undefined;
    if (init.form) {
      body = new URLSearchParams(init.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(target, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    this.store(target, response.headers.getSetCookie());
    return { url: target.toString(), status: response.status, headers: response.headers, text: await response.text() };
  }

  /** Follows redirects until a non-redirect answer, or until `stopBefore(url)` says to hold a Location. */
  async follow(url: string, options: { stopBefore?: (url: URL) => boolean; maxHops?: number; first?: { method?: string; form?: Record<string, string> } } = {}): Promise<Page & { stoppedAt?: string }> {
    let page = await this.request(url, options.first);
    for (let hop = 0; hop < (options.maxHops ?? 20); hop++) {
      const location = page.headers.get('location');
      if (page.status < 300 || page.status >= 400 || !location) return page;
      const next = new URL(location, page.url);
      if (options.stopBefore?.(next)) return { ...page, stoppedAt: next.toString() };
      page = await this.request(next.toString());
    }
    throw new Error(`Too many redirects from ${url}`);
  }

  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name)?.value;
  }

  setCookie(host: string, name: string, value: string, path = '/'): void {
    this.hostJar(host).set(name, { value, path, expires: null });
  }

  deleteCookie(host: string, name: string): void {
    this.jar.get(host)?.delete(name);
  }

  cookieHeader(url: URL): string {
    const now = Date.now();
    const cookies = [...(this.jar.get(url.hostname) ?? new Map<string, StoredCookie>()).entries()].filter(
      ([, c]) => (c.expires === null || c.expires > now) && (url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`)),
    );
    return cookies.map(([name, c]) => `${name}=${c.value}`).join('; ');
  }

  private hostJar(host: string): Map<string, StoredCookie> {
    let jar = this.jar.get(host);
    if (!jar) this.jar.set(host, (jar = new Map()));
    return jar;
  }

  private store(url: URL, setCookies: string[]): void {
    for (const header of setCookies) {
      const [pair, ...attributes] = header.split(';').map((part) => part.trim());
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      let path = '/';
      let expires: number | null = null;
      for (const attribute of attributes) {
        const [key, ...rest] = attribute.split('=');
        const attrValue = rest.join('=');
        if (key.toLowerCase() === 'path') path = attrValue || '/';
        if (key.toLowerCase() === 'max-age') expires = Date.now() + Number(attrValue) * 1000;
        if (key.toLowerCase() === 'expires' && expires === null) expires = Date.parse(attrValue);
      }
      if (expires !== null && expires <= Date.now()) this.jar.get(url.hostname)?.delete(name);
      else this.hostJar(url.hostname).set(name, { value, path, expires });
    }
  }
}
