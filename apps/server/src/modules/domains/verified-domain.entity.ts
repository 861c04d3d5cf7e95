import { Entity } from 'typeorm';
import type { DomainState } from '@sc/contracts';
import { OrganizationRecord, TextColumn, TimestampColumn, VarcharColumn } from '../../database/columns';

@Entity({ name: 'verified_domains' })
export class VerifiedDomain extends OrganizationRecord {
  /** Lower-case, no trailing dot. */
  @VarcharColumn(253)
  domain!: string;

  /** The value after `service-verification=`; public by nature (it is published in DNS). */
  @VarcharColumn(64)
  token!: string;

  @VarcharColumn(16)
  state!: DomainState;

  @TimestampColumn({ nullable: true })
  verifiedAt!: Date | null;

  @TimestampColumn({ nullable: true })
  lastCheckedAt!: Date | null;

  @TextColumn({ nullable: true })
  lastError!: string | null;
}
