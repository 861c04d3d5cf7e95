import { WorkerPool, startWorkerThread, type WorkerPoolErrors } from '@sc/diagram/node';
import { join } from 'node:path';
import type { PoolSettings } from './parsing.config';

/**
 * A pool of `settings.workers` threads running `worker`, a worker module of this folder named without extension (a
 * build emits its .js beside this file; from sources the thread loads it through tsx with the workspace's
 * tsconfig.node.json, which includes the libraries it imports), each job
 * stopped after `settings.timeoutMs` with `errors.timeout`.
 */
export function serverWorkerPool<Request, Result>(worker: string, settings: PoolSettings, errors: WorkerPoolErrors): WorkerPool<Request, Result> {
  return new WorkerPool({
    size: settings.workers,
    timeoutMs: settings.timeoutMs,
    createWorker: () => startWorkerThread(join(__dirname, worker), join(__dirname, '..', '..', '..', '..', '..', 'tsconfig.node.json')),
    errors,
  });
}
