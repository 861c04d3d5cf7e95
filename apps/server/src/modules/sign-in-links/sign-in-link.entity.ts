import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A one-time sign-in link (break-glass before SSO). Only the SHA-256 of the link token is stored. */
@Entity({ name: 'sign_in_links' })
export class SignInLink {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 63 })
  organizationId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'created_by_user_id', type: 'uuid', nullable: true })
  createdByUserId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;
}
