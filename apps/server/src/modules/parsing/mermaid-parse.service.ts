import { Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { LRUCache } from 'lru-cache';
import { MERMAID_ENGINE_VERSION, MermaidPoolError, MermaidPoolErrorCode, MermaidWorkerPool, type ParseMermaidResult } from '@sc/diagram/node';
import { MetricsService } from '../metrics/metrics.service';
import { MermaidParseConfig } from './mermaid-parse.config';
import { MermaidParseErrorCode, mermaidParseError } from './mermaid-parse.errors';

export interface MermaidParseOptions {
  /** UTF-8 byte limit; defaults to SERVICE_MERMAID_MAX_BYTES. */
  maxBytes?: number;
  /** Overrides SERVICE_MERMAID_PARSE_TIMEOUT for this parse. */
  timeoutMs?: number;
}

const POOL_ERRORS: Record<MermaidPoolErrorCode, MermaidParseErrorCode> = {
  [MermaidPoolErrorCode.ParseTimeout]: MermaidParseErrorCode.ParseTimeout,
  [MermaidPoolErrorCode.ParserUnavailable]: MermaidParseErrorCode.ParserUnavailable,
};

/**
 * Parses Mermaid with Mermaid's own parser in worker threads, so a large diagram never blocks
 * the event loop. Resolves with the library's result (graph or issues such as
 * mermaid_syntax_error / diagram_too_large); throws diagram_parse_timeout (422) or
 * diagram_parser_unavailable (503) as domain errors.
 *
 * Results are cached (LRU, SERVICE_MERMAID_CACHE_BYTES) under the SHA-256 of the engine version, the size limit and
 * the source, all computed here from what is parsed: a source this server already parsed — in an earlier sync of any
 * service, or a sync refused for another file and sent again — is not parsed twice. Nothing a client says about its
 * files (their declared hashes) is used. Timeouts and pool failures are not cached.
 */
@Injectable()
export class MermaidParseService implements OnApplicationShutdown {
  private readonly pool: MermaidWorkerPool;
  private readonly results: LRUCache<string, ParseMermaidResult>;
  /** Parses under way by key: the same source asked twice at once is parsed once. */
  private readonly running = new Map<string, Promise<ParseMermaidResult>>();

  constructor(
    private readonly config: MermaidParseConfig,
    // Optional: unit tests run the pool without the application's metrics.
    @Optional() private readonly metrics?: MetricsService,
  ) {
    this.pool = new MermaidWorkerPool({ size: config.workers, timeoutMs: config.timeoutMs });
    this.results = new LRUCache({ maxSize: config.cacheBytes });
    metrics?.registerParseQueue(() => this.pool.pending);
  }

  /** Starts the parser threads now, e.g. when a sync is coming (see SyncService.check). */
  warmUp(): void {
    this.pool.warmUp();
  }

  /** Whether the parser threads were started; for diagnostics and tests. */
  get warm(): boolean {
    return this.pool.warm;
  }

  async parse(source: string, options: MermaidParseOptions = {}): Promise<ParseMermaidResult> {
    const maxBytes = options.maxBytes ?? this.config.maxBytes;
    const key = createHash('sha256').update(JSON.stringify([MERMAID_ENGINE_VERSION, maxBytes, source])).digest('hex');
    const cached = this.results.get(key);
    if (cached) return structuredClone(cached);
    let running = this.running.get(key);
    if (!running) {
      running = this.parseInPool(source, maxBytes, options.timeoutMs ?? this.config.timeoutMs);
      this.running.set(key, running);
      void running
        // The size estimates the result's memory: a parsed graph takes a few times its source.
        .then((result) => this.results.set(key, result, { size: 4 * source.length + 1024 }))
        .catch(() => undefined)
        .finally(() => this.running.delete(key));
    }
    // Callers own what they get: the stored result is never handed out, only copies of it.
    return structuredClone(await running);
  }

  private async parseInPool(source: string, maxBytes: number, timeoutMs: number): Promise<ParseMermaidResult> {
    const started = performance.now();
    const observe = (outcome: 'ok' | 'timeout' | 'unavailable') => this.metrics?.observeParse((performance.now() - started) / 1000, outcome);
    try {
      const result = await this.pool.parse(source, maxBytes, timeoutMs);
      observe('ok');
      return result;
    } catch (error) {
      if (!(error instanceof MermaidPoolError)) throw error;
      observe(error.code === MermaidPoolErrorCode.ParseTimeout ? 'timeout' : 'unavailable');
      throw mermaidParseError(POOL_ERRORS[error.code], error.message);
    }
  }

  /** Threads up and taking work (readiness). */
  get up(): boolean {
    return this.pool.up;
  }

  /** At application shutdown, after in-flight requests drained (ShutdownService), not at module destroy before it. */
  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
