import { Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn, VarcharColumn } from '../../database/columns';

@Entity({ name: 'organizations' })
export class Organization {
  @PrimaryColumn({ type: 'varchar', length: 63 })
  id!: string;

  @VarcharColumn(200)
  name!: string;

  @TimestampColumn()
  createdAt!: Date;
}
