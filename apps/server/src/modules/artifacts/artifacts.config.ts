import { availableParallelism } from 'node:os';
import { DEFAULT_SYNC_LIMITS } from '@sc/contracts';
import { Env, EnvReader } from '../../config/env';

/** Limits of the sync gateway, read once at boot; a bad value stops the boot with a message naming the variable. */
export interface ArtifactsLimits {
  /** Largest single file (Mermaid, context, schema, notes, doc...) in UTF-8 bytes. */
  maxFileBytes: number;
  /** Largest sync: the decompressed request body and the sum of all file contents. */
  maxSyncBytes: number;
  /** Most artifacts in one sync. */
  maxArtifacts: number;
}

/** The SQL schema parser's worker threads (SqlSchemaParseService). */
export interface SqlParseSettings {
  workers: number;
  /** Longest a single schema parse may run before its thread is replaced (sql_parse_timeout). */
  timeoutMs: number;
}

/** Revision retention (RetentionService). */
export interface RetentionSettings {
  /** Revisions kept per service, newest first; null keeps them all (the default). */
  keepRevisions: number | null;
  /** How often the background job runs (it also runs once right after start) when `keepRevisions` is set. */
  intervalMs: number;
}

export class ArtifactsConfig {
  constructor(
    readonly limits: ArtifactsLimits,
    readonly sqlParse: SqlParseSettings,
    readonly retention: RetentionSettings = { keepRevisions: null, intervalMs: 3_600_000 },
  ) {}

  /**
   * SERVICE_SYNC_MAX_FILE_BYTES (1MiB), SERVICE_SYNC_MAX_BYTES (20MiB), SERVICE_SYNC_MAX_ARTIFACTS (500). The defaults are
   * the contracts' DEFAULT_SYNC_LIMITS, which the CLI warns against before sending.
   * SERVICE_SQL_PARSE_WORKERS (min(2, cpus)) and SERVICE_SQL_PARSE_TIMEOUT (30s): a 1 MiB schema takes about 8 s.
   * SERVICE_REVISIONS_KEEP (unset: keep every revision) and SERVICE_RETENTION_INTERVAL (1h).
   */
  static fromEnv(env: Env): ArtifactsConfig {
    const read = new EnvReader(env);
    const limits: ArtifactsLimits = {
      maxFileBytes: read.byteSize('SERVICE_SYNC_MAX_FILE_BYTES', DEFAULT_SYNC_LIMITS.maxFileBytes),
      maxSyncBytes: read.byteSize('SERVICE_SYNC_MAX_BYTES', DEFAULT_SYNC_LIMITS.maxSyncBytes),
      maxArtifacts: read.integer('SERVICE_SYNC_MAX_ARTIFACTS', DEFAULT_SYNC_LIMITS.maxArtifacts, { min: 1 }),
    };
    if (limits.maxFileBytes > limits.maxSyncBytes) {
      read.problem('SERVICE_SYNC_MAX_FILE_BYTES must not be larger than SERVICE_SYNC_MAX_BYTES.');
    }
    const sqlParse: SqlParseSettings = {
      workers: read.integer('SERVICE_SQL_PARSE_WORKERS', Math.min(2, availableParallelism()), { min: 1, max: 64 }),
      timeoutMs: read.durationMs('SERVICE_SQL_PARSE_TIMEOUT', 30_000, { minMs: 100 }),
    };
    const retention: RetentionSettings = {
      keepRevisions: read.raw('SERVICE_REVISIONS_KEEP') === undefined ? null : read.integer('SERVICE_REVISIONS_KEEP', 1, { min: 1 }),
      intervalMs: read.durationMs('SERVICE_RETENTION_INTERVAL', 3_600_000, { minMs: 1000 }),
    };
    read.assertValid();
    return new ArtifactsConfig(limits, sqlParse, retention);
  }
}
