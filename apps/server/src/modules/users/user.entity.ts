import { Entity } from 'typeorm';
import { BooleanColumn, TimestampColumn, UuidPrimaryColumn, VarcharColumn } from '../../database/columns';

@Entity({ name: 'users' })
export class User {
  @UuidPrimaryColumn()
  id!: string;

  /** Stored normalized (trimmed, lower-case); unique. */
  @VarcharColumn(320)
  email!: string;

  @VarcharColumn(200, { nullable: true })
  displayName!: string | null;

  @BooleanColumn({ default: false })
  disabled!: boolean;

  @TimestampColumn()
  createdAt!: Date;
}

/** Email addresses compare case-insensitively: `Ann@Example.com` and `ann@example.com` are one user. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The name to show: the display name, or the email when there is none. */
export function displayNameOf(user: Pick<User, 'displayName' | 'email'>): string {
  return user.displayName?.trim() || user.email;
}
