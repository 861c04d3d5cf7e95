import { Type } from 'class-transformer';
import { IsDefined, IsEmail, IsOptional, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { CreatedApiTokenResponse } from './tokens';
import { CreateOrganizationRequest, OrganizationResponse } from './organizations';
import { UserResponse } from './me';

export class SetupOwnerRequest {
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(320)
  email!: string;

  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;
}

export class SetupRequest {
  @IsString()
  @Length(1, 200)
  token!: string;

  @IsDefined()
  @ValidateNested()
  @Type(() => CreateOrganizationRequest)
  organization!: CreateOrganizationRequest;

  @IsDefined()
  @ValidateNested()
  @Type(() => SetupOwnerRequest)
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
