import { Logger } from '@nestjs/common';
import { lookup as systemLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Headers, Response } from 'undici';
import { AllowedNetwork, isIpLiteral, refusedRange, unbracket } from './outbound-address';

/**
 * The one way the server calls URLs that an administrator typed (identity provider endpoints, discovery
 * documents): public addresses only unless an operator allowed the network, plain http only for hosts an
 * operator listed, no credentials in URLs, a timeout covering the whole exchange, a cap on the response size
 * and a bounded number of redirects, each re-checked. The address a name resolves to is checked inside the
 * socket's own lookup, so the address checked is the address connected to (no DNS rebinding between check
 * and connect); TLS still verifies the certificate against the host name.
 */
export interface OutboundPolicy {
  /** Hosts that may be called over plain http (none by default); every other host needs https. */
  allowHttpHosts: readonly string[];
  /** Internal networks an operator allowed (SERVICE_SSO_ALLOWED_NETWORKS); everything else must be public. */
  allowedNetworks: readonly AllowedNetwork[];
  timeoutMs: number;
  maxResponseBytes: number;
  maxRedirects?: number;
  /** Resolves a host name to every address; the system resolver unless a test makes a name point elsewhere. */
  lookup?: HostLookup;
}

export type HostLookup = (hostname: string) => Promise<LookupAddress[]>;

export const DEFAULT_OUTBOUND_POLICY: OutboundPolicy = {
  allowHttpHosts: [],
  allowedNetworks: [],
  timeoutMs: 10_000,
  maxResponseBytes: 1024 * 1024,
  maxRedirects: 3,
};

/** The URL rules that need no network: what a provider's settings are checked against when saved. */
export type UrlPolicy = Pick<OutboundPolicy, 'allowHttpHosts' | 'allowedNetworks'>;

export type OutboundFailure = 'refused_url' | 'address_not_allowed' | 'timeout' | 'too_large' | 'network' | 'too_many_redirects';

/**
 * `message` is shown to administrators: it names only what they typed (the origin) and a generic reason,
 * never what the far side answered or how a connection failed, so it cannot map ports or echo internal
 * answers. The detail goes to the server log.
 */
export class OutboundFetchError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string,
    cause?: Error,
  ) {
    super(message, { cause });
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

const ALLOW_NETWORKS_HINT = 'the server only calls public addresses unless an operator allows the network in SERVICE_SSO_ALLOWED_NETWORKS';
const logger = new Logger('OutboundCall');

/** Parses and checks a URL against the policy; throws OutboundFetchError('refused_url' or 'address_not_allowed'). */
export function checkOutboundUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundFetchError('refused_url', `"${raw}" is not an absolute URL.`);
  }
  if (url.username || url.password) {
    throw new OutboundFetchError('refused_url', `${url.origin} must not carry a user name or password in the URL.`);
  }
  if (url.protocol === 'http:') {
    const host = unbracket(url.hostname).toLowerCase();
    if (!policy.allowHttpHosts.some((allowed) => unbracket(allowed).toLowerCase() === host)) {
      const hosts = policy.allowHttpHosts;
      const allowed =
        hosts.length === 0
          ? 'no host may use http unless an operator lists it in SERVICE_SSO_ALLOW_HTTP_HOSTS'
          : `only ${new Intl.ListFormat('en', { type: 'conjunction' }).format(hosts)} may use http, see SERVICE_SSO_ALLOW_HTTP_HOSTS`;
      throw new OutboundFetchError('refused_url', `${url.origin} uses plain http; use https (${allowed}).`);
    }
  } else if (url.protocol !== 'https:') {
    throw new OutboundFetchError('refused_url', `${url.protocol} URLs are not allowed; use https.`);
  }
  // An address typed as a number is connected to without a lookup, so it is checked here. The URL parser has
  // already turned 0x7f000001, 2130706433, 017700000001 and 127.1 into 127.0.0.1.
  if (isIpLiteral(url.hostname)) {
    const range = refusedRange(unbracket(url.hostname), policy.allowedNetworks);
    if (range) throw new OutboundFetchError('address_not_allowed', `${url.origin} is not a public address (${range}); ${ALLOW_NETWORKS_HINT}.`);
  }
  return url;
}

/** A name resolved to an address the policy refuses; raised inside the socket's lookup. */
class AddressRefusedError extends Error {
  constructor(hostname: string, address: string, range: string) {
    super(`${hostname} resolved to ${address} (${range})`);
  }
}

/**
 * The socket's lookup: resolves the name, refuses it when any of its addresses is refused (a name that mixes
 * public and internal addresses is not trusted), and hands the checked addresses to the socket.
 */
