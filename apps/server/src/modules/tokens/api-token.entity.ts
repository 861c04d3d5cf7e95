import { Entity } from 'typeorm';
import type { TokenScope } from '@sc/contracts';
import { HashedTokenRecord, TextColumn, TimestampColumn, VarcharColumn } from '../../database/columns';

const scopesColumn = {
  to: (scopes: TokenScope[]) => scopes.join(' '),
  from: (value: string) => value.split(' ').filter(Boolean) as TokenScope[],
};

/** An API token: what it may do (scopes) and until when. */
@Entity({ name: 'api_tokens' })
export class ApiToken extends HashedTokenRecord {
  @VarcharColumn(100)
  name!: string;

  @TextColumn({ transformer: scopesColumn })
  scopes!: TokenScope[];

  @TimestampColumn({ nullable: true })
  expiresAt!: Date | null;
}
