import { Entity } from 'typeorm';
import type { TokenScope } from '@sc/contracts';
import { OrganizationRecord, Sha256Column, TextColumn, TimestampColumn, UuidColumn, VarcharColumn } from '../../database/columns';

const scopesColumn = {
  to: (scopes: TokenScope[]) => scopes.join(' '),
  from: (value: string) => value.split(' ').filter(Boolean) as TokenScope[],
};

/** An API token. The database holds its SHA-256 and visible prefix, never the token itself. */
@Entity({ name: 'api_tokens' })
export class ApiToken extends OrganizationRecord {
  @VarcharColumn(100)
  name!: string;

  @VarcharColumn(32)
  prefix!: string;

  @Sha256Column()
  tokenHash!: string;

  @TextColumn({ transformer: scopesColumn })
  scopes!: TokenScope[];

  @UuidColumn({ nullable: true })
  createdByUserId!: string | null;

  @TimestampColumn({ nullable: true })
  expiresAt!: Date | null;

  @TimestampColumn({ nullable: true })
  lastUsedAt!: Date | null;

  @TimestampColumn({ nullable: true })
  revokedAt!: Date | null;
}
