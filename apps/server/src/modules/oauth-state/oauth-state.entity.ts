import { Entity } from 'typeorm';
import { OrganizationRecord, SealedSecretColumn, Sha256Column, TimestampColumn, UuidColumn, VarcharColumn } from '../../database/columns';

export type OAuthStatePurpose = 'login' | 'test';

/** One sign-in attempt between login start and callback. Only hashes of the state and binding values are kept. */
@Entity({ name: 'oauth_states' })
export class OAuthState extends OrganizationRecord {
  @Sha256Column()
  stateHash!: string;

  @UuidColumn()
  providerId!: string;

  @VarcharColumn(16)
  purpose!: OAuthStatePurpose;

  @VarcharColumn(128)
  nonce!: string;

  /** The PKCE verifier. */
  @SealedSecretColumn()
  codeVerifierSealed!: string;

  @VarcharColumn(2048)
  redirectPath!: string;

  @Sha256Column()
  bindingHash!: string;

  @UuidColumn({ nullable: true })
  initiatedByUserId!: string | null;

  @TimestampColumn()
  expiresAt!: Date;

  @TimestampColumn({ nullable: true })
  consumedAt!: Date | null;
}
