import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { TokenScope } from '@sc/contracts';

const scopesColumn = {
  to: (scopes: TokenScope[]) => scopes.join(' '),
  from: (value: string) => value.split(' ').filter(Boolean) as TokenScope[],
};

/** An API token. The database holds its SHA-256 and visible prefix, never the token itself. */
@Entity({ name: 'api_tokens' })
export class ApiToken {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 63 })
  organizationId!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 32 })
  prefix!: string;

  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ type: 'text', transformer: scopesColumn })
  scopes!: TokenScope[];

  @Column({ name: 'created_by_user_id', type: 'uuid', nullable: true })
  createdByUserId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
