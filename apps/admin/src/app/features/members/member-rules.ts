import { ROLES, ROLE_RANK, type MemberResponse, type Role } from '@sc/contracts';

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: 'Full control, including owners and organization settings',
  admin: 'Manages members, tokens and settings',
  editor: 'Changes content',
  viewer: 'Reads everything',
};

/** Roles a person may hand out: never more than their own (only an owner makes owners). */
export function assignableRoles(myRole: Role | null): Role[] {
  if (myRole === null) return [];
  return ROLES.filter((role) => ROLE_RANK[role] <= ROLE_RANK[myRole]);
}

/** Strongest role first, then by name, so owners and admins are easy to find. */
export function sortMembers(members: readonly MemberResponse[]): MemberResponse[] {
  return [...members].sort(
    (a, b) =>
      ROLE_RANK[b.role] - ROLE_RANK[a.role] ||
      a.displayName.localeCompare(b.displayName, undefined, { sensitivity: 'base' }) ||
      a.email.localeCompare(b.email),
  );
}
