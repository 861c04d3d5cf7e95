import { Column, Entity } from 'typeorm';
import type { AuditAction, AuditActorType, AuditTargetType } from '@sc/contracts';
import { ClientAddressColumn, JsonbColumn, OrganizationRecord, TokenPrefixColumn, UuidColumn, VarcharColumn } from '../../database/columns';

/** One change to an organization's members, tokens, SSO providers or the organization itself. Never holds a secret. */
@Entity({ name: 'audit_events' })
export class AuditEvent extends OrganizationRecord {
  /** Insertion order (database sequence): entries of one transaction share a time but keep their order. */
  @Column({ type: 'bigint', insert: false, update: false })
  seq!: string;

  @VarcharColumn(64)
  action!: AuditAction;

  @VarcharColumn(16)
  actorType!: AuditActorType;

  @UuidColumn({ nullable: true })
  actorUserId!: string | null;

  @VarcharColumn(320, { nullable: true })
  actorEmail!: string | null;

  @UuidColumn({ nullable: true })
  actorTokenId!: string | null;

  @TokenPrefixColumn({ nullable: true })
  actorTokenPrefix!: string | null;

  @VarcharColumn(32)
  targetType!: AuditTargetType;

  @VarcharColumn(255)
  targetId!: string;

  @VarcharColumn(320, { nullable: true })
  targetLabel!: string | null;

  @JsonbColumn({ nullable: true })
  before!: Record<string, unknown> | null;

  @JsonbColumn({ nullable: true })
  after!: Record<string, unknown> | null;

  @ClientAddressColumn()
  ipAddress!: string | null;
}
