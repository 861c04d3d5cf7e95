import { Entity } from 'typeorm';
import { BooleanColumn, UuidRecord, VarcharColumn } from '../../database/columns';

@Entity({ name: 'users' })
export class User extends UuidRecord {
  /** Stored normalized (trimmed, lower-case); unique. */
  @VarcharColumn(320)
  email!: string;

  @VarcharColumn(200, { nullable: true })
  displayName!: string | null;

  @BooleanColumn({ default: false })
  disabled!: boolean;
}
