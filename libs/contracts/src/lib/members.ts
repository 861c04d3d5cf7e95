import { IsBoolean, IsEmail, IsIn, IsString, Length, MaxLength } from 'class-validator';
import { ROLES } from './auth';
import { IsOptionalNotNull } from './optional-not-null';
import type { MembershipSource, Role } from './auth';
import { FIELD_LIMITS } from './field-limits';

export class AddMemberRequest {
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(FIELD_LIMITS.email)
  email!: string;

  @IsIn(ROLES, { message: `role must be one of ${ROLES.join(', ')}` })
  role!: Role;

  /** Used only when the user does not exist yet; the email is shown when absent. */
  @IsOptionalNotNull()
  @IsString()
  @Length(1, FIELD_LIMITS.personName)
  displayName?: string;
}

export class UpdateMemberRequest {
  @IsOptionalNotNull()
  @IsIn(ROLES, { message: `role must be one of ${ROLES.join(', ')}` })
  role?: Role;

  @IsOptionalNotNull()
  @IsBoolean()
  disabled?: boolean;
}

export interface MemberResponse {
  userId: string;
  email: string;
  /** The user's name, or the email when no name is known. */
  displayName: string;
  role: Role;
  source: MembershipSource;
  /** The membership is disabled in this organization. */
  disabled: boolean;
  /** The user account is disabled everywhere. */
  userDisabled: boolean;
  /** How the membership came to be and who made it (shown as "Added by"). */
  addedBy: MemberAddedBy;
  createdAt: string;
}

/**
 * An API token as other records remember it: its name and prefix, and the member who answers for it, as they were
 * when the record was written (the token may be revoked or renamed since).
 */
export interface TokenRef {
  tokenId: string;
  tokenName: string | null;
  tokenPrefix: string | null;
  /** The token's creator (null: created before creators were recorded). */
  userId: string | null;
  email: string | null;
}

/**
 * How a membership was created: `setup` first-run setup; `organization` its member created the organization;
 * `member` added by another member (`email`); `token` added with an API token; `sso` signed up through an SSO
 * provider; `unknown` a membership older than this record whose audit log entry is gone.
 */
export type MemberAddedBy =
  | { kind: 'setup' }
  | { kind: 'organization' }
  | { kind: 'member'; userId: string | null; email: string | null }
  | ({ kind: 'token' } & TokenRef)
  | { kind: 'sso'; providerSlug: string | null; providerName: string | null }
  | { kind: 'scim'; tokenId: string; tokenName: string }
  | { kind: 'unknown' };

/** "Added by" in words: "First-run setup", "ada@acme.example", "SSO sign-up through Acme Login", … */
export function describeAddedBy(addedBy: MemberAddedBy): string {
  switch (addedBy.kind) {
    case 'setup':
      return 'First-run setup';
    case 'organization':
      return 'Created the organization';
    case 'member':
      return `Added by ${addedBy.email ?? 'a former member'}`;
    case 'token':
      return `API token ${addedBy.tokenName ?? addedBy.tokenPrefix ?? addedBy.tokenId}${addedBy.email ? ` (created by ${addedBy.email})` : ''}`;
    case 'sso':
      return `SSO sign-up through ${addedBy.providerName ?? addedBy.providerSlug ?? 'a deleted provider'}`;
    case 'scim':
      return `SCIM provisioning (token ${addedBy.tokenName})`;
    case 'unknown':
      return 'Unknown (added before this was recorded)';
  }
}
