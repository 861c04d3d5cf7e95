import { IsString, Length, Matches } from 'class-validator';
import { ORGANIZATION_ID_PATTERN } from './auth';
import { FIELD_LIMITS } from './field-limits';

export class CreateOrganizationRequest {
  @Matches(ORGANIZATION_ID_PATTERN, { message: 'id must be 2-63 characters of lower-case letters, digits and dashes, starting with a letter or digit' })
  id!: string;

  @IsString()
  @Length(1, FIELD_LIMITS.organizationName)
  name!: string;
}

export interface OrganizationResponse {
  id: string;
  name: string;
  createdAt: string;
}
