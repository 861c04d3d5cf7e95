import { ROLE_RANK, Role, TokenScope } from '@sc/contracts';

/** Who is calling: a browser session or an API token, each bound to exactly one organization. */
export type Principal = SessionPrincipal | TokenPrincipal;

interface Caller {
  /** The client address of the request (Express `req.ip`, so SERVICE_TRUST_PROXY applies): the audit log records it. */
  clientAddress: string | null;
}

export interface SessionPrincipal extends Caller {
  kind: 'session';
  organizationId: string;
  userId: string;
  role: Role;
  sessionId: string;
}

export interface TokenPrincipal extends Caller {
  kind: 'token';
  organizationId: string;
  scopes: TokenScope[];
  tokenId: string;
  /** The visible start of the token (`sct_ab12cd34`), to name it in the audit log. */
  tokenPrefix: string;
  /** The token's name as its creator gave it (revisions and added-by records keep it). */
  tokenName: string;
  /** The member accountable for the token (null: created before creators were recorded). */
  createdByUserId: string | null;
  /** That member's current role in the organization, which bounds the token; null when the creator is unknown. */
  creatorRole: Role | null;
  /** That member's email (null when the creator is unknown). */
  creatorEmail: string | null;
}

/**
 * The member rank the principal acts with for `method`: a session's role; for a token, `admin` acts as
 * an admin and `read` as a viewer for safe (read-only) methods, never above its creator's current role.
 * `sync` grants no rank: it only opens routes explicitly marked for sync (see `tokenCapRank`).
 */
export function effectiveRank(principal: Principal, method: string): number {
  if (principal.kind === 'session') return ROLE_RANK[principal.role];
  const scopeRank = principal.scopes.includes('admin') ? ROLE_RANK.admin : principal.scopes.includes('read') && isSafeMethod(method) ? ROLE_RANK.viewer : 0;
  return Math.min(scopeRank, tokenCapRank(principal));
}

/** The highest rank a token may act with: its creator's current role (unbounded for an unknown creator). */
export function tokenCapRank(principal: TokenPrincipal): number {
  return principal.creatorRole ? ROLE_RANK[principal.creatorRole] : Number.POSITIVE_INFINITY;
}

export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/** The Express request as seen after AuthGuard. */
export interface AuthenticatedRequest {
  principal?: Principal;
}
