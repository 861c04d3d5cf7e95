import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'users' })
export class User {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** Stored normalized (trimmed, lower-case); unique. */
  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ name: 'display_name', type: 'varchar', length: 200, nullable: true })
  displayName!: string | null;

  @Column({ type: 'boolean', default: false })
  disabled!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
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
