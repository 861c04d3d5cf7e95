/**
 * The one way the server calls URLs that an administrator typed (identity provider endpoints, discovery
 * documents): plain http only for explicitly allowed hosts, no credentials in URLs, a timeout covering the
 * whole exchange, a cap on the response size and a bounded number of redirects, each re-checked.
 */
export interface OutboundPolicy {
  /** Hosts that may be called over plain http (loopback by default); every other host needs https. */
  allowHttpHosts: readonly string[];
  timeoutMs: number;
  maxResponseBytes: number;
  maxRedirects?: number;
}

export const DEFAULT_ALLOW_HTTP_HOSTS = ['localhost', '127.0.0.1'] as const;
export const DEFAULT_OUTBOUND_POLICY: OutboundPolicy = {
  allowHttpHosts: DEFAULT_ALLOW_HTTP_HOSTS,
  timeoutMs: 10_000,
  maxResponseBytes: 1024 * 1024,
  maxRedirects: 3,
};

export type OutboundFailure = 'refused_url' | 'timeout' | 'too_large' | 'network' | 'too_many_redirects';

export class OutboundFetchError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundFetchError';
  }
}

export interface BoundedResponse {
  status: number;
  ok: boolean;
  url: string;
  headers: Headers;
  text: string;
}

export interface BoundedRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/** Parses and checks a URL against the policy; throws OutboundFetchError('refused_url') with the reason. */
export function checkOutboundUrl(raw: string, allowHttpHosts: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundFetchError('refused_url', `"${raw}" is not an absolute URL.`);
  }
  if (url.username || url.password) {
    throw new OutboundFetchError('refused_url', `${url.origin} must not carry a user name or password in the URL.`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:') {
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (allowHttpHosts.some((allowed) => allowed.toLowerCase() === host)) return url;
    throw new OutboundFetchError(
      'refused_url',
      `${url.origin} uses plain http; use https (only ${allowHttpHosts.join(', ') || 'no hosts'} may use http, see SERVICE_SSO_ALLOW_HTTP_HOSTS).`,
    );
  }
  throw new OutboundFetchError('refused_url', `${url.protocol} URLs are not allowed; use https.`);
}

export async function boundedFetch(rawUrl: string, request: BoundedRequest, policy: OutboundPolicy): Promise<BoundedResponse> {
  const signal = AbortSignal.timeout(policy.timeoutMs);
  const maxRedirects = policy.maxRedirects ?? 3;
  let url = checkOutboundUrl(rawUrl, policy.allowHttpHosts);
  try {
    for (let hop = 0; ; hop++) {
      const response = await fetch(url, {
        method: request.method ?? 'GET',
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal,
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= maxRedirects) throw new OutboundFetchError('too_many_redirects', `${url.origin} redirected more than ${maxRedirects} times.`);
        // A redirect may point anywhere, so it goes through the same checks; a POST body is not replayed.
        url = checkOutboundUrl(new URL(location, url).toString(), policy.allowHttpHosts);
        if ((request.method ?? 'GET') === 'POST' && response.status !== 307 && response.status !== 308) {
          request = { ...request, method: 'GET', body: undefined };
        }
        continue;
      }
      const text = await readLimited(response, policy.maxResponseBytes, url);
      return { status: response.status, ok: response.ok, url: url.toString(), headers: response.headers, text };
    }
  } catch (error) {
    if (error instanceof OutboundFetchError) throw error;
    if (signal.aborted) {
      throw new OutboundFetchError('timeout', `${url.origin} did not answer within ${policy.timeoutMs} ms.`);
    }
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    throw new OutboundFetchError('network', `Could not reach ${url.origin}: ${cause}.`);
  }
}

async function readLimited(response: Response, maxBytes: number, url: URL): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(url, maxBytes);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(url, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(url: URL, maxBytes: number): OutboundFetchError {
  return new OutboundFetchError('too_large', `${url.origin} answered with more than ${maxBytes} bytes.`);
}

/** Parses JSON from a bounded response, or returns undefined when it is not JSON. */
export function parseJsonBody(response: BoundedResponse): unknown {
  try {
    return JSON.parse(response.text) as unknown;
  } catch {
    return undefined;
  }
}
