import { Entity } from 'typeorm';
import type { SyncArtifactRef, SyncSource, TokenRef } from '@sc/contracts';
import { IntegerColumn, JsonbColumn, Sha256Column, UuidColumn, UuidRecord } from '../../../../database/columns';

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
export class ServiceRevisionRecord extends UuidRecord {
  @UuidColumn()
  serviceId!: string;

  @IntegerColumn()
  number!: number;

  /** The API token that synced it (kept after the token is deleted, for the audit trail). */
  @UuidColumn({ nullable: true })
  tokenId!: string | null;

  @IntegerColumn()
  artifactCount!: number;

  @JsonbColumn()
  changes!: RevisionChanges;

  /**
   * `syncBundleDigest` (libs/contracts) of the last bundle accepted as this revision: the one that created it,
   * or a later unchanged sync whose service metadata differed. Null for revisions stored before the column
   * existed (unknown, never "current").
   */
  @Sha256Column({ nullable: true })
  bundleDigest!: string | null;

  /** The token that synced it with its creator, as they were then (null: older revision whose token is gone). */
  @JsonbColumn({ nullable: true })
  syncedBy!: TokenRef | null;

  /** The commit, branch and CI run the CLI reported. */
  @JsonbColumn({ nullable: true })
  source!: SyncSource | null;
}
