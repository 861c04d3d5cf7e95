import { DEFAULT_SYNC_LIMITS } from '@sc/contracts';
import { Env, EnvReader } from '../../config/env';

/** Size limits of a draft, read once at boot; a bad value stops the boot with a message naming the variable. */
export class DraftsConfig {
  constructor(
    /** Largest draft: UTF-8 bytes of its graph and layout as JSON (also each pasted Mermaid or context text). */
    readonly maxBytes: number,
    /** Most nodes plus groups in one draft. */
    readonly maxNodes: number,
    /** Most edges in one draft. */
    readonly maxEdges: number,
  ) {}

  /**
   * SERVICE_DRAFT_MAX_BYTES (2 MiB: a draft exports to two files, each within the sync's default file limit
   * of 1 MiB), SERVICE_DRAFT_MAX_NODES (5000, the largest diagram the parsing benchmark measures) and
   * SERVICE_DRAFT_MAX_EDGES (10000).
   */
  static fromEnv(env: Env): DraftsConfig {
    const read = new EnvReader(env);
    const maxBytes = read.byteSize('SERVICE_DRAFT_MAX_BYTES', 2 * DEFAULT_SYNC_LIMITS.maxFileBytes);
    const maxNodes = read.integer('SERVICE_DRAFT_MAX_NODES', 5000, { min: 1 });
    const maxEdges = read.integer('SERVICE_DRAFT_MAX_EDGES', 10_000, { min: 0 });
    read.assertValid();
    return new DraftsConfig(maxBytes, maxNodes, maxEdges);
  }
}