function checkedLookup(policy: OutboundPolicy) {
  const resolve = policy.lookup ?? ((hostname: string) => systemLookup(hostname, { all: true, verbatim: true }));
  return (hostname: string, options: LookupOptions, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void): void => {
    resolve(hostname).then(
      (addresses) => {
        for (const { address } of addresses) {
          const range = refusedRange(address, policy.allowedNetworks);
          if (range) return callback(new AddressRefusedError(hostname, address, range), '');
        }
        const usable = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
        if (usable.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        if (options.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (error: Error) => callback(error, ''),
    );
  };
}

export async function boundedFetch(rawUrl: string, request: BoundedRequest, policy: OutboundPolicy): Promise<BoundedResponse> {
  const maxRedirects = policy.maxRedirects ?? 3;
  const configured = checkOutboundUrl(rawUrl, policy);
  // Messages name the origin the administrator configured, never where a redirect led.
  const origin = configured.origin;
  let url = configured;
  // Imported at the first outbound call, not at startup: requiring undici took about 0.5 s of every server start
  // and of every integration test file (measured inside Jest), and only SSO providers' calls use it. Before the
  // timeout starts, so loading it does not count against the far side.
  const { Agent, fetch } = await import('undici');
  const signal = AbortSignal.timeout(policy.timeoutMs);
  const dispatcher = new Agent({ connect: { lookup: checkedLookup(policy) } });
  try {
    for (let hop = 0; ; hop++) {
      const response = await fetch(url, {
        method: request.method ?? 'GET',
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal,
        dispatcher,
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= maxRedirects) throw failure('too_many_redirects', origin, `more than ${maxRedirects} redirects`);
        // A redirect may point anywhere, so it goes through the same checks; a POST body is not replayed.
        url = checkRedirect(new URL(location, url).toString(), policy, origin);
        if ((request.method ?? 'GET') === 'POST' && response.status !== 307 && response.status !== 308) {
          request = { ...request, method: 'GET', body: undefined };
        }
        continue;
      }
      const text = await readLimited(response, policy.maxResponseBytes, origin);
      return { status: response.status, ok: response.ok, url: url.toString(), headers: response.headers, text };
    }
  } catch (error) {
    const shown =
      error instanceof OutboundFetchError
        ? error
        : causes(error).some((cause) => cause instanceof AddressRefusedError)
          ? failure('address_not_allowed', origin, `address not allowed; ${ALLOW_NETWORKS_HINT}`)
          : signal.aborted
            ? failure('timeout', origin, `timed out after ${policy.timeoutMs} ms`)
            : failure('network', origin, 'connection failed');
    // The operator's side of the story: where the call went and how it failed (no query, headers or body).
    logger.warn(`${request.method ?? 'GET'} ${url.origin}${url.pathname} failed (${shown.reason}): ${explain(error)}`);
    throw shown;
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}

function checkRedirect(target: string, policy: OutboundPolicy, origin: string): URL {
  try {
    return checkOutboundUrl(target, policy);
  } catch (error) {
    if (!(error instanceof OutboundFetchError)) throw error;
    const what = error.reason === 'address_not_allowed' ? `redirected to an address that is not allowed; ${ALLOW_NETWORKS_HINT}` : 'redirected to a URL that is not allowed';
    throw failure(error.reason, origin, what, error);
  }
}

function failure(reason: OutboundFailure, origin: string, what: string, cause?: Error): OutboundFetchError {
  return new OutboundFetchError(reason, `Could not reach the provider at ${origin}: ${what}.`, cause);
}

/** The whole cause chain of an error: fetch wraps the socket's error in a TypeError("fetch failed"). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && chain.length < 5; current = current instanceof Error ? current.cause : undefined) chain.push(current);
  return chain;
}

function explain(error: unknown): string {
  return causes(error)
    .map((cause) => (cause instanceof Error ? `${cause.message}${'code' in cause && cause.code ? ` [${String(cause.code)}]` : ''}` : String(cause)))
    .join(' ← ');
}

async function readLimited(response: Response, maxBytes: number, origin: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(origin, maxBytes);
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
      throw tooLarge(origin, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(origin: string, maxBytes: number): OutboundFetchError {
  return failure('too_large', origin, `answer too large (more than ${maxBytes} bytes)`);
}

/** Parses JSON from a bounded response, or returns undefined when it is not JSON. */
export function parseJsonBody(response: BoundedResponse): unknown {
  try {
    return JSON.parse(response.text) as unknown;
  } catch {
    return undefined;
  }
}
