import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ParseRequest, ParseResponse } from './mermaid-worker';
import type { ParseMermaidResult } from './parse-mermaid';

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

interface Job {
  request: ParseRequest;
  timeoutMs: number;
  resolve: (result: ParseMermaidResult) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
}

/**
 * Starts the compiled worker (mermaid-worker.js, emitted next to this file in the server's and the CLI's builds).
 * When running from TypeScript sources (ts-jest, ts-node) there is no .js file, so the thread registers ts-node
 * (transpile only) first; the worker and what it imports use relative paths only.
 */
export function createParserWorker(): Worker {
  const compiled = join(__dirname, 'mermaid-worker.js');
  if (existsSync(compiled)) return new Worker(compiled);
  const bootstrap = `
    process.env.TS_NODE_PROJECT = ${JSON.stringify(join(__dirname, '..', '..', 'tsconfig.lib.json'))};
    require('ts-node').register({ transpileOnly: true });
    require(${JSON.stringify(join(__dirname, 'mermaid-worker.ts'))});
  `;
  return new Worker(bootstrap, { eval: true });
}

/**
 * A fixed pool of parser threads. Each thread parses one diagram at a time; others wait in a
 * FIFO queue. A parse that overruns the timeout cannot be interrupted inside Mermaid, so its
 * thread is terminated and replaced, and the caller gets diagram_parse_timeout.
 *
 * The server parses every synced diagram here (SERVICE_MERMAID_WORKERS threads) so a large one never blocks its
 * event loop; `service-cli sync` parses here too, min(2, cpus) threads, to validate a repository before sending.
 */
export class MermaidWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private started = false;
  private readonly createWorker: () => Worker;

  constructor(private readonly options: WorkerPoolOptions) {
    this.createWorker = options.createWorker ?? createParserWorker;
  }

  /**
   * Starts the threads now (each loads jsdom and Mermaid) when parses are about to come, so the first one does not
   * wait for that; otherwise threads start on first use, and a server that never parses never pays for Mermaid.
   */
  warmUp(): void {
    if (!this.closed) this.start();
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    for (let i = 0; i < this.options.size; i++) this.slots.push(this.spawn());
  }

  /** `timeoutMs` overrides the pool's timeout for this parse. */
  parse(source: string, maxBytes: number, timeoutMs = this.options.timeoutMs): Promise<ParseMermaidResult> {
    if (this.closed) return Promise.reject(unavailable('The diagram parser is shutting down.'));
    this.start();
    return new Promise<ParseMermaidResult>((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, source, maxBytes }, timeoutMs, resolve, reject });
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

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(unavailable('The diagram parser is shutting down.'));
    await Promise.all(
      this.slots.map(async (slot) => {
        this.finish(slot)?.reject(unavailable('The diagram parser is shutting down.'));
        await slot.worker.terminate();
      }),
    );
  }

  private spawn(): Slot {
    const slot: Slot = { worker: this.createWorker() };
    slot.worker.on('message', (response: ParseResponse) => {
      if (slot.job?.request.id !== response.id) return;
      const job = this.finish(slot);
      if ('result' in response) job?.resolve(response.result);
      else job?.reject(unavailable(`The diagram parser failed: ${response.failure}`));
      this.dispatch();
    });
    slot.worker.on('error', (error) => this.replace(slot, unavailable(`A diagram parser thread crashed: ${error.message}`)));
    slot.worker.on('exit', () => {
      if (!this.closed && this.slots.includes(slot)) this.replace(slot, unavailable('A diagram parser thread exited.'));
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
      slot.timer = setTimeout(() => {
        this.replace(
          slot,
          new MermaidPoolError(
            MermaidPoolErrorCode.ParseTimeout,
            `Parsing the diagram took longer than ${job.timeoutMs} ms and was stopped. Split the diagram or simplify it.`,
          ),
        );
      }, job.timeoutMs);
      slot.worker.postMessage(job.request);
    }
  }

  private finish(slot: Slot): Job | undefined {
    const job = slot.job;
    slot.worker.unref();
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    return job;
  }

  /** Fails the slot's current job with `error`, kills its thread and starts a fresh one. */
  private replace(slot: Slot, error: Error): void {
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

function unavailable(message: string): MermaidPoolError {
  return new MermaidPoolError(MermaidPoolErrorCode.ParserUnavailable, message);
}
