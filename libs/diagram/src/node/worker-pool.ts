import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { MermaidParseRequest } from './mermaid-worker';
import type { ParseMermaidResult } from './parse-mermaid';
import type { WorkerAnswer, WorkerJob, WorkerReady } from './worker-thread';

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
  /** How long one job may run, counted from when a ready thread takes it (never the thread's own start). */
  timeoutMs: number;
  /**
   * How long a thread may take to start (load its modules) before it is stopped and the jobs waiting for it fail.
   * Generous: a parser thread loads jsdom and Mermaid, which took over 20 s of a 2-core machine at load 25.
   */
  startTimeoutMs?: number;
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
  /** Set by the thread's ready message; until then the slot takes no job. */
  ready: boolean;
  /** Stops a thread that does not get ready in time. */
  startTimer?: NodeJS.Timeout;
  job?: Job<Request, Result>;
  timer?: NodeJS.Timeout;
}

export const DEFAULT_WORKER_START_TIMEOUT_MS = 120_000;

/**
 * Starts the worker thread whose entry is `file` (an absolute path without extension). A build emits `file.js`
 * next to the module that names it; when running from TypeScript sources (Jest, ts-node) there is no .js file, so
 * the thread first registers tsx's CommonJS loader, which transpiles each module with esbuild. tsx rather than
 * ts-node: loading TypeScript's compiler cost every thread start about 1.3 to 3.5 CPU-seconds more. `tsconfig` is an
 * absolute path to a tsconfig.json whose `paths` map the `@sc/…` imports and whose files include the worker's whole
 * import graph, libraries too: tsx applies its compilerOptions (`useDefineForClassFields`, …) only to the files it
 * includes. esbuild emits no decorator metadata, which no worker's import graph needs.
 */
export function startWorkerThread(file: string, tsconfig: string): Worker {
  const compiled = `${file}.js`;
  if (existsSync(compiled)) return new Worker(compiled);
  const bootstrap = `
    process.env.TSX_TSCONFIG_PATH = ${JSON.stringify(tsconfig)};
    require('tsx/cjs/api').register();
    require(${JSON.stringify(`${file}.ts`)});
  `;
  return new Worker(bootstrap, { eval: true });
}

/**
 * Starts a Mermaid parser thread (mermaid-worker.js, emitted next to this file in the server's and the CLI's builds;
 * from sources, with the workspace's tsconfig.node.json, which includes every library).
 */
export function createParserWorker(): Worker {
  return startWorkerThread(join(__dirname, 'mermaid-worker'), join(__dirname, '..', '..', '..', '..', 'tsconfig.node.json'));
}

/**
 * A fixed pool of worker threads for CPU-heavy jobs that must not block the caller's event loop. Each thread
 * runs one job at a time; others wait in a FIFO queue. A thread takes jobs once it said it is ready (it has loaded),
 * so a job's timeout measures the job, never a slow start on a busy machine. A job that overruns its timeout cannot
 * be interrupted inside a synchronous parser, so its thread is terminated and replaced, and the caller gets
 * `errors.timeout`. A thread that dies or hangs before it is ready is not replaced (it would die again): the jobs
 * waiting fail with `errors.unavailable`, and the next job starts threads anew.
 * The thread's side is `serveWorkerJobs` (worker-thread.ts).
 */
export class WorkerPool<Request, Result> {
  private readonly slots: Slot<Request, Result>[] = [];
  private readonly queue: Job<Request, Result>[] = [];
  private nextId = 1;
  private closed = false;
  private started = false;

  constructor(private readonly options: Required<Omit<WorkerPoolOptions, 'startTimeoutMs'>> & { startTimeoutMs?: number; errors: WorkerPoolErrors }) {}

  /**
   * Starts the threads now, when jobs are about to come, so the first one does not wait for them to load (a parser
   * thread loads jsdom and Mermaid); otherwise threads start on first use, and a server (or test app) that never runs
   * a job never pays for them.
   */
  warmUp(): void {
    if (!this.closed) this.start();
  }

  /** Starts the threads missing (all at first; after a failed start, those that failed). */
  private start(): void {
    this.started = true;
    while (this.slots.length < this.options.size) this.slots.push(this.spawn());
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

  /** Whether the threads were started (by warmUp or a parse); for diagnostics and tests. */
  get warm(): boolean {
    return this.started;
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
        clearTimeout(slot.startTimer);
        this.finish(slot)?.reject(this.shuttingDown());
        await slot.worker.terminate();
      }),
    );
  }

  private shuttingDown(): Error {
    return this.options.errors.unavailable('the pool is shutting down');
  }

  private spawn(): Slot<Request, Result> {
    const slot: Slot<Request, Result> = { worker: this.options.createWorker(), ready: false };
    const { errors } = this.options;
    const startTimeoutMs = this.options.startTimeoutMs ?? DEFAULT_WORKER_START_TIMEOUT_MS;
    slot.startTimer = setTimeout(() => this.failedStart(slot, `a thread did not start within ${startTimeoutMs} ms`), startTimeoutMs);
    slot.startTimer.unref();
    slot.worker.on('message', (answer: WorkerAnswer<Result> | WorkerReady) => {
      if ('ready' in answer) {
        slot.ready = true;
        clearTimeout(slot.startTimer);
        this.dispatch();
        return;
      }
      if (slot.job?.message.id !== answer.id) return;
      const job = this.finish(slot);
      if ('result' in answer) job?.resolve(answer.result);
      else job?.reject(errors.unavailable(`the job failed: ${answer.failure}`));
      this.dispatch();
    });
    slot.worker.on('error', (error) => (slot.ready ? this.replace(slot, errors.unavailable(`a thread crashed: ${error.message}`)) : this.failedStart(slot, `a thread failed to start: ${error.message}`)));
    slot.worker.on('exit', () => {
      if (this.closed || !this.slots.includes(slot)) return;
      if (slot.ready) this.replace(slot, errors.unavailable('a thread exited'));
      else this.failedStart(slot, 'a thread exited while starting');
    });
    // An idle thread must not keep the process alive; a busy one must, until its answer arrives.
    slot.worker.unref();
    return slot;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.job) continue;
      const job = this.queue.shift();
      if (!job) break;
      slot.job = job;
      slot.timer = setTimeout(() => this.replace(slot, this.options.errors.timeout(job.timeoutMs)), job.timeoutMs);
      slot.worker.postMessage(job.message);
    }
    // A busy thread keeps the process alive until its answer arrives, and so does a starting one that jobs wait for;
    // an idle thread must not.
    for (const slot of this.slots) {
      if (slot.job || (!slot.ready && this.queue.length > 0)) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  /** A thread died or hung before it was ready: stop it, and fail the waiting jobs if no thread is left to run them. */
  private failedStart(slot: Slot<Request, Result>, reason: string): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    clearTimeout(slot.startTimer);
    this.slots.splice(index, 1);
    void slot.worker.terminate();
    // Another thread, ready or still starting, takes the waiting jobs.
    if (this.slots.length > 0) return;
    const error = this.options.errors.unavailable(reason);
    for (const job of this.queue.splice(0)) job.reject(error);
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
    clearTimeout(slot.startTimer);
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
