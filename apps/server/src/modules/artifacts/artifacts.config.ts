import { DEFAULT_PREVIEW_DAYS, DEFAULT_SYNC_LIMITS } from '@sc/contracts';
import { Env, EnvReader } from '../../config/env';

/** Limits of the sync gateway, read once at boot; a bad value stops the boot with a message naming the variable. */
export interface ArtifactsLimits {
  /** Largest single file (Mermaid, context, notes, doc...) in UTF-8 bytes; a database schema's own file has maxSchemaBytes. */
  maxFileBytes: number;
  /** Largest database schema file (the artifact's main file) in UTF-8 bytes. */
  maxSchemaBytes: number;
  /** Largest sync: the decompressed request body and the sum of all file contents. */
  maxSyncBytes: number;
  /** Most artifacts in one sync. */
  maxArtifacts: number;
}

/** Revision retention (RetentionService). */
export interface RetentionSettings {
  /** Revisions kept per service, newest first; null keeps them all (the default). */
  keepRevisions: number | null;
  /** How often the background job runs (it also runs once right after start) when `keepRevisions` is set. */
  intervalMs: number;
}

/** The default-view layouts of synced diagrams (DiagramLayoutService; its threads are the parsing module's). */
export interface LayoutSettings {
  /** Diagrams with more nodes and groups are not laid out on the server. */
  maxElements: number;
}

/** Previews (`sync --preview`): how long one is kept after its last push. */
export interface PreviewSettings {
  days: number;
}

export const DEFAULT_LAYOUT_SETTINGS: LayoutSettings = { maxElements: 10_000 };

export class ArtifactsConfig {
  constructor(
    readonly limits: ArtifactsLimits,
    readonly retention: RetentionSettings = { keepRevisions: null, intervalMs: 3_600_000 },
    readonly layout: LayoutSettings = DEFAULT_LAYOUT_SETTINGS,
    readonly previews: PreviewSettings = { days: DEFAULT_PREVIEW_DAYS },
  ) {}

  /**
   * SERVICE_SYNC_MAX_FILE_BYTES (1MiB), SERVICE_SYNC_MAX_SCHEMA_BYTES (16MiB), SERVICE_SYNC_MAX_BYTES (32MiB),
   * SERVICE_SYNC_MAX_ARTIFACTS (500). The defaults are the contracts' DEFAULT_SYNC_LIMITS, which the CLI warns against
   * before sending.
   * SERVICE_REVISIONS_KEEP (unset: keep every revision) and SERVICE_RETENTION_INTERVAL (1h).
   * SERVICE_LAYOUT_MAX_ELEMENTS (10,000 nodes and groups: a 5,000-node diagram with its groups, as bench:dashboard draws); the pools'
   * settings (SERVICE_SQL_PARSE_*, SERVICE_LAYOUT_WORKERS, SERVICE_LAYOUT_TIMEOUT) are the parsing module's ParsingConfig.
   * SERVICE_PREVIEW_DAYS (14): a preview expires that many days after its push.
   */
  static fromEnv(env: Env): ArtifactsConfig {
    const read = new EnvReader(env);
    const maxSyncBytes = read.byteSize('SERVICE_SYNC_MAX_BYTES', DEFAULT_SYNC_LIMITS.maxSyncBytes);
    const limits: ArtifactsLimits = {
      maxFileBytes: read.byteSize('SERVICE_SYNC_MAX_FILE_BYTES', DEFAULT_SYNC_LIMITS.maxFileBytes),
      // Unset, it follows a lowered SERVICE_SYNC_MAX_BYTES down: only a value set explicitly is held against it.
      maxSchemaBytes: read.byteSize('SERVICE_SYNC_MAX_SCHEMA_BYTES', Math.min(DEFAULT_SYNC_LIMITS.maxSchemaBytes, maxSyncBytes)),
      maxSyncBytes,
      maxArtifacts: read.integer('SERVICE_SYNC_MAX_ARTIFACTS', DEFAULT_SYNC_LIMITS.maxArtifacts, { min: 1 }),
    };
    for (const variable of ['SERVICE_SYNC_MAX_FILE_BYTES', 'SERVICE_SYNC_MAX_SCHEMA_BYTES'] as const) {
      const value = variable === 'SERVICE_SYNC_MAX_FILE_BYTES' ? limits.maxFileBytes : limits.maxSchemaBytes;
      if (value > limits.maxSyncBytes) read.problem(`${variable} must not be larger than SERVICE_SYNC_MAX_BYTES.`);
    }
    const retention: RetentionSettings = {
      keepRevisions: read.raw('SERVICE_REVISIONS_KEEP') === undefined ? null : read.integer('SERVICE_REVISIONS_KEEP', 1, { min: 1 }),
      intervalMs: read.durationMs('SERVICE_RETENTION_INTERVAL', 3_600_000, { minMs: 1000 }),
    };
    const layout: LayoutSettings = {
      maxElements: read.integer('SERVICE_LAYOUT_MAX_ELEMENTS', DEFAULT_LAYOUT_SETTINGS.maxElements, { min: 1 }),
    };
    const previews: PreviewSettings = { days: read.integer('SERVICE_PREVIEW_DAYS', DEFAULT_PREVIEW_DAYS, { min: 1, max: 3650 }) };
    read.assertValid();
    return new ArtifactsConfig(limits, retention, layout, previews);
  }
}
