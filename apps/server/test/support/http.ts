import { request } from 'node:http';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, type ErrorBody } from '@sc/contracts';

/** What a signed-in browser sends: the cookie header and the CSRF header value. */
export interface SessionCredentials {
  cookieHeader: string;
  csrfToken: string;
}

/** Headers of a cookie-authenticated request (CSRF included, so state-changing calls pass). */
export function sessionHeaders(credentials: SessionCredentials): Record<string, string> {
  return { cookie: credentials.cookieHeader, [CSRF_HEADER]: credentials.csrfToken };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** name → value of the Set-Cookie headers of a response (attributes dropped). */
export function cookiesOf(setCookie: string[] | string | undefined): Record<string, string> {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return Object.fromEntries(list.map((cookie) => {
    const [pair] = cookie.split(';');
    const index = pair.indexOf('=');
    return [pair.slice(0, index).trim(), decodeURIComponent(pair.slice(index + 1).trim())];
  }));
}

/** Session credentials from a response that started a session (setup, sign-in link, SSO callback). */
export function sessionFrom(setCookie: string[] | string | undefined): SessionCredentials {
  const cookies = cookiesOf(setCookie);
  const session = cookies[SESSION_COOKIE];
  const csrf = cookies[CSRF_COOKIE];
  if (!session || !csrf) throw new Error(`The response did not start a session (Set-Cookie: ${JSON.stringify(setCookie)}).`);
  return { cookieHeader: `${SESSION_COOKIE}=${session}; ${CSRF_COOKIE}=${csrf}`, csrfToken: csrf };
}

export interface JsonResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  setCookie: string[];
}

/** fetch + JSON for tests: never follows redirects, so Location and Set-Cookie stay visible. */
export async function call<T = unknown>(baseUrl: string, method: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}): Promise<JsonResponse<T>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    redirect: 'manual',
    headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (HTML of the SPA, redirects): keep the text.
  }
  return { status: response.status, body: body as T, headers: response.headers, setCookie: response.headers.getSetCookie() };
}

/** Expects an error answer: the status and the error code compared together, so a failure shows both. */
/** Any answer (a route that answers another body when it succeeds too) must be this error. */
export function expectError(response: { status: number; body: unknown }, status: number, code: string): void {
  expect([response.status, (response.body as Partial<ErrorBody> | null)?.error?.code]).toEqual([status, code]);
}

/** One row of an error table: what a GET of the path must answer. */
export type ErrorCase = [path: string, status: number, code: string];

/**
 * GETs each path through `read` and expects its error, in table order; the path is part of the comparison so a
 * failure names its row. Returns the responses for checks beyond status and code.
 */
export async function expectErrors(read: (path: string) => Promise<JsonResponse<ErrorBody>>, cases: ErrorCase[]): Promise<JsonResponse<ErrorBody>[]> {
  const responses: JsonResponse<ErrorBody>[] = [];
  for (const [path, status, code] of cases) {
    const response = await read(path);
    expect([path, response.status, response.body.error.code]).toEqual([path, status, code]);
    responses.push(response);
  }
  return responses;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent, before any decoding. */
  body: Buffer;
}

/** A GET that shows the answer as it travelled (fetch would decode it and hide Content-Encoding). */
export function rawGet(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
