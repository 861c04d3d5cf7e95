import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AuditAction, AuditActorType, AuditTargetType } from '@sc/contracts';

/** One change to an organization's members, tokens, SSO providers or the organization itself. Never holds a secret. */
@Entity({ name: 'audit_events' })
export class AuditEvent {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** Insertion order (database sequence): entries of one transaction share a time but keep their order. */
  @Column({ type: 'bigint', insert: false, update: false })
  seq!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 63 })
  organizationId!: string;

  @Column({ type: 'varchar', length: 64 })
  action!: AuditAction;

  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType!: AuditActorType;

  @Column({ name: 'actor_user_id', type: 'uuid', nullable: true })
  actorUserId!: string | null;

  @Column({ name: 'actor_email', type: 'varchar', length: 320, nullable: true })
  actorEmail!: string | null;

  @Column({ name: 'actor_token_id', type: 'uuid', nullable: true })
  actorTokenId!: string | null;

  @Column({ name: 'actor_token_prefix', type: 'varchar', length: 32, nullable: true })
  actorTokenPrefix!: string | null;

  @Column({ name: 'target_type', type: 'varchar', length: 32 })
  targetType!: AuditTargetType;

  @Column({ name: 'target_id', type: 'varchar', length: 255 })
  targetId!: string;

  @Column({ name: 'target_label', type: 'varchar', length: 320, nullable: true })
  targetLabel!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  before!: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  after!: Record<string, unknown> | null;

  @Column({ name: 'ip_address', type: 'varchar', length: 64, nullable: true })
  ipAddress!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
