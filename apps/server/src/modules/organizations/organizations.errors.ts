import { domainErrorFactory } from '../../common/errors/domain-error';

export enum OrganizationsErrorCode {
  /** Also answered for organizations the caller may not see, so their existence is not revealed. */
  NotFound = 'organization_not_found',
  AlreadyExists = 'organization_exists',
  OwnerRequired = 'owner_required',
}

export const organizationsError = domainErrorFactory<OrganizationsErrorCode>({
  [OrganizationsErrorCode.NotFound]: 404,
  [OrganizationsErrorCode.AlreadyExists]: 409,
  [OrganizationsErrorCode.OwnerRequired]: 403,
});
