/**
 * Worker thread entry: parses Mermaid off the server's event loop. Mermaid is loaded once per
 * worker (and warmed right away) so the first real parse does not pay for it.
 */
import { parentPort } from 'node:worker_threads';
import { parseMermaid } from '@sc/diagram/node';
import type { ParseRequest, ParseResponse } from './mermaid-parse.protocol';

const port = parentPort;
if (!port) throw new Error('mermaid-parse.worker must run in a worker thread.');

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
