import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SsoAuditOutcome } from '@sc/contracts';

/** One sign-in or test sign-in attempt. Claim values are never stored: `claimNames` maps names to kinds. */
@Entity({ name: 'sso_audit_events' })
export class SsoAuditEvent {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 63 })
  organizationId!: string;

  @Column({ name: 'provider_id', type: 'uuid', nullable: true })
  providerId!: string | null;

  @Column({ name: 'provider_slug', type: 'varchar', length: 63 })
  providerSlug!: string;

  @Column({ type: 'boolean' })
  test!: boolean;

  @Column({ type: 'varchar', length: 16 })
  outcome!: SsoAuditOutcome;

  @Column({ name: 'error_code', type: 'varchar', length: 64, nullable: true })
  errorCode!: string | null;

  @Column({ type: 'text' })
  message!: string;

  @Column({ type: 'varchar', length: 320, nullable: true })
  email!: string | null;

  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  subject!: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  role!: string | null;

  @Column({ name: 'claim_names', type: 'jsonb' })
  claimNames!: Record<string, string>;

  @Column({ type: 'jsonb' })
  warnings!: string[];

  @Column({ name: 'ip_address', type: 'varchar', length: 64, nullable: true })
  ipAddress!: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 512, nullable: true })
  userAgent!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
