import { Transform } from 'class-transformer';
import { IsDefined, IsEmail, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { CreatedApiTokenResponse } from './tokens';
import { CreateOrganizationRequest, OrganizationResponse } from './organizations';
import { UserResponse } from './me';
import { asInstance } from './as-instance';
import { IsOptionalNotNull } from './optional-not-null';
import { FIELD_LIMITS } from './field-limits';

export class SetupOwnerRequest {
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(FIELD_LIMITS.email)
  email!: string;

  @IsOptionalNotNull()
  @IsString()
  @Length(1, FIELD_LIMITS.personName)
  name?: string;
}

export class SetupRequest {
  @IsString()
  @Length(1, 200)
  token!: string;

  @IsDefined()
  @ValidateNested()
  @Transform(({ value }) => asInstance(CreateOrganizationRequest, value))
  organization!: CreateOrganizationRequest;

  @IsDefined()
  @ValidateNested()
  @Transform(({ value }) => asInstance(SetupOwnerRequest, value))
  owner!: SetupOwnerRequest;
}

export interface SetupStatusResponse {
  /** True while no organization exists: the first-run setup page should be shown. */
  required: boolean;
}

export interface SetupResponse {
  organization: OrganizationResponse;
  user: UserResponse;
  /** A one-time admin API token for automation; shown only in this answer. */
  apiToken: CreatedApiTokenResponse;
}
