import { Worker } from 'node:worker_threads';
import { MermaidPoolErrorCode, MermaidWorkerPool, WorkerPool } from './worker-pool';
import { parseMermaid } from './parse-mermaid';

jest.setTimeout(60_000);

/** A fake thread: `code` runs with `port` (its parentPort); `ready` makes it tell the pool it has loaded, as serveWorkerJobs does. */
const thread = (code: string, { ready = true } = {}) =>
  new Worker(`const port = require('node:worker_threads').parentPort; ${ready ? 'port.postMessage({ ready: true });' : ''} ${code}`, { eval: true });

/** Lets the threads' messages and the promises they settle run (setImmediate is never faked here). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('MermaidWorkerPool failure handling', () => {
  /** A worker that dies on its first message, standing in for a crashed parser thread. */
  const crashing = () => thread("port.on('message', () => process.exit(3));");

  it('fails the job with diagram_parser_unavailable when its thread dies, and replaces the thread', async () => {
    let created = 0;
    const pool = new MermaidWorkerPool({ size: 1, timeoutMs: 10_000, createWorker: () => (created++, crashing()) });
    await expect(pool.parse('flowchart LR\n A-->B', 1000)).rejects.toMatchObject({ code: MermaidPoolErrorCode.ParserUnavailable });
    expect(created).toBe(2);
    await pool.close();
  });

  it('starts its threads on warmUp, before any parse, and only once', async () => {
    let created = 0;
    const idle = () => (created++, thread("port.on('message', () => {});"));
    const pool = new MermaidWorkerPool({ size: 2, timeoutMs: 10_000, createWorker: idle });
    expect([pool.warm, created]).toEqual([false, 0]);
    pool.warmUp();
    pool.warmUp();
    expect([pool.warm, created]).toEqual([true, 2]);
    await pool.close();
    pool.warmUp();
    expect(created).toBe(2);
  });

  it('rejects waiting and new jobs once closed', async () => {
    let started!: () => void;
    const ready = new Promise<void>((resolve) => (started = resolve));
    // Ready tells the test too: the first job then runs on the thread, the second waits.
    const idle = () => {
      const worker = thread("port.on('message', () => {});");
      worker.on('message', (message: { ready?: boolean }) => message.ready && started());
      return worker;
    };
    const pool = new MermaidWorkerPool({ size: 1, timeoutMs: 10_000, createWorker: idle });
    const running = pool.parse('a', 10).catch((error: unknown) => error);
    const waiting = pool.parse('b', 10).catch((error: unknown) => error);
    await ready;
    await turn();
    expect(pool.pending).toBe(1);
    await pool.close();
    expect(await running).toMatchObject({ code: MermaidPoolErrorCode.ParserUnavailable });
    expect(await waiting).toMatchObject({ code: MermaidPoolErrorCode.ParserUnavailable });
    await expect(pool.parse('c', 10)).rejects.toMatchObject({ code: MermaidPoolErrorCode.ParserUnavailable });
  });
});

describe('MermaidWorkerPool thread start', () => {
  afterEach(() => jest.useRealTimers());

  /** Whether `promise` has settled, read after the threads' messages had their turn. */
  async function settled(promise: Promise<unknown>): Promise<boolean> {
    let done = false;
    void promise.then(
      () => (done = true),
      () => (done = true),
    );
    await turn();
    await turn();
    return done;
  }

  it('counts a job\'s timeout from when a ready thread takes it, never while the thread is still loading', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    let worker!: Worker;
    // Gets ready when the test says so ("go"), then answers every job.
    const slowStart = () => (worker = thread("port.on('message', (m) => m.go ? port.postMessage({ ready: true }) : port.postMessage({ id: m.id, result: { ok: true } }));", { ready: false }));
    const pool = new MermaidWorkerPool({ size: 1, timeoutMs: 50, createWorker: slowStart });
    const parse = pool.parse('flowchart LR\n A-->B', 1000);
    jest.advanceTimersByTime(10_000);
    expect(await settled(parse)).toBe(false);
    expect(pool.pending).toBe(1);
    worker.postMessage({ go: true });
    await expect(parse).resolves.toEqual({ ok: true });
    await pool.close();
  });

  it('fails the waiting jobs when a thread dies before it is ready, without starting it again and again', async () => {
    let created = 0;
    const dying = () => (created++, thread('process.exit(3);', { ready: false }));
    const pool = new MermaidWorkerPool({ size: 1, timeoutMs: 10_000, createWorker: dying });
    await expect(pool.parse('flowchart LR\n A-->B', 1000)).rejects.toMatchObject({ code: MermaidPoolErrorCode.ParserUnavailable, message: expect.stringContaining('while starting') });
    expect(created).toBe(1);
    expect(pool.up).toBe(false);
    // The next job starts a thread anew.
    await expect(pool.parse('flowchart LR\n A-->B', 1000)).rejects.toMatchObject({ code: MermaidPoolErrorCode.ParserUnavailable });
    expect(created).toBe(2);
    await pool.close();
  });

  it('stops a thread that does not get ready within startTimeoutMs and fails the jobs waiting for it', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const hung = () => thread("port.on('message', () => {});", { ready: false });
    const pool = new WorkerPool<string, string>({
      size: 1,
      timeoutMs: 600_000,
      startTimeoutMs: 1_000,
      createWorker: hung,
      errors: { timeout: () => new Error('timeout'), unavailable: (reason) => new Error(reason) },
    });
    const job = pool.run('x');
    expect(await settled(job)).toBe(false);
    jest.advanceTimersByTime(1_000);
    await expect(job).rejects.toThrow('a thread did not start within 1000 ms');
    await pool.close();
  });
});


describe('MermaidWorkerPool (real parser threads)', () => {
  const pool = new MermaidWorkerPool({ size: 2, timeoutMs: 20_000 });
  afterAll(() => pool.close());

  it('answers exactly what parseMermaid answers in-process, for valid and invalid diagrams', async () => {
    const sources = ['flowchart LR\n  A[API] -->|SQL| B[(DB)]\n', 'sequenceDiagram\n  A->>B: hi\n', 'flowchart LR\n  A -->\n'];
    const pooled = await Promise.all(sources.map((source) => pool.parse(source, 1024 * 1024)));
    const inProcess = await Promise.all(sources.map((source) => parseMermaid(source)));
    expect(pooled).toEqual(inProcess);
    expect(pooled[2]).toMatchObject({ ok: false, issues: [{ code: 'mermaid_syntax_error', line: 2 }] });
  });

  it('stops an overrunning parse with diagram_parse_timeout and keeps serving on a fresh thread', async () => {
    const large = `flowchart LR\n${Array.from({ length: 3000 }, (_, i) => `  n${i} --> n${i + 1}`).join('\n')}\n`;
    await expect(pool.parse(large, 1024 * 1024, 1)).rejects.toMatchObject({ code: MermaidPoolErrorCode.ParseTimeout });
    await expect(pool.parse('flowchart LR\n  after --> timeout\n', 1024)).resolves.toMatchObject({ ok: true, graph: { nodes: [{ id: 'after' }, { id: 'timeout' }] } });
  });
});
