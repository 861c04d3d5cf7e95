import { Entity } from 'typeorm';
import { HashedTokenRecord, IntegerColumn, JsonColumn, TimestampColumn, UuidColumn, VarcharColumn } from '../../database/columns';

/** An embed link: a token that shows one service's diagrams (or one of them) on other sites, read-only. */
@Entity({ name: 'embed_links' })
export class EmbedLink extends HashedTokenRecord {
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

  /** null: any site may frame the page; []: none. */
  @JsonColumn({ nullable: true })
  frameAncestors!: string[] | null;

  @TimestampColumn({ nullable: true })
  expiresAt!: Date | null;
}
