import { ROLE_RANK, Role, TokenScope } from '@sc/contracts';

/** Who is calling: a browser session or an API token, each bound to exactly one organization. */
export type Principal = SessionPrincipal | TokenPrincipal;

export interface SessionPrincipal {
  kind: 'session';
  organizationId: string;
  userId: string;
  role: Role;
  sessionId: string;
}

export interface TokenPrincipal {
  kind: 'token';
  organizationId: string;
  scopes: TokenScope[];
  tokenId: string;
}

/**
 * The member rank the principal acts with for `method`: a session's role; for a token, `admin` acts as
 * an admin and `read` as a viewer for safe (read-only) methods. `sync` grants no rank: it only opens
 * routes explicitly marked for sync.
 */
export function effectiveRank(principal: Principal, method: string): number {
  if (principal.kind === 'session') return ROLE_RANK[principal.role];
  if (principal.scopes.includes('admin')) return ROLE_RANK.admin;
  if (principal.scopes.includes('read') && isSafeMethod(method)) return ROLE_RANK.viewer;
  return 0;
}

export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/** The Express request as seen after AuthGuard. */
export interface AuthenticatedRequest {
  principal?: Principal;
}
