import { Column, Entity, PrimaryColumn } from 'typeorm';

export type OAuthStatePurpose = 'login' | 'test';

/** One sign-in attempt between login start and callback. Only hashes of the state and binding values are kept. */
@Entity({ name: 'oauth_states' })
export class OAuthState {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'state_hash', type: 'char', length: 64 })
  stateHash!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 63 })
  organizationId!: string;

  @Column({ name: 'provider_id', type: 'uuid' })
  providerId!: string;

  @Column({ type: 'varchar', length: 16 })
  purpose!: OAuthStatePurpose;

  @Column({ type: 'varchar', length: 128 })
  nonce!: string;

  /** PKCE verifier, sealed with SecretBox. */
  @Column({ name: 'code_verifier_sealed', type: 'text' })
  codeVerifierSealed!: string;

  @Column({ name: 'redirect_path', type: 'varchar', length: 2048 })
  redirectPath!: string;

  @Column({ name: 'binding_hash', type: 'char', length: 64 })
  bindingHash!: string;

  @Column({ name: 'initiated_by_user_id', type: 'uuid', nullable: true })
  initiatedByUserId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt!: Date | null;
}
