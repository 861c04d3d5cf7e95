import { Entity } from 'typeorm';
import { BooleanColumn, OrganizationRecord, Sha256Column, TimestampColumn, UuidColumn } from '../../database/columns';

/** A one-time sign-in link (break-glass before SSO). Only the SHA-256 of the link token is stored. */
@Entity({ name: 'sign_in_links' })
export class SignInLink extends OrganizationRecord {
  @Sha256Column()
  tokenHash!: string;

  @UuidColumn()
  userId!: string;

  @UuidColumn({ nullable: true })
  createdByUserId!: string | null;

  @TimestampColumn()
  expiresAt!: Date;

  @TimestampColumn({ nullable: true })
  usedAt!: Date | null;

  /** Minted by the `sign-in-link` command on the server host: the only links an SSO-only organization redeems. */
  @BooleanColumn()
  breakGlass!: boolean;
}
