import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SyncArtifactRef } from '@sc/contracts';

export interface RevisionChanges {
  created: SyncArtifactRef[];
  updated: SyncArtifactRef[];
  removed: SyncArtifactRef[];
}

/** One state of a service's artifacts. Numbers count from 1 per service; a revision is never modified. */
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
}
