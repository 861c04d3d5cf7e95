import { ROLES, ROLE_RANK, type ApiTokenResponse, type MemberResponse, type Role } from '@sc/contracts';

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

/** The sentence of a remove/disable confirmation about the member's API tokens. */
export function revokedTokensSentence(tokens: readonly ApiTokenResponse[]): string {
  if (tokens.length === 0) return 'They created no API tokens that are still in use.';
  return tokens.length === 1 ? 'This API token they created is revoked:' : `These ${tokens.length} API tokens they created are revoked:`;
}

export function describeToken(token: ApiTokenResponse): string {
  return `${token.name} (${token.prefix}…, ${token.scopes.join(', ')})`;
}
