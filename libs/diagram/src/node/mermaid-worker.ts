/**
 * Worker thread entry of MermaidWorkerPool: parses Mermaid off the caller's event loop. Mermaid is loaded once per
 * worker (and warmed right away) so the first real parse does not pay for it.
 *
 * The pool imports the message types below (type-only), which also makes every program that compiles the pool
 * emit this file next to it.
 */
import { parentPort } from 'node:worker_threads';
import { parseMermaid, type ParseMermaidResult } from './parse-mermaid';

/** Pool → worker. */
export interface ParseRequest {
  id: number;
  source: string;
  maxBytes: number;
}

/** Worker → pool: the parse result, or the message of an unexpected failure. */
export type ParseResponse = { id: number; result: ParseMermaidResult } | { id: number; failure: string };

const port = parentPort;
if (!port) throw new Error('mermaid-worker must run in a worker thread.');

void parseMermaid('flowchart LR\n  warm --> up\n');

port.on('message', async (request: ParseRequest) => {
  let response: ParseResponse;
  try {
    response = { id: request.id, result: await parseMermaid(request.source, { maxBytes: request.maxBytes }) };
  } catch (error) {
    response = { id: request.id, failure: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(response);
});
