import { availableParallelism } from 'node:os';
import { Env, EnvReader } from '../../config/env';

/** Worker pool settings, read once at boot; a bad value stops the boot with a message naming the variable. */
export class MermaidParseConfig {
  constructor(
    /** Parser worker threads. */
    readonly workers: number,
    /** Longest a single parse may run before its worker is replaced. */
    readonly timeoutMs: number,
    /** Default size limit of a Mermaid source (callers may pass their own). */
    readonly maxBytes: number,
  ) {}

  /** SERVICE_MERMAID_WORKERS (min(2, cpus)), SERVICE_MERMAID_PARSE_TIMEOUT (30s), SERVICE_MERMAID_MAX_BYTES (1MiB). */
  static fromEnv(env: Env): MermaidParseConfig {
    const read = new EnvReader(env);
    const workers = read.integer('SERVICE_MERMAID_WORKERS', Math.min(2, availableParallelism()), { min: 1, max: 64 });
    const timeoutMs = read.durationMs('SERVICE_MERMAID_PARSE_TIMEOUT', 30_000, { minMs: 100 });
    const maxBytes = read.byteSize('SERVICE_MERMAID_MAX_BYTES', 1024 * 1024);
    read.assertValid();
    return new MermaidParseConfig(workers, timeoutMs, maxBytes);
  }
}
