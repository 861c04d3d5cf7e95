import { Entity } from 'typeorm';
import { IntegerColumn, JsonColumn, OrganizationRecord, Sha256Column, TimestampColumn, UuidColumn, VarcharColumn } from '../../database/columns';

/** An embed link (migration 1765900000000). The database holds the token's SHA-256 and visible prefix, never the token. */
@Entity({ name: 'embed_links' })
export class EmbedLink extends OrganizationRecord {
  @UuidColumn()
  serviceId!: string;

  /** Service names never change (a service is its name); kept to read the images by name. */
  @VarcharColumn(100)
  serviceName!: string;

  /** null: every architecture diagram of the service. */
  @VarcharColumn(100, { nullable: true })
  diagram!: string | null;

  /** null: the current revision. */
  @IntegerColumn({ nullable: true })
  revision!: number | null;

  @VarcharColumn(32)
  prefix!: string;

  @Sha256Column()
  tokenHash!: string;

  /** null: any site may frame the page; []: none. */
  @JsonColumn({ nullable: true })
  frameAncestors!: string[] | null;

  @UuidColumn({ nullable: true })
  createdByUserId!: string | null;

  @TimestampColumn({ nullable: true })
  expiresAt!: Date | null;

  @TimestampColumn({ nullable: true })
  lastUsedAt!: Date | null;

  @TimestampColumn({ nullable: true })
  revokedAt!: Date | null;
}
