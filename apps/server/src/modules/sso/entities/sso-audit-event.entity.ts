import { Entity } from 'typeorm';
import type { SsoAuditOutcome } from '@sc/contracts';
import { BooleanColumn, ClientAddressColumn, ErrorCodeColumn, JsonbColumn, OrganizationRecord, TextColumn, UuidColumn, VarcharColumn } from '../../../database/columns';

/** One sign-in or test sign-in attempt. Claim values are never stored: `claimNames` maps names to kinds. */
@Entity({ name: 'sso_audit_events' })
export class SsoAuditEvent extends OrganizationRecord {
  @UuidColumn({ nullable: true })
  providerId!: string | null;

  @VarcharColumn(63)
  providerSlug!: string;

  @BooleanColumn()
  test!: boolean;

  @VarcharColumn(16)
  outcome!: SsoAuditOutcome;

  @ErrorCodeColumn()
  errorCode!: string | null;

  @TextColumn()
  message!: string;

  @VarcharColumn(320, { nullable: true })
  email!: string | null;

  @UuidColumn({ nullable: true })
  userId!: string | null;

  @VarcharColumn(255, { nullable: true })
  subject!: string | null;

  @VarcharColumn(16, { nullable: true })
  role!: string | null;

  @JsonbColumn()
  claimNames!: Record<string, string>;

  @JsonbColumn()
  warnings!: string[];

  @ClientAddressColumn()
  ipAddress!: string | null;

  @VarcharColumn(512, { nullable: true })
  userAgent!: string | null;
}
