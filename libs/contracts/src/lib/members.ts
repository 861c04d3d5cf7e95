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
  createdAt: string;
}
