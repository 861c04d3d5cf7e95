import { Entity } from 'typeorm';
import type { MembershipSource, Role } from '@sc/contracts';
import { BooleanColumn, OrganizationRecord, TimestampColumn, UuidColumn, VarcharColumn } from '../../database/columns';

@Entity({ name: 'memberships' })
export class Membership extends OrganizationRecord {
  @UuidColumn()
  userId!: string;

  @VarcharColumn(16)
  role!: Role;

  @VarcharColumn(16)
  source!: MembershipSource;

  @BooleanColumn({ default: false })
  disabled!: boolean;

  @TimestampColumn()
  updatedAt!: Date;
}
