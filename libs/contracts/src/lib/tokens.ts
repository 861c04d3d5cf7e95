import { ArrayMinSize, ArrayUnique, IsArray, IsDateString, IsIn, IsString, Length } from 'class-validator';
import { TOKEN_SCOPES } from './auth';
import { IsOptionalNotNull } from './optional-not-null';
import type { TokenScope } from './auth';
import { FIELD_LIMITS } from './field-limits';

export class CreateApiTokenRequest {
  @IsString()
  @Length(1, FIELD_LIMITS.apiTokenName)
  name!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(TOKEN_SCOPES, { each: true, message: `each scope must be one of ${TOKEN_SCOPES.join(', ')}` })
  scopes!: TokenScope[];

  /** ISO 8601 date-time in the future; omit for a token that does not expire. */
  @IsOptionalNotNull()
  @IsDateString({ strict: true }, { message: 'expiresAt must be an ISO 8601 date-time' })
  expiresAt?: string;
}

export interface ApiTokenResponse {
  id: string;
  name: string;
  /** The visible start of the token (`sct_ab12cd34`), to recognise it; never the secret. */
  prefix: string;
  scopes: TokenScope[];
  /**
   * The member who created the token (for a token created with another token: that token's creator). The
   * token never acts above this member's current role and is revoked when the member is removed or disabled.
   * null only for tokens created before creators were recorded: those are bounded by their scopes alone.
   */
  createdByUserId: string | null;
  /** That member's email and name as they are now (null with createdByUserId null, or for a deleted user). */
  createdBy: { email: string; displayName: string } | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Answer of token creation: the only time the raw token is ever shown. */
export interface CreatedApiTokenResponse {
  token: string;
  apiToken: ApiTokenResponse;
}
