import { availableParallelism } from 'node:os';
import { Env, EnvReader } from '../../config/env';

/** A worker pool's threads and the longest one job may run before its thread is replaced. */
export interface PoolSettings {
  workers: number;
  timeoutMs: number;
}

/** Layouts are computed in the background, so one ELK thread is enough by default. */
export const DEFAULT_LAYOUT_POOL: PoolSettings = { workers: 1, timeoutMs: 60_000 };

/**
 * The SQL schema and diagram layout pools' settings (Mermaid's are MermaidParseConfig), read once at boot; a bad value
 * stops the boot with a message naming the variable.
 */
export class ParsingConfig {
  constructor(
    /** SqlSchemaParseService: a parse over `timeoutMs` answers sql_parse_timeout. */
    readonly sqlParse: PoolSettings,
    /** DiagramLayoutPool: a layout over `timeoutMs` gets none (the dashboard then lays the diagram out itself). */
    readonly layout: PoolSettings = DEFAULT_LAYOUT_POOL,
  ) {}

  /**
   * SERVICE_SQL_PARSE_WORKERS (min(2, cpus)) and SERVICE_SQL_PARSE_TIMEOUT (30s): npm run bench:sql-schema measures a 5 MB dump.
   * SERVICE_LAYOUT_WORKERS (1) and SERVICE_LAYOUT_TIMEOUT (60s).
   */
  static fromEnv(env: Env): ParsingConfig {
    const read = new EnvReader(env);
    const sqlParse: PoolSettings = {
      workers: read.integer('SERVICE_SQL_PARSE_WORKERS', Math.min(2, availableParallelism()), { min: 1, max: 64 }),
      timeoutMs: read.durationMs('SERVICE_SQL_PARSE_TIMEOUT', 30_000, { minMs: 100 }),
    };
    const layout: PoolSettings = {
      workers: read.integer('SERVICE_LAYOUT_WORKERS', DEFAULT_LAYOUT_POOL.workers, { min: 1, max: 16 }),
      timeoutMs: read.durationMs('SERVICE_LAYOUT_TIMEOUT', DEFAULT_LAYOUT_POOL.timeoutMs, { minMs: 100 }),
    };
    read.assertValid();
    return new ParsingConfig(sqlParse, layout);
  }
}
