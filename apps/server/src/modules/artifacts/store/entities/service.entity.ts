import { Entity } from 'typeorm';
import { IntegerColumn, OrganizationRecord, TextColumn, TimestampColumn, VarcharColumn, WithUpdatedAt } from '../../../../database/columns';

/** A service of an organization, created by its first sync; its name is unique in the organization. */
@Entity({ name: 'services' })
export class ServiceRecord extends WithUpdatedAt(OrganizationRecord) {
  @VarcharColumn(100)
  name!: string;

  @TextColumn({ nullable: true })
  description!: string | null;

  @TextColumn({ nullable: true })
  repositoryUrl!: string | null;

  /** 0 until the first sync that stored artifacts. */
  @IntegerColumn()
  currentRevision!: number;

  @TimestampColumn({ nullable: true })
  lastSyncedAt!: Date | null;
}
