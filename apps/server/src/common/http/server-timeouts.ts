import type { Server } from 'node:http';

/** SERVICE_REQUEST_TIMEOUT, SERVICE_HEADERS_TIMEOUT and SERVICE_KEEP_ALIVE_TIMEOUT, in milliseconds. */
export interface HttpTimeouts {
  /** Longest a client may take to send a whole request, body included (then 408 and the socket is closed). */
  requestMs: number;
  /** Longest a client may take to send the request headers. */
  headersMs: number;
  /** How long an idle keep-alive connection stays open after a response. */
  keepAliveMs: number;
}

/**
 * Applies the timeouts to the listening server so a slow or stalled client cannot hold a connection open
 * (Node's defaults: 300 s for a request, 60 s for headers). Must run before `listen()`.
 */
export function applyHttpTimeouts(server: Server, timeouts: HttpTimeouts): void {
  server.requestTimeout = timeouts.requestMs;
  server.headersTimeout = timeouts.headersMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  // Node enforces the request and header timeouts from a timer that runs every connectionsCheckingInterval
  // (30 s by default), so a 20 s limit could hold a socket for 50 s. The option is normally given to
  // createServer, which Nest calls without options; the timer starts on 'listening' and reads the property then.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(1_000, Math.ceil(Math.min(timeouts.headersMs, timeouts.requestMs) / 2));
}
