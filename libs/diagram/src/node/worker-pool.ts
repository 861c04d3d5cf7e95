import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { MermaidParseRequest } from './mermaid-worker';
import type { ParseMermaidResult } from './parse-mermaid';
import type { WorkerAnswer, WorkerJob } from './worker-thread';

/** Why a pooled parse produced no result. The server maps these to its domain errors (422 and 503). */
export enum MermaidPoolErrorCode {
  /** The parse ran longer than the timeout; its thread was replaced. */
  ParseTimeout = 'diagram_parse_timeout',
  /** A parser thread died or the pool is closing; retrying later can succeed. */
  ParserUnavailable = 'diagram_parser_unavailable',
}

export class MermaidPoolError extends Error {
  constructor(
    readonly code: MermaidPoolErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MermaidPoolError';
  }
}

export interface WorkerPoolOptions {
  size: number;
  timeoutMs: number;
  /** Creates one worker thread; tests may substitute their own. */
  createWorker?: () => Worker;
}

/** The errors a pool rejects with; each user of WorkerPool names its own (codes, wording). */
export interface WorkerPoolErrors {
  /** The job ran longer than `timeoutMs`; its thread was terminated and replaced. */
  timeout(timeoutMs: number): Error;
  /** A thread crashed or exited, the job threw in the thread, or the pool is closing; retrying later can succeed. */
  unavailable(reason: string): Error;
}

interface Job<Request, Result> {
  message: WorkerJob<Request>;
  timeoutMs: number;
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

interface Slot<Request, Result> {
  worker: Worker;
  job?: Job<Request, Result>;
  timer?: NodeJS.Timeout;
}

/**
 * Starts the worker thread whose entry is `file` (an absolute path without extension). A build emits `file.js`
 * next to the module that names it; when running from TypeScript sources (ts-jest, ts-node) there is no .js
 * file, so the thread registers ts-node (transpile only, with `tsProject`) and tsconfig-paths (for `@sc/…`
 * imports) first.
 */
export function startWorkerThread(file: string, tsProject: string): Worker {
  const compiled = `${file}.js`;
  if (existsSync(compiled)) return new Worker(compiled);
  const bootstrap = `
    process.env.TS_NODE_PROJECT = ${JSON.stringify(tsProject)};
    require('ts-node').register({ transpileOnly: true });
    require('tsconfig-paths/register');
    require(${JSON.stringify(`${file}.ts`)});
  `;
  return new Worker(bootstrap, { eval: true });
}

/** Starts a Mermaid parser thread (mermaid-worker.js, emitted next to this file in the server's and the CLI's builds). */
export function createParserWorker(): Worker {
  return startWorkerThread(join(__dirname, 'mermaid-worker'), join(__dirname, '..', '..', 'tsconfig.lib.json'));
}

/**
 * A fixed pool of worker threads for CPU-heavy jobs that must not block the caller's event loop. Each thread
 * runs one job at a time; others wait in a FIFO queue. A job that overruns its timeout cannot be interrupted
 * inside a synchronous parser, so its thread is terminated and replaced, and the caller gets `errors.timeout`.
 * The thread's side is `serveWorkerJobs` (worker-thread.ts).
 */
export class WorkerPool<Request, Result> {
  private readonly slots: Slot<Request, Result>[] = [];
  private readonly queue: Job<Request, Result>[] = [];
  private nextId = 1;
  private closed = false;
  private started = false;

  constructor(private readonly options: Required<WorkerPoolOptions> & { errors: WorkerPoolErrors }) {}

  /** Threads start on first use: a server (or test app) that never runs a job never pays for them. */
  private start(): void {
    if (this.started) return;
    this.started = true;
    for (let i = 0; i < this.options.size; i++) this.slots.push(this.spawn());
  }

  /** `timeoutMs` overrides the pool's timeout for this job. */
  run(request: Request, timeoutMs = this.options.timeoutMs): Promise<Result> {
    if (this.closed) return Promise.reject(this.shuttingDown());
    this.start();
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ message: { id: this.nextId++, request }, timeoutMs, resolve, reject });
      this.dispatch();
    });
  }

  /** Jobs waiting for a free thread (for diagnostics and tests). */
  get pending(): number {
    return this.queue.length;
  }

  /** Not closed, and every thread running (threads not yet started on first use count as up). */
  get up(): boolean {
    return !this.closed && (!this.started || this.slots.length === this.options.size);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(this.shuttingDown());
    await Promise.all(
      this.slots.map(async (slot) => {
        this.finish(slot)?.reject(this.shuttingDown());
        await slot.worker.terminate();
      }),
    );
  }

  private shuttingDown(): Error {
    return this.options.errors.unavailable('the pool is shutting down');
  }

  private spawn(): Slot<Request, Result> {
    const slot: Slot<Request, Result> = { worker: this.options.createWorker() };
    const { errors } = this.options;
    slot.worker.on('message', (answer: WorkerAnswer<Result>) => {
      if (slot.job?.message.id !== answer.id) return;
      const job = this.finish(slot);
      if ('result' in answer) job?.resolve(answer.result);
      else job?.reject(errors.unavailable(`the job failed: ${answer.failure}`));
      this.dispatch();
    });
    slot.worker.on('error', (error) => this.replace(slot, errors.unavailable(`a thread crashed: ${error.message}`)));
    slot.worker.on('exit', () => {
      if (!this.closed && this.slots.includes(slot)) this.replace(slot, errors.unavailable('a thread exited'));
    });
    // An idle thread must not keep the process alive; a busy one must, until its answer arrives.
    slot.worker.unref();
    return slot;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.job) continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.job = job;
      slot.worker.ref();
      slot.timer = setTimeout(() => this.replace(slot, this.options.errors.timeout(job.timeoutMs)), job.timeoutMs);
      slot.worker.postMessage(job.message);
    }
  }

  private finish(slot: Slot<Request, Result>): Job<Request, Result> | undefined {
    const job = slot.job;
    slot.worker.unref();
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    return job;
  }

  /** Fails the slot's current job with `error`, kills its thread and starts a fresh one. */
  private replace(slot: Slot<Request, Result>, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.finish(slot)?.reject(error);
    this.slots.splice(index, 1);
    void slot.worker.terminate();
    if (this.closed) return;
    this.slots.push(this.spawn());
    this.dispatch();
  }
}

const MERMAID_POOL_ERRORS: WorkerPoolErrors = {
  timeout: (timeoutMs) =>
    new MermaidPoolError(MermaidPoolErrorCode.ParseTimeout, `Parsing the diagram took longer than ${timeoutMs} ms and was stopped. Split the diagram or simplify it.`),
  unavailable: (reason) => new MermaidPoolError(MermaidPoolErrorCode.ParserUnavailable, `The diagram parser is unavailable: ${reason}.`),
};

/**
 * Mermaid parser threads. The server parses every synced diagram here (SERVICE_MERMAID_WORKERS threads) so a
 * large one never blocks its event loop; `service-cli sync` parses here too, min(2, cpus) threads, to validate a
 * repository before sending.
 */
export class MermaidWorkerPool extends WorkerPool<MermaidParseRequest, ParseMermaidResult> {
  constructor(options: WorkerPoolOptions) {
    super({ ...options, createWorker: options.createWorker ?? createParserWorker, errors: MERMAID_POOL_ERRORS });
  }

  /** `timeoutMs` overrides the pool's timeout for this parse. */
  parse(source: string, maxBytes: number, timeoutMs?: number): Promise<ParseMermaidResult> {
    return this.run({ source, maxBytes }, timeoutMs);
  }
}
