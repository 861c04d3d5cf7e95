import { Worker } from 'node:worker_threads';
import { MermaidPoolErrorCode, MermaidWorkerPool } from './worker-pool';
import { parseMermaid } from './parse-mermaid';

jest.setTimeout(60_000);

describe('MermaidWorkerPool failure handling', () => {
  /** A worker that dies on its first message, standing in for a crashed parser thread. */
  const crashing = () => new Worker("require('node:worker_threads').parentPort.on('message', () => process.exit(3));", { eval: true });

  it('fails the job with diagram_parser_unavailable when its thread dies, and replaces the thread', async () => {
    let created = 0;
    const pool = new MermaidWorkerPool({ size: 1, timeoutMs: 10_000, createWorker: () => (created++, crashing()) });
    await expect(pool.parse('flowchart LR\n A-->B', 1000)).rejects.toMatchObject({ code: MermaidPoolErrorCode.ParserUnavailable });
    expect(created).toBe(2);
    await pool.close();
  });

  it('starts its threads on warmUp, before any parse, and only once', async () => {
    let created = 0;
    const idle = () => (created++, new Worker("require('node:worker_threads').parentPort.on('message', () => {});", { eval: true }));
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
    const idle = () => new Worker("require('node:worker_threads').parentPort.on('message', () => {});", { eval: true });
    const pool = new MermaidWorkerPool({ size: 1, timeoutMs: 10_000, createWorker: idle });
    const running = pool.parse('a', 10).catch((error: unknown) => error);
    const waiting = pool.parse('b', 10).catch((error: unknown) => error);
    expect(pool.pending).toBe(1);
    await pool.close();
    expect(await running).toMatchObject({ code: MermaidPoolErrorCode.ParserUnavailable });
    expect(await waiting).toMatchObject({ code: MermaidPoolErrorCode.ParserUnavailable });
    await expect(pool.parse('c', 10)).rejects.toMatchObject({ code: MermaidPoolErrorCode.ParserUnavailable });
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
