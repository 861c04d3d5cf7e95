import { Entity } from 'typeorm';
import type { ApiSpecFormat, ArtifactKind, DatabaseEngine } from '@sc/contracts';
import type { ArtifactAnalysis } from '../../sync/artifact-analysis';
import { IntegerColumn, JsonColumn, Sha256Column, TextColumn, UuidColumn, UuidRecord, VarcharColumn } from '../../../../database/columns';

/**
 * One immutable version of one artifact of a service: its files (by hash) and what the server derived from
 * them when it validated them (graph, context report, schema tables). Revisions point at versions, so an
 * artifact that does not change is shared by every revision that contains it.
 */
@Entity({ name: 'artifact_versions' })
export class ArtifactVersionRecord extends UuidRecord {
  @UuidColumn()
  serviceId!: string;

  @VarcharColumn(32)
  kind!: ArtifactKind;

  @VarcharColumn(100)
  name!: string;

  /** See artifactFingerprint: kind, name, paths, hashes, engine and format. */
  @Sha256Column()
  fingerprint!: string;

  @TextColumn()
  path!: string;

  @Sha256Column()
  sha256!: string;

  @IntegerColumn()
  size!: number;

  @TextColumn({ nullable: true })
  contextPath!: string | null;

  @Sha256Column({ nullable: true })
  contextSha256!: string | null;

  @TextColumn({ nullable: true })
  notesPath!: string | null;

  @Sha256Column({ nullable: true })
  notesSha256!: string | null;

  @VarcharColumn(16, { nullable: true })
  engine!: DatabaseEngine | null;

  @VarcharColumn(16, { nullable: true })
  format!: ApiSpecFormat | null;

  /** `json`: keeps the key order of what was derived (a node's data fields in the context file's order). */
  @JsonColumn()
  analysis!: ArtifactAnalysis;

  /** The revision this version first appeared in. */
  @IntegerColumn()
  firstRevision!: number;
}
