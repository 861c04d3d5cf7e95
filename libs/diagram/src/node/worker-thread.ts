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

/** Thread → pool, once: the thread has loaded and takes jobs from now on. */
export interface WorkerReady {
  ready: true;
}

/**
 * Answers every job the pool posts to this thread with `handle`'s result. Call once, from a worker entry, after its
 * imports: the thread then tells the pool it is ready (after `options.ready` settles, for a thread that loads more,
 * such as a WebAssembly parser), and only then does the pool send it jobs and start their timeouts.
 */
export function serveWorkerJobs<Request, Result>(handle: (request: Request) => Result | Promise<Result>, options: { ready?: Promise<unknown> } = {}): void {
  const port = parentPort;
  if (!port) throw new Error('serveWorkerJobs must run in a worker thread.');
  // A failed load is not this message's business: the job that needs what failed reports it.
  void Promise.resolve(options.ready)
    .catch(() => undefined)
    .then(() => port.postMessage({ ready: true } satisfies WorkerReady));
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
