import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { MembershipSource, Role } from '@sc/contracts';

@Entity({ name: 'memberships' })
export class Membership {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 63 })
  organizationId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'varchar', length: 16 })
  role!: Role;

  @Column({ type: 'varchar', length: 16 })
  source!: MembershipSource;

  @Column({ type: 'boolean', default: false })
  disabled!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
