import { parseMermaid } from '@sc/diagram/node';
import { DomainError } from '../../common/errors/domain-error';
import { MermaidParseConfig } from './mermaid-parse.config';
import { MermaidParseErrorCode } from './mermaid-parse.errors';
import { MermaidParseService } from './mermaid-parse.service';

jest.setTimeout(60_000);

const largeFlowchart = (nodes: number) =>
  `flowchart LR\n${Array.from({ length: nodes }, (_, i) => `  n${i}[Node ${i}] --> n${i + 1}`).join('\n')}\n`;

describe('MermaidParseService (real worker threads)', () => {
  const service = new MermaidParseService(new MermaidParseConfig(2, 20_000, 1024 * 1024));
  afterAll(() => service.onApplicationShutdown());

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

  it('answers a source it already parsed from its cache, with a copy the caller may change', async () => {
    const cachedService = new MermaidParseService(new MermaidParseConfig(1, 20_000, 1024 * 1024));
    const source = 'flowchart LR\n  api --> db\n';
    const first = await cachedService.parse(source);
    expect(first).toMatchObject({ ok: true, graph: { nodes: [{ id: 'api' }, { id: 'db' }] } });
    if (first.ok) first.graph.nodes.length = 0;
    // With its threads gone, the service can only answer from the cache.
    await cachedService.onApplicationShutdown();
    await expect(cachedService.parse(source)).resolves.toEqual(await parseMermaid(source));
    await expect(cachedService.parse(source, { maxBytes: 10 })).rejects.toMatchObject({ code: MermaidParseErrorCode.ParserUnavailable });
    await expect(cachedService.parse('flowchart LR\n  other --> db\n')).rejects.toMatchObject({ code: MermaidParseErrorCode.ParserUnavailable });
  });

  it('keeps the cache within its byte budget, least recently used out first', async () => {
    const small = new MermaidParseService(new MermaidParseConfig(1, 20_000, 1024 * 1024, 3000));
    const sources = ['flowchart LR\n  a --> b\n', 'flowchart LR\n  c --> d\n', 'flowchart LR\n  e --> f\n'];
    await small.parse(sources[0]);
    await small.parse(sources[1]);
    await small.parse(sources[0]);
    await small.parse(sources[2]);
    await small.onApplicationShutdown();
    // Each entry is estimated at a bit over 1 KiB: two fit; the least recently used one (sources[1]) went.
    await expect(small.parse(sources[0])).resolves.toMatchObject({ ok: true });
    await expect(small.parse(sources[2])).resolves.toMatchObject({ ok: true });
    await expect(small.parse(sources[1])).rejects.toMatchObject({ code: MermaidParseErrorCode.ParserUnavailable });
  });

  it('answers diagram_parser_unavailable (503) once shutting down', async () => {
    const closing = new MermaidParseService(new MermaidParseConfig(1, 20_000, 1024 * 1024));
    expect(closing.up).toBe(true);
    await closing.onApplicationShutdown();
    expect(closing.up).toBe(false);
    const error = await closing.parse('flowchart LR\n  A --> B\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: MermaidParseErrorCode.ParserUnavailable, status: 503 });
  });
});

describe('MermaidParseConfig', () => {
  it('reads the pool settings and rejects bad values naming the variable', () => {
    expect(MermaidParseConfig.fromEnv({ SERVICE_MERMAID_WORKERS: '3', SERVICE_MERMAID_PARSE_TIMEOUT: '5s', SERVICE_MERMAID_MAX_BYTES: '2mb' })).toEqual(
      new MermaidParseConfig(3, 5000, 2 * 1024 * 1024, 32 * 1024 * 1024),
    );
    expect(MermaidParseConfig.fromEnv({}).workers).toBeGreaterThanOrEqual(1);
    expect(MermaidParseConfig.fromEnv({}).workers).toBeLessThanOrEqual(2);
    expect(() => MermaidParseConfig.fromEnv({ SERVICE_MERMAID_WORKERS: '0' })).toThrow(/SERVICE_MERMAID_WORKERS/);
    expect(MermaidParseConfig.fromEnv({ SERVICE_MERMAID_CACHE_BYTES: '1mb' }).cacheBytes).toBe(1024 * 1024);
    expect(() => MermaidParseConfig.fromEnv({ SERVICE_MERMAID_CACHE_BYTES: 'lots' })).toThrow(/SERVICE_MERMAID_CACHE_BYTES/);
  });
});
