import { availableParallelism } from 'node:os';
import { Env, EnvReader } from '../../config/env';

const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/** Worker pool settings, read once at boot; a bad value stops the boot with a message naming the variable. */
export class MermaidParseConfig {
  constructor(
    /** Parser worker threads. */
    readonly workers: number,
    /** Longest a single parse may run before its worker is replaced. */
    readonly timeoutMs: number,
    /** Default size limit of a Mermaid source (callers may pass their own). */
    readonly maxBytes: number,
    /** Memory budget of the cache of parse results (estimated bytes). */
    readonly cacheBytes: number = DEFAULT_CACHE_BYTES,
  ) {}

  /**
   * SERVICE_MERMAID_WORKERS (min(2, cpus)), SERVICE_MERMAID_PARSE_TIMEOUT (30s), SERVICE_MERMAID_MAX_BYTES (1MiB),
   * SERVICE_MERMAID_CACHE_BYTES (32MiB).
   */
  static fromEnv(env: Env): MermaidParseConfig {
    const read = new EnvReader(env);
    const workers = read.integer('SERVICE_MERMAID_WORKERS', Math.min(2, availableParallelism()), { min: 1, max: 64 });
    const timeoutMs = read.durationMs('SERVICE_MERMAID_PARSE_TIMEOUT', 30_000, { minMs: 100 });
    const maxBytes = read.byteSize('SERVICE_MERMAID_MAX_BYTES', 1024 * 1024);
    const cacheBytes = read.byteSize('SERVICE_MERMAID_CACHE_BYTES', DEFAULT_CACHE_BYTES);
    read.assertValid();
    return new MermaidParseConfig(workers, timeoutMs, maxBytes, cacheBytes);
  }
}
