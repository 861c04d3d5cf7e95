import { Entity, PrimaryColumn } from 'typeorm';
import type { ArtifactKind } from '@sc/contracts';
import { UuidColumn } from '../../../../database/columns';

/** Membership of an artifact version in a revision; (revision, kind, name) is unique by primary key. */
@Entity({ name: 'revision_artifacts' })
export class RevisionArtifactRecord {
  @PrimaryColumn({ name: 'revision_id', type: 'uuid' })
  revisionId!: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  kind!: ArtifactKind;

  @PrimaryColumn({ type: 'varchar', length: 100 })
  name!: string;

  @UuidColumn()
  versionId!: string;
}
