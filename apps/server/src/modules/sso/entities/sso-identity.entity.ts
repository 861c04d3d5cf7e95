import { Entity } from 'typeorm';
import { OrganizationRecord, TimestampColumn, UuidColumn, VarcharColumn } from '../../../database/columns';

/** Provider identity link: which user a provider's subject signed in as. One subject per user and provider. */
@Entity({ name: 'sso_identities' })
export class SsoIdentity extends OrganizationRecord {
  @UuidColumn()
  providerId!: string;

  @UuidColumn()
  userId!: string;

  @VarcharColumn(255)
  subject!: string;

  /** The email the provider reported at the last sign-in. */
  @VarcharColumn(320)
  email!: string;

  @TimestampColumn()
  lastLoginAt!: Date;
}
