/**
 * The thread side of WorkerPool (worker-pool.ts). Kept apart from the pool so a worker entry imports only this
 * file's few lines, not the pool or Mermaid.
 */
import { parentPort } from 'node:worker_threads';

/** Pool → thread. */
export interface WorkerJob<Request> {
  id: number;
  request: Request;
}

/** Thread → pool: the job's result, or the message of an unexpected failure. */
export type WorkerAnswer<Result> = { id: number; result: Result } | { id: number; failure: string };

/** Answers every job the pool posts to this thread with `handle`'s result. Call once, from a worker entry. */
export function serveWorkerJobs<Request, Result>(handle: (request: Request) => Result | Promise<Result>): void {
  const port = parentPort;
  if (!port) throw new Error('serveWorkerJobs must run in a worker thread.');
  port.on('message', async ({ id, request }: WorkerJob<Request>) => {
    let answer: WorkerAnswer<Result>;
    try {
      answer = { id, result: await handle(request) };
    } catch (error) {
      answer = { id, failure: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(answer);
  });
}
