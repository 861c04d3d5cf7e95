import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ApiSpecFormat, ArtifactKind, DatabaseEngine } from '@sc/contracts';
import type { ArtifactAnalysis } from '../artifact-analysis';

/**
 * One immutable version of one artifact of a service: its files (by hash) and what the server derived from
 * them when it validated them (graph, context report, schema tables). Revisions point at versions, so an
 * artifact that does not change is shared by every revision that contains it.
 */
@Entity({ name: 'artifact_versions' })
export class ArtifactVersionRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'service_id', type: 'uuid' })
  serviceId!: string;

  @Column({ type: 'varchar', length: 32 })
  kind!: ArtifactKind;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  /** See artifactFingerprint: kind, name, paths, hashes, engine and format. */
  @Column({ type: 'char', length: 64 })
  fingerprint!: string;

  @Column({ type: 'text' })
  path!: string;

  @Column({ type: 'char', length: 64 })
  sha256!: string;

  @Column({ type: 'integer' })
  size!: number;

  @Column({ name: 'context_path', type: 'text', nullable: true })
  contextPath!: string | null;

  @Column({ name: 'context_sha256', type: 'char', length: 64, nullable: true })
  contextSha256!: string | null;

  @Column({ name: 'notes_path', type: 'text', nullable: true })
  notesPath!: string | null;

  @Column({ name: 'notes_sha256', type: 'char', length: 64, nullable: true })
  notesSha256!: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  engine!: DatabaseEngine | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  format!: ApiSpecFormat | null;

  @Column({ type: 'jsonb' })
  analysis!: ArtifactAnalysis;

  /** The revision this version first appeared in. */
  @Column({ name: 'first_revision', type: 'integer' })
  firstRevision!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
