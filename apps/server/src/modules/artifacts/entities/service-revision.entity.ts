import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SyncArtifactRef } from '@sc/contracts';

export interface RevisionChanges {
  created: SyncArtifactRef[];
  updated: SyncArtifactRef[];
  removed: SyncArtifactRef[];
}

/**
 * One state of a service's artifacts. Numbers count from 1 per service; a revision's artifacts never change
 * (only `bundleDigest`, a lookup key for the sync check, is refreshed by an unchanged sync).
 */
@Entity({ name: 'service_revisions' })
export class ServiceRevisionRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'service_id', type: 'uuid' })
  serviceId!: string;

  @Column({ type: 'integer' })
  number!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** The API token that synced it (kept after the token is deleted, for the audit trail). */
  @Column({ name: 'token_id', type: 'uuid', nullable: true })
  tokenId!: string | null;

  @Column({ name: 'artifact_count', type: 'integer' })
  artifactCount!: number;

  @Column({ type: 'jsonb' })
  changes!: RevisionChanges;

  /**
   * `syncBundleDigest` (libs/contracts) of the last bundle accepted as this revision: the one that created it,
   * or a later unchanged sync whose service metadata differed. Null for revisions stored before the column
   * existed (unknown, never "current").
   */
  @Column({ name: 'bundle_digest', type: 'char', length: 64, nullable: true })
  bundleDigest!: string | null;
}
