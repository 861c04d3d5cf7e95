/**
 * Worker thread entry of MermaidWorkerPool: parses Mermaid off the caller's event loop. Mermaid is loaded once per
 * worker (and warmed right away) so the first real parse does not pay for it.
 *
 * The pool imports the request type below (type-only), which also makes every program that compiles the pool
 * emit this file next to it.
 */
import { parseMermaid } from './parse-mermaid';
import { serveWorkerJobs } from './worker-thread';

/** Pool → worker. */
export interface MermaidParseRequest {
  source: string;
  maxBytes: number;
}

void parseMermaid('flowchart LR\n  warm --> up\n');

serveWorkerJobs((request: MermaidParseRequest) => parseMermaid(request.source, { maxBytes: request.maxBytes }));
