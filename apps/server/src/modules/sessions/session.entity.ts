import { Entity } from 'typeorm';
import { BooleanColumn, OrganizationRecord, Sha256Column, TimestampColumn, UuidColumn } from '../../database/columns';

/** A browser session. Only the SHA-256 of the cookie value is stored. */
@Entity({ name: 'sessions' })
export class Session extends OrganizationRecord {
  @Sha256Column()
  tokenHash!: string;

  @UuidColumn()
  userId!: string;

  @TimestampColumn()
  lastSeenAt!: Date;

  @TimestampColumn()
  idleExpiresAt!: Date;

  @TimestampColumn()
  absoluteExpiresAt!: Date;

  /** Started by a sign-in through one of the organization's SSO providers (what enabling Require SSO asks of the owner). */
  @BooleanColumn()
  viaSso!: boolean;
}
