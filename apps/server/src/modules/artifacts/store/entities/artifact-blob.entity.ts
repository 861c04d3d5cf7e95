import { Entity, PrimaryColumn } from 'typeorm';
import { IntegerColumn, TextColumn, TimestampColumn } from '../../../../database/columns';

/** File content addressed by its SHA-256: a file that does not change is stored once, whatever the revisions. */
@Entity({ name: 'artifact_blobs' })
export class ArtifactBlobRecord {
  @PrimaryColumn({ type: 'char', length: 64 })
  sha256!: string;

  @TextColumn()
  content!: string;

  /** UTF-8 bytes. */
  @IntegerColumn()
  size!: number;

  @TimestampColumn()
  createdAt!: Date;
}
