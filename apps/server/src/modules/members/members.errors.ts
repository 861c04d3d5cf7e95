import { domainErrorFactory } from '../../common/errors/domain-error';

export enum MembersErrorCode {
  NotFound = 'member_not_found',
  AlreadyMember = 'member_exists',
  LastOwner = 'last_owner',
  OwnerRoleRequired = 'owner_role_required',
}

export const membersError = domainErrorFactory<MembersErrorCode>({
  [MembersErrorCode.NotFound]: 404,
  [MembersErrorCode.AlreadyMember]: 409,
  [MembersErrorCode.LastOwner]: 409,
  [MembersErrorCode.OwnerRoleRequired]: 403,
});
