import { Column, Entity, PrimaryColumn } from 'typeorm';

/** File content addressed by its SHA-256: a file that does not change is stored once, whatever the revisions. */
@Entity({ name: 'artifact_blobs' })
export class ArtifactBlobRecord {
  @PrimaryColumn({ type: 'char', length: 64 })
  sha256!: string;

  @Column({ type: 'text' })
  content!: string;

  /** UTF-8 bytes. */
  @Column({ type: 'integer' })
  size!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
