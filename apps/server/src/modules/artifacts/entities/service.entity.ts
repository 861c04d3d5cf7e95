import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A service of an organization, created by its first sync; its name is unique in the organization. */
@Entity({ name: 'services' })
export class ServiceRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 63 })
  organizationId!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: 'repository_url', type: 'text', nullable: true })
  repositoryUrl!: string | null;

  /** 0 until the first sync that stored artifacts. */
  @Column({ name: 'current_revision', type: 'integer' })
  currentRevision!: number;

  @Column({ name: 'last_synced_at', type: 'timestamptz', nullable: true })
  lastSyncedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
