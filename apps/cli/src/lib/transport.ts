import * as http from 'node:http';
import * as https from 'node:https';
import { gzipSync } from 'node:zlib';
import type { SyncCheckRequest } from '@sc/contracts';
import { isErrorBody, plural, type ErrorDetail, type GatewayInfo, type SyncArtifactRef, type SyncBundle, type SyncCheckResult, type SyncResult } from '@sc/contracts/core';
import { ExitCode } from './exit-codes';
import { CliError, type CliProblem } from './cli-error';

export interface TransportOptions {
  /** Per-attempt limit for connecting, sending and receiving the whole answer. */
  timeoutMs: number;
  /** Retries after the first attempt (network errors and 5xx only). */
  retries: number;
  /** First backoff delay; doubles per retry, plus up to 50% jitter. */
  backoffBaseMs: number;
  /** Ceiling of one backoff delay (also caps a server's Retry-After). */
  backoffMaxMs: number;
  userAgent: string;
  /** Called before each retry (the CLI prints it). */
  onRetry?: (attempt: number, delayMs: number, reason: string) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export const DEFAULT_TRANSPORT_OPTIONS = { timeoutMs: 60_000, retries: 3, backoffBaseMs: 1_000, backoffMaxMs: 30_000 } as const;

/** The gateway's answer is small; anything bigger is not our gateway and is not buffered. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

interface HttpAnswer {
  status: number;
  body: unknown;
  retryAfterMs?: number;
}

/** A failure worth another attempt (the sync is idempotent on the server, so re-posting is safe). */
class RetryableFailure extends Error {
  constructor(message: string, readonly retryAfterMs?: number) {
    super(message);
  }
}

/**
 * POSTs the gzip-compressed bundle with `Authorization: Bearer`. Retries network errors, timeouts and 5xx
 * with exponential backoff; maps every other answer to a CliError with the documented exit code.
 */
export async function postSyncBundle(syncUrl: string, token: string, bundle: SyncBundle, options: TransportOptions): Promise<SyncResult> {
  const body = gzipSync(Buffer.from(JSON.stringify(bundle), 'utf8'));
  const answer = await requestWithRetries(syncUrl, { method: 'POST', token, body, headers: { 'Content-Encoding': 'gzip' } }, options, 'Sync');
  return interpret(answer, syncUrl);
}

/**
 * One request, retried after network errors, timeouts and 5xx with exponential backoff (the sync is idempotent on
 * the server and reads are safe, so repeating is harmless). Returns the first other answer; `what` names the
 * request in the error after the last attempt (exit 3).
 */
async function requestWithRetries(target: string, call: HttpCall, options: TransportOptions, what: string, maxBytes = MAX_RESPONSE_BYTES): Promise<HttpAnswer> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  let lastFailure = '';
  let lastRetryAfter: number | undefined;
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    if (attempt > 0) {
      const exponential = Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** (attempt - 1));
      // A server's Retry-After wins when it asks for longer, capped like every delay.
      const delay = Math.min(options.backoffMaxMs, Math.max(lastRetryAfter ?? 0, Math.round(exponential * (1 + random() / 2))));
      options.onRetry?.(attempt, delay, lastFailure);
      await sleep(delay);
    }
    let answer: HttpAnswer;
    try {
      answer = await request(target, call, options, maxBytes);
    } catch (error) {
      if (error instanceof RetryableFailure) {
        lastFailure = error.message;
        lastRetryAfter = error.retryAfterMs;
        continue;
      }
      throw error;
    }
    if (answer.status >= 500) {
      lastFailure = `the gateway answered ${answer.status}${errorMessageOf(answer.body) ? `: ${errorMessageOf(answer.body)}` : ''}`;
      lastRetryAfter = answer.retryAfterMs;
      continue;
    }
    return answer;
  }
  throw new CliError(ExitCode.ServerOrNetwork, 'gateway_unavailable', `${what} failed after ${plural(options.retries + 1, 'attempt')}: ${lastFailure}.`);
}

/** A read answer: 200 with its JSON body, or another status with the error body's code, message and details. */
export type ReadAnswer = { status: 200; body: unknown } | { status: number; code?: string; message?: string; details: CliProblem[] };

/**
 * GET of the read API with the token (`service-cli diff`), retried like the sync; `maxBytes` bounds the answer (a
 * revision's files may be as large as a sync). 401/403/other statuses are the caller's to word.
 */
export async function getWithToken(url: string, token: string, options: TransportOptions, what: string, maxBytes = MAX_RESPONSE_BYTES): Promise<ReadAnswer> {
  const answer = await requestWithRetries(url, { method: 'GET', token }, options, what, maxBytes);
  if (answer.status === 200) return { status: 200, body: answer.body };
  const message = errorMessageOf(answer.body);
  const code = codeOf(answer.body);
  return { status: answer.status, ...(code ? { code } : {}), ...(message ? { message } : {}), details: detailsOf(answer.body) };
}

