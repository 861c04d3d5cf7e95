/**
 * Limits of the sync gateway, read once at boot from the environment. Sizes are bytes, optionally with a
 * KiB/MiB suffix (`512KiB`, `20MiB`); a value that is not a positive size stops the boot with a message
 * naming the variable.
 */
export interface ArtifactsLimits {
  /** Largest single file (Mermaid, context, schema, notes, doc...) in UTF-8 bytes. */
  maxFileBytes: number;
  /** Largest sync: the decompressed request body and the sum of all file contents. */
  maxSyncBytes: number;
  /** Most artifacts in one sync. */
  maxArtifacts: number;
}

const MIB = 1024 * 1024;

export const DEFAULT_ARTIFACTS_LIMITS: ArtifactsLimits = {
  maxFileBytes: 1 * MIB,
  maxSyncBytes: 20 * MIB,
  maxArtifacts: 500,
};

export const ARTIFACTS_ENV = {
  maxFileBytes: 'SERVICE_SYNC_MAX_FILE_BYTES',
  maxSyncBytes: 'SERVICE_SYNC_MAX_BYTES',
  maxArtifacts: 'SERVICE_SYNC_MAX_ARTIFACTS',
} as const;

export class ArtifactsConfig {
  constructor(readonly limits: ArtifactsLimits) {}

  static fromEnv(env: NodeJS.ProcessEnv = process.env): ArtifactsConfig {
    return new ArtifactsConfig({
      maxFileBytes: readSize(env, ARTIFACTS_ENV.maxFileBytes, DEFAULT_ARTIFACTS_LIMITS.maxFileBytes),
      maxSyncBytes: readSize(env, ARTIFACTS_ENV.maxSyncBytes, DEFAULT_ARTIFACTS_LIMITS.maxSyncBytes),
      maxArtifacts: readCount(env, ARTIFACTS_ENV.maxArtifacts, DEFAULT_ARTIFACTS_LIMITS.maxArtifacts),
    });
  }
}

const UNIT_BYTES: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: MIB, mb: MIB, mib: MIB };

export function parseByteSize(raw: string): number | undefined {
  const match = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(raw);
  if (!match) return undefined;
  const unit = UNIT_BYTES[match[2].toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Number(match[1]) * unit;
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

function readSize(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const bytes = parseByteSize(raw);
  if (bytes === undefined) {
    throw new Error(`${name}="${raw}" is not a size: use a positive number of bytes, optionally with KiB or MiB (e.g. 1MiB).`);
  }
  return bytes;
}

function readCount(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const count = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(count) || count <= 0) {
    throw new Error(`${name}="${raw}" is not a positive whole number.`);
  }
  return count;
}
