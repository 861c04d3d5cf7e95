import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Provider identity link: which user a provider's subject signed in as. One subject per user and provider. */
@Entity({ name: 'sso_identities' })
export class SsoIdentity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 63 })
  organizationId!: string;

  @Column({ name: 'provider_id', type: 'uuid' })
  providerId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  /** The email the provider reported at the last sign-in. */
  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_login_at', type: 'timestamptz' })
  lastLoginAt!: Date;
}
