import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ClaimRule, EntraCloud, SsoProviderType, SsoRole } from '@sc/contracts';

@Entity({ name: 'sso_providers' })
export class SsoProvider {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 63 })
  organizationId!: string;

  /** Permanent: part of the callback URL registered at the provider. */
  @Column({ type: 'varchar', length: 63 })
  slug!: string;

  @Column({ name: 'display_name', type: 'varchar', length: 100 })
  displayName!: string;

  @Column({ type: 'varchar', length: 16 })
  type!: SsoProviderType;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  @Column({ name: 'tenant_id', type: 'varchar', length: 253, nullable: true })
  tenantId!: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  cloud!: EntraCloud | null;

  @Column({ type: 'varchar', length: 253, nullable: true })
  domain!: string | null;

  @Column({ name: 'client_id', type: 'varchar', length: 512 })
  clientId!: string;

  /** AES-256-GCM (SecretBox) under SERVICE_SECRET_KEY; never returned nor logged. */
  @Column({ name: 'client_secret_sealed', type: 'text' })
  clientSecretSealed!: string;

  @Column({ type: 'varchar', length: 1000 })
  scopes!: string;

  @Column({ name: 'auth_url', type: 'varchar', length: 2048, nullable: true })
  authUrl!: string | null;

  @Column({ name: 'token_url', type: 'varchar', length: 2048, nullable: true })
  tokenUrl!: string | null;

  @Column({ name: 'userinfo_url', type: 'varchar', length: 2048, nullable: true })
  userinfoUrl!: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  issuer!: string | null;

  @Column({ name: 'jwks_uri', type: 'varchar', length: 2048, nullable: true })
  jwksUri!: string | null;

  @Column({ name: 'email_claim', type: 'varchar', length: 200 })
  emailClaim!: string;

  @Column({ name: 'name_claim', type: 'varchar', length: 200 })
  nameClaim!: string;

  @Column({ name: 'subject_claim', type: 'varchar', length: 200 })
  subjectClaim!: string;

  @Column({ name: 'allowed_domains', type: 'jsonb' })
  allowedDomains!: string[];

  @Column({ name: 'allow_sign_up', type: 'boolean' })
  allowSignUp!: boolean;

  @Column({ name: 'default_role', type: 'varchar', length: 16 })
  defaultRole!: SsoRole;

  @Column({ name: 'claim_rules', type: 'jsonb' })
  claimRules!: ClaimRule[];

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
