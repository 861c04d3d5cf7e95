import { Entity, PrimaryColumn } from 'typeorm';
import { BooleanColumn, TimestampColumn, VarcharColumn } from '../../database/columns';

@Entity({ name: 'organizations' })
export class Organization {
  @PrimaryColumn({ type: 'varchar', length: 63 })
  id!: string;

  @VarcharColumn(200)
  name!: string;

  @TimestampColumn()
  createdAt!: Date;

  /** Members sign in only through the organization's enabled SSO providers (owners: also break-glass links). */
  @BooleanColumn()
  requireSso!: boolean;
}
