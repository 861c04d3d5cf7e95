import type { SyncArtifact, SyncArtifactRef } from '@sc/contracts';
import { sha256Hex } from '../../../common/crypto/tokens';

/**
 * Declarative revisions: a sync states the complete set of artifacts. Comparing it with the current revision
 * by fingerprint tells which artifacts are new, changed, the same, or gone. No difference → no new revision.
 */

/** Identifies one version of one artifact: everything that is stored about it except derived data. */
export function artifactFingerprint(artifact: SyncArtifact): string {
  return sha256Hex(
    JSON.stringify([
      artifact.kind,
      artifact.name,
      artifact.file.path,
      artifact.file.sha256.toLowerCase(),
      artifact.context?.path ?? null,
      artifact.context?.sha256.toLowerCase() ?? null,
      artifact.notes?.path ?? null,
      artifact.notes?.sha256.toLowerCase() ?? null,
      artifact.engine ?? null,
      artifact.format ?? null,
    ]),
  );
}

export function artifactKey(ref: SyncArtifactRef): string {
  return `${ref.kind}/${ref.name}`;
}

export interface FingerprintedRef extends SyncArtifactRef {
  fingerprint: string;
}

export interface RevisionPlan<T extends FingerprintedRef> {
  created: T[];
  updated: T[];
  unchanged: T[];
  removed: FingerprintedRef[];
  /** True when the incoming set differs from the current one in any way. */
  changed: boolean;
}

export function planRevision<T extends FingerprintedRef>(current: readonly FingerprintedRef[], incoming: readonly T[]): RevisionPlan<T> {
  const currentByKey = new Map(current.map((ref) => [artifactKey(ref), ref]));
  const incomingKeys = new Set(incoming.map(artifactKey));
  const plan: RevisionPlan<T> = { created: [], updated: [], unchanged: [], removed: [], changed: false };
  for (const artifact of incoming) {
    const existing = currentByKey.get(artifactKey(artifact));
    if (!existing) plan.created.push(artifact);
    else if (existing.fingerprint !== artifact.fingerprint) plan.updated.push(artifact);
    else plan.unchanged.push(artifact);
  }
  plan.removed = current.filter((ref) => !incomingKeys.has(artifactKey(ref)));
  plan.changed = plan.created.length + plan.updated.length + plan.removed.length > 0;
  return plan;
}

export function toRef(ref: SyncArtifactRef): SyncArtifactRef {
  return { kind: ref.kind, name: ref.name };
}

/** Shared with the CLI, which lists an unchanged bundle's artifacts in the same order as the gateway. */
export { byKindAndName } from '@sc/contracts';
