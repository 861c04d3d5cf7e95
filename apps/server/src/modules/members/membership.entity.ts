import { Entity } from 'typeorm';
import type { MemberAddedBy, MembershipSource, Role } from '@sc/contracts';
import { BooleanColumn, JsonbColumn, OrganizationRecord, UuidColumn, VarcharColumn, WithUpdatedAt } from '../../database/columns';

@Entity({ name: 'memberships' })
export class Membership extends WithUpdatedAt(OrganizationRecord) {
  @UuidColumn()
  userId!: string;

  @VarcharColumn(16)
  role!: Role;

  @VarcharColumn(16)
  source!: MembershipSource;

  @BooleanColumn({ default: false })
  disabled!: boolean;

  /** How the membership was created and by whom (a snapshot: names as they were then). */
  @JsonbColumn()
  addedBy!: MemberAddedBy;
}