/** Why a digest check gave no usable answer; the caller then validates and posts as usual. */
export type SyncCheckOutcome = { ok: true; result: SyncCheckResult } | { ok: false; reason: string };

/**
 * One attempt at POST /gateway/sync/check, never retried and never fatal: any failure (an older gateway's
 * 404, a refused token, the network) only means the full sync runs, which reports such problems itself.
 */
export async function checkSyncDigest(checkUrl: string, token: string, check: SyncCheckRequest, options: TransportOptions): Promise<SyncCheckOutcome> {
  let answer: HttpAnswer;
  try {
    answer = await request(checkUrl, { method: 'POST', token, body: Buffer.from(JSON.stringify(check), 'utf8') }, options);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (answer.status !== 200) return { ok: false, reason: `the gateway answered ${answer.status}${errorMessageOf(answer.body) ? `: ${errorMessageOf(answer.body)}` : ''}` };
  if (!isSyncCheckResult(answer.body)) return { ok: false, reason: 'the answer is not a sync check result' };
  return { ok: true, result: answer.body };
}

/** Why the handshake gave no usable answer; 404 means a gateway without GET /gateway/info. */
export type GatewayInfoOutcome = { ok: true; info: GatewayInfo } | { ok: false; status?: number; reason: string };

/**
 * One attempt at GET /gateway/info (public, no token), never retried and never fatal by itself: when the gateway
 * cannot be reached the sync that follows reports it, with its retries.
 */
export async function fetchGatewayInfo(infoUrl: string, options: Pick<TransportOptions, 'timeoutMs' | 'userAgent'>): Promise<GatewayInfoOutcome> {
  let answer: HttpAnswer;
  try {
    answer = await request(infoUrl, { method: 'GET' }, options);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (answer.status !== 200) return { ok: false, status: answer.status, reason: `the gateway answered ${answer.status}${errorMessageOf(answer.body) ? `: ${errorMessageOf(answer.body)}` : ''}` };
  if (!isGatewayInfo(answer.body)) return { ok: false, reason: 'the answer is not a gateway info document' };
  return { ok: true, info: answer.body };
}

function interpret(answer: HttpAnswer, syncUrl: string): SyncResult {
  const { status, body } = answer;
  const message = errorMessageOf(body);
  if (status === 200 || status === 201) {
    if (!isSyncResult(body)) {
      throw new CliError(ExitCode.ServerOrNetwork, 'gateway_bad_response', `The gateway answered ${status} but not with a sync result; is ${syncUrl} a system-context gateway?`);
    }
    return body;
  }
  const details = detailsOf(body);
  if (status === 401 || status === 403) {
    throw new CliError(
      ExitCode.Configuration,
      status === 401 ? 'token_rejected' : 'token_forbidden',
      status === 401
        ? `The gateway rejected SERVICE_TOKEN (401${message ? `: ${message}` : ''}). It may be revoked, expired or from another installation; create a new token with the "sync" scope.`
        : `The token may not sync (403${message ? `: ${message}` : ''}). It needs the "sync" scope in the organization that owns this service.`,
      details,
    );
  }
  if (status === 404) {
    throw new CliError(ExitCode.Configuration, 'gateway_not_found', `No sync endpoint at ${syncUrl} (404${message ? `: ${message}` : ''}). Check the gateway URL.`, details);
  }
  if (status === 400 || status === 413 || status === 422) {
    const what = status === 413 ? 'The sync is too large' : 'The gateway refused the sync';
    throw new CliError(ExitCode.Validation, codeOf(body) ?? (status === 413 ? 'payload_too_large' : 'sync_invalid'), `${what} (${status})${message ? `: ${message}` : '.'}`, details);
  }
  throw new CliError(ExitCode.ServerOrNetwork, codeOf(body) ?? 'gateway_error', `The gateway answered ${status}${message ? `: ${message}` : '.'}`, details);
}

/** What to send: a POST carries the token and a JSON body; the handshake's GET carries neither, a read's GET the token. */
type HttpCall = { method: 'POST'; token: string; body: Buffer; headers?: Record<string, string> } | { method: 'GET'; token?: string };

function request(target: string, call: HttpCall, options: Pick<TransportOptions, 'timeoutMs' | 'userAgent'>, maxBytes = MAX_RESPONSE_BYTES): Promise<HttpAnswer> {
  const url = new URL(target);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<HttpAnswer>((resolve, reject) => {
    let settled = false;
    const finish = (action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
    };
    let req: http.ClientRequest;
    try {
      req = client.request(
        url,
        {
          method: call.method,
          headers: {
            ...(call.method === 'POST'
              ? { Authorization: `Bearer ${call.token}`, 'Content-Type': 'application/json', ...call.headers, 'Content-Length': String(call.body.length) }
              : call.token
                ? { Authorization: `Bearer ${call.token}` }
                : {}),
            Accept: 'application/json',
            'User-Agent': options.userAgent,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let received = 0;
          res.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > maxBytes) {
              req.destroy();
              finish(() => reject(new CliError(ExitCode.ServerOrNetwork, 'gateway_bad_response', `The gateway's answer exceeded ${maxBytes} bytes.`)));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () =>
            finish(() => {
              const text = Buffer.concat(chunks).toString('utf8');
              let parsed: unknown = undefined;
              try {
                parsed = text ? JSON.parse(text) : undefined;
              } catch {
                parsed = undefined;
              }
              resolve({ status: res.statusCode ?? 0, body: parsed, retryAfterMs: parseRetryAfter(res.headers['retry-after']) });
            }),
          );
          res.on('error', (error) => finish(() => reject(new RetryableFailure(networkReason(error)))));
        },
      );
    } catch (error) {
      // Node refuses some requests synchronously (e.g. a header it considers invalid); not worth retrying.
      reject(new CliError(ExitCode.ServerOrNetwork, 'request_failed', `Could not send the request: ${(error as Error).message}`));
      return;
    }
    const timer = setTimeout(() => {
      req.destroy();
      finish(() => reject(new RetryableFailure(`no complete answer within ${options.timeoutMs} ms`)));
    }, options.timeoutMs);
    req.on('error', (error) => finish(() => reject(new RetryableFailure(networkReason(error)))));
    req.end(call.method === 'POST' ? call.body : undefined);
  });
}

/** Node's network error, without anything from the request (headers hold the token). */
function networkReason(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${code} (${error.message})` : error.message;
}

function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function errorMessageOf(body: unknown): string | undefined {
  return isErrorBody(body) ? body.error.message : undefined;
}

function codeOf(body: unknown): string | undefined {
  return isErrorBody(body) ? body.error.code : undefined;
}

function detailsOf(body: unknown): CliProblem[] {
  if (!isErrorBody(body) || !Array.isArray(body.error.details)) return [];
  return body.error.details.map((detail: ErrorDetail) => ({
    severity: 'error' as const,
    code: typeof detail.code === 'string' ? detail.code : body.error.code,
    message: String(detail.message ?? ''),
    ...(typeof detail.file === 'string' ? { file: detail.file } : {}),
    ...(typeof detail.line === 'number' ? { line: detail.line } : {}),
    ...(typeof detail.column === 'number' ? { column: detail.column } : {}),
    ...(typeof detail.path === 'string' ? { path: detail.path } : {}),
    ...(typeof detail['excerpt'] === 'string' ? { excerpt: detail['excerpt'] } : {}),
    ...(typeof detail['detail'] === 'string' ? { detail: detail['detail'] } : {}),
    ...(isArtifactRef(detail['artifact']) ? { artifact: `${detail['artifact'].kind} ${detail['artifact'].name}` } : {}),
  }));
}

function isArtifactRef(value: unknown): value is SyncArtifactRef {
  return typeof value === 'object' && value !== null && typeof (value as SyncArtifactRef).kind === 'string' && typeof (value as SyncArtifactRef).name === 'string';
}

function isSyncResult(body: unknown): body is SyncResult {
  if (typeof body !== 'object' || body === null) return false;
  const candidate = body as Partial<SyncResult>;
  return (
    typeof candidate.revision === 'number' &&
    Array.isArray(candidate.created) &&
    Array.isArray(candidate.updated) &&
    Array.isArray(candidate.unchanged) &&
    Array.isArray(candidate.removed) &&
    typeof candidate.serviceUrl === 'string'
  );
}

function isGatewayInfo(body: unknown): body is GatewayInfo {
  if (typeof body !== 'object' || body === null) return false;
  const candidate = body as Partial<GatewayInfo>;
  return typeof candidate.apiVersion === 'number' && typeof candidate.serverVersion === 'string' && typeof candidate.minCliVersion === 'string';
}

function isSyncCheckResult(body: unknown): body is SyncCheckResult {
  if (typeof body !== 'object' || body === null) return false;
  const candidate = body as Partial<SyncCheckResult>;
  return (
    typeof candidate.organizationId === 'string' &&
    typeof candidate.service === 'string' &&
    typeof candidate.current === 'boolean' &&
    (candidate.revision === null || typeof candidate.revision === 'number') &&
    typeof candidate.serviceUrl === 'string'
  );
}
