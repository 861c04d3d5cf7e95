import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The smallest load balancer: each request goes to the next target in turn, streamed both ways. Used where a
 * test or benchmark needs "several instances behind one address" (the public URL every instance is told);
 * production uses Caddy or nginx (docker/compose.scaled.yaml).
 */
export interface RoundRobinProxy {
  url: string;
  /** Base URLs (http://host:port) requests are spread over; may be set after the proxy starts. */
  targets: string[];
  /** How many requests each target received, by base URL. */
  counts: Map<string, number>;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(targets: string[] = []): Promise<RoundRobinProxy> {
  let next = 0;
  const proxy: RoundRobinProxy = { url: '', targets, counts: new Map(), close: () => Promise.resolve() };
  const server = createServer((incoming: IncomingMessage, answer: ServerResponse) => {
    if (proxy.targets.length === 0) {
      answer.writeHead(502).end('no targets');
      return;
    }
    const target = new URL(proxy.targets[next++ % proxy.targets.length]);
    proxy.counts.set(target.origin, (proxy.counts.get(target.origin) ?? 0) + 1);
    const forward = request({ host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers }, (upstream) => {
      answer.writeHead(upstream.statusCode ?? 502, upstream.headers);
      upstream.pipe(answer);
    });
    forward.on('error', () => (answer.headersSent ? answer.destroy() : answer.writeHead(502).end('upstream failed')));
    incoming.pipe(forward);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((closed) => {
      server.closeAllConnections();
      server.close(() => closed());
    });
  return proxy;
}
