import { Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { MermaidPoolError, MermaidPoolErrorCode, MermaidWorkerPool, type ParseMermaidResult } from '@sc/diagram/node';
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
 */
@Injectable()
export class MermaidParseService implements OnApplicationShutdown {
  private readonly pool: MermaidWorkerPool;

  constructor(
    private readonly config: MermaidParseConfig,
    // Optional: unit tests run the pool without the application's metrics.
    @Optional() private readonly metrics?: MetricsService,
  ) {
    this.pool = new MermaidWorkerPool({ size: config.workers, timeoutMs: config.timeoutMs });
    metrics?.registerParseQueue(() => this.pool.pending);
  }

  async parse(source: string, options: MermaidParseOptions = {}): Promise<ParseMermaidResult> {
    const started = performance.now();
    const observe = (outcome: 'ok' | 'timeout' | 'unavailable') => this.metrics?.observeParse((performance.now() - started) / 1000, outcome);
    try {
      const result = await this.pool.parse(source, options.maxBytes ?? this.config.maxBytes, options.timeoutMs ?? this.config.timeoutMs);
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
