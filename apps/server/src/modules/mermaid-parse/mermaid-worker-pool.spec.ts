import { Worker } from 'node:worker_threads';
import { parseMermaid } from '@sc/diagram/node';
import { DomainError } from '../../common/errors/domain-error';
import { MermaidParseConfig } from './mermaid-parse.config';
import { MermaidParseErrorCode } from './mermaid-parse.errors';
import { MermaidParseService } from './mermaid-parse.service';
import { MermaidWorkerPool } from './mermaid-worker-pool';

jest.setTimeout(60_000);

const largeFlowchart = (nodes: number) =>
  `flowchart LR\n${Array.from({ length: nodes }, (_, i) => `  n${i}[Node ${i}] --> n${i + 1}`).join('\n')}\n`;

describe('MermaidParseService (real worker threads)', () => {
  const service = new MermaidParseService(new MermaidParseConfig(2, 20_000, 1024 * 1024));
  afterAll(() => service.onModuleDestroy());

  it('parses in a worker and returns exactly what the library returns in-process', async () => {
    const sources = ['flowchart LR\n  A[API] -->|SQL| B[(DB)]\n', 'stateDiagram-v2\n  [*] --> A\n  A --> B\n', 'sequenceDiagram\n  A->>B: hi\n', 'flowchart LR\n  A -->\n'];
    const inWorker = await Promise.all(sources.map((source) => service.parse(source)));
    const inProcess = await Promise.all(sources.map((source) => parseMermaid(source)));
    expect(inWorker).toEqual(inProcess);
    expect(inWorker[3]).toMatchObject({ ok: false, issues: [{ code: 'mermaid_syntax_error', line: 2 }] });
  });

  it('applies the size limit from the options', async () => {
    await expect(service.parse(largeFlowchart(50), { maxBytes: 200 })).resolves.toMatchObject({ ok: false, issues: [{ code: 'diagram_too_large' }] });
  });

  it('stops a parse that overruns its timeout with diagram_parse_timeout, then keeps serving', async () => {
    const error = await service.parse(largeFlowchart(5000), { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: MermaidParseErrorCode.ParseTimeout, status: 422 });
    await expect(service.parse('flowchart LR\n  after --> timeout\n')).resolves.toMatchObject({ ok: true, graph: { nodes: [{ id: 'after' }, { id: 'timeout' }] } });
  });
});

describe('MermaidWorkerPool failure handling', () => {
  /** A worker that dies on its first message, standing in for a crashed parser thread. */
  const crashing = () => new Worker("require('node:worker_threads').parentPort.on('message', () => process.exit(3));", { eval: true });

  it('fails the job with diagram_parser_unavailable when its thread dies, and replaces the thread', async () => {
    let created = 0;
    const pool = new MermaidWorkerPool({ size: 1, timeoutMs: 10_000, createWorker: () => (created++, crashing()) });
    await expect(pool.parse('flowchart LR\n A-->B', 1000)).rejects.toMatchObject({ code: MermaidParseErrorCode.ParserUnavailable, status: 503 });
    expect(created).toBe(2);
    await pool.close();
  });

  it('rejects waiting and new jobs once closed', async () => {
    const idle = () => new Worker("require('node:worker_threads').parentPort.on('message', () => {});", { eval: true });
    const pool = new MermaidWorkerPool({ size: 1, timeoutMs: 10_000, createWorker: idle });
    const running = pool.parse('a', 10).catch((error: unknown) => error);
    const waiting = pool.parse('b', 10).catch((error: unknown) => error);
    expect(pool.pending).toBe(1);
    await pool.close();
    expect(await running).toMatchObject({ code: MermaidParseErrorCode.ParserUnavailable });
    expect(await waiting).toMatchObject({ code: MermaidParseErrorCode.ParserUnavailable });
    await expect(pool.parse('c', 10)).rejects.toMatchObject({ code: MermaidParseErrorCode.ParserUnavailable });
  });
});

describe('MermaidParseConfig', () => {
  it('reads the pool settings and rejects bad values naming the variable', () => {
    expect(MermaidParseConfig.fromEnv({ SERVICE_MERMAID_WORKERS: '3', SERVICE_MERMAID_PARSE_TIMEOUT: '5s', SERVICE_MERMAID_MAX_BYTES: '2mb' })).toEqual(
      new MermaidParseConfig(3, 5000, 2 * 1024 * 1024),
    );
    expect(MermaidParseConfig.fromEnv({}).workers).toBeGreaterThanOrEqual(1);
    expect(MermaidParseConfig.fromEnv({}).workers).toBeLessThanOrEqual(2);
    expect(() => MermaidParseConfig.fromEnv({ SERVICE_MERMAID_WORKERS: '0' })).toThrow(/SERVICE_MERMAID_WORKERS/);
  });
});
