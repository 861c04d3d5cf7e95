import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { CSRF_COOKIE, CSRF_HEADER, ROLE_RANK, SESSION_COOKIE, type Role } from '@sc/contracts';
import { safeEqual, sha256Hex } from '../../common/crypto/tokens';
import { MembersService } from '../members/members.service';
import { SessionCookies } from '../sessions/session-cookies';
import { SessionsService } from '../sessions/sessions.service';
import { TokensService } from '../tokens/tokens.service';
import { AuthCache, type CachedPrincipal } from './auth-cache';
import { AuthFailureLimiter } from './auth-failure-limit';
import { AuthErrorCode, authError } from './auth.errors';
import { ACCESS_METADATA, AccessRule } from '../access/decorators';
import { AuthenticatedRequest, Principal, TokenPrincipal, effectiveRank, isSafeMethod, tokenCapRank } from '../access/principal';

type GuardedRequest = Request & AuthenticatedRequest;

/**
 * The global guard: authenticates the caller (bearer API token, else the session cookie), enforces the
 * CSRF double-submit check for cookie-authenticated state changes, then applies the route's AccessRule. Who a
 * cookie or token is may come from the AuthCache (emptied on every instance by any change that narrows access);
 * the CSRF check and the route's rule run on every request either way.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
    private readonly cookies: SessionCookies,
    private readonly tokens: TokensService,
    private readonly members: MembersService,
    private readonly failures: AuthFailureLimiter,
    private readonly cache: AuthCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_METADATA, [context.getHandler(), context.getClass()]);
    const request = context.switchToHttp().getRequest<GuardedRequest>();
    if (!rule) {
      // Secure by default: a route without @Public/@OrgAccess/@TokenAccess/@Authenticated is a bug, not public.
      throw new Error(`Route ${context.getClass().name}.${context.getHandler().name} has no access decorator (@Public, @OrgAccess, @TokenAccess or @Authenticated).`);
    }
    if (rule.kind === 'public') return true;

    const response = context.switchToHttp().getResponse<Response>();
    const principal = await this.authenticate(request, response).catch(async (error: unknown) => {
      await this.failures.count(error, request, response);
      throw error;
    });
    if (principal.kind === 'session' && !isSafeMethod(request.method)) this.checkCsrf(request, principal.sessionId);
    request.principal = principal;
    this.authorize(rule, principal, request);
    return true;
  }

  private async authenticate(request: GuardedRequest, response: Response): Promise<Principal> {
    const authorization = request.headers.authorization;
    const clientAddress = request.ip ?? null;
    if (authorization !== undefined) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match) throw authError(AuthErrorCode.TokenInvalid, 'The Authorization header must be "Bearer <API token>".');
      return this.cached('token', match[1], clientAddress, () => this.authenticateToken(match[1]));
    }
    const rawSession = (request.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
    if (rawSession) return this.cached('session', rawSession, clientAddress, () => this.authenticateSession(rawSession, response));
    throw authError(AuthErrorCode.AuthenticationRequired, 'Sign in, or send an API token as "Authorization: Bearer <token>".');
  }

  /** The principal of a raw token or cookie value from the AuthCache, else from `authenticate` (kept when it succeeds). */
  private async cached(
    kind: Principal['kind'],
    rawValue: string,
    clientAddress: string | null,
    authenticate: () => Promise<{ principal: CachedPrincipal; reusableUntil: number }>,
  ): Promise<Principal> {
    if (!this.cache.usable) {
      this.cache.bypassed();
      return { ...(await authenticate()).principal, clientAddress };
    }
    // Keyed by the hash: the cache holds no secret.
    const key = `${kind}:${sha256Hex(rawValue)}`;
    const hit = this.cache.get(key);
    if (hit) return { ...hit, clientAddress };
    const ticket = this.cache.ticket();
    const { principal, reusableUntil } = await authenticate();
    this.cache.set(key, ticket, principal, reusableUntil);
    return { ...principal, clientAddress };
  }

  private async authenticateToken(rawToken: string): Promise<{ principal: CachedPrincipal; reusableUntil: number }> {
    const lookup = await this.tokens.lookup(rawToken);
    switch (lookup.status) {
      case 'unknown':
        throw authError(AuthErrorCode.TokenInvalid, 'This API token is not valid.');
      case 'revoked':
        throw authError(AuthErrorCode.TokenRevoked, 'This API token was revoked; create a new one in the dashboard.');
      case 'expired':
        throw authError(AuthErrorCode.TokenExpired, 'This API token has expired; create a new one in the dashboard.');
      case 'valid': {
        const { token } = lookup;
        const creator = token.createdByUserId ? await this.members.activeMember(token.organizationId, token.createdByUserId) : null;
        const creatorRole = creator?.role ?? null;
        if (token.createdByUserId && !creatorRole) {
          // Removing or disabling a member revokes their tokens; this also covers a creator disabled everywhere.
          throw authError(AuthErrorCode.TokenRevoked, 'The member who created this API token was removed or disabled; create a new token in the dashboard.');
        }
        const principal: CachedPrincipal = {
          kind: 'token',
          organizationId: token.organizationId,
          // Frozen: one cached principal serves many requests.
          scopes: Object.freeze([...token.scopes]) as TokenPrincipal['scopes'],
          tokenId: token.id,
          tokenPrefix: token.prefix,
          tokenName: token.name,
          createdByUserId: token.createdByUserId,
          creatorEmail: creator?.user.email ?? null,
          creatorRole,
        };
        return { principal, reusableUntil: this.tokens.reusableUntil(token) };
      }
    }
  }

  private async authenticateSession(rawSession: string, response: Response): Promise<{ principal: CachedPrincipal; reusableUntil: number }> {
    const lookup = await this.sessions.lookup(rawSession);
    if (lookup.status !== 'valid') {
      this.cookies.clear(response);
      if (lookup.status === 'expired') throw authError(AuthErrorCode.SessionExpired, 'Your session has expired; sign in again.');
      throw authError(AuthErrorCode.SessionInvalid, 'You are not signed in (the session is unknown or was ended).');
    }
    const { session } = lookup;
    const member = await this.members.activeMember(session.organizationId, session.userId);
    if (!member) throw authError(AuthErrorCode.AccountDisabled, 'Your account or your membership in this organization is disabled or was removed.');
    return {
      principal: { kind: 'session', organizationId: session.organizationId, userId: member.user.id, role: member.role, sessionId: session.id },
      reusableUntil: this.sessions.reusableUntil(session),
    };
  }

  /** Double submit: the header must repeat the cookie, and both must be this session's token. */
  private checkCsrf(request: GuardedRequest, sessionId: string): void {
    const cookie = (request.cookies as Record<string, string> | undefined)?.[CSRF_COOKIE];
    const header = request.header(CSRF_HEADER);
    if (!cookie || !header || !safeEqual(cookie, header) || !safeEqual(header, this.sessions.csrfTokenFor(sessionId))) {
      throw authError(AuthErrorCode.CsrfFailed, `The ${CSRF_HEADER} header must repeat the ${CSRF_COOKIE} cookie for requests that change data.`);
    }
  }

  private authorize(rule: Exclude<AccessRule, { kind: 'public' }>, principal: Principal, request: GuardedRequest): void {
    switch (rule.kind) {
      case 'org': {
        const orgId = request.params['orgId'];
        if (typeof orgId !== 'string') throw new Error('@OrgAccess() is used on a route without an :orgId parameter.');
        if (principal.organizationId !== orgId) {
          // Same answer as for an organization that does not exist: no probing of other organizations.
          throw authError(AuthErrorCode.OrganizationNotFound, `No organization "${orgId}" exists, or you have no access to it.`);
        }
        if (rule.sync && principal.kind === 'token' && principal.scopes.includes('sync') && tokenCapRank(principal) >= ROLE_RANK[rule.minRole]) return;
        this.requireRank(principal, rule.minRole, request.method);
        return;
      }
      case 'token': {
        if (principal.kind !== 'token') throw authError(AuthErrorCode.TokenRequired, 'This endpoint is for API tokens ("Authorization: Bearer <token>"), not browser sessions.');
        // A read-only token route (the MCP server: JSON-RPC over POST, reads only) admits what the API's reads admit.
        const admitted = rule.scope === 'read' ? principal.scopes.includes('read') || principal.scopes.includes('admin') : principal.scopes.includes(rule.scope);
        if (!admitted) throw authError(AuthErrorCode.InsufficientScope, `This API token needs the "${rule.scope}" scope.`);
        // Syncing writes revisions: the creator must still be allowed to (editor or higher); reading needs a viewer.
        const minRole = rule.scope === 'sync' ? 'editor' : 'viewer';
        if (tokenCapRank(principal) < ROLE_RANK[minRole]) throw creatorRoleTooLow(principal, minRole);
        return;
      }
      case 'authenticated':
        if (rule.sessionOnly && principal.kind !== 'session') throw authError(AuthErrorCode.SessionRequired, 'This endpoint needs a signed-in user; API tokens cannot use it.');
        if (rule.minRole) this.requireRank(principal, rule.minRole, request.method);
        return;
    }
  }

  private requireRank(principal: Principal, minRole: keyof typeof ROLE_RANK, method: string): void {
    if (effectiveRank(principal, method) >= ROLE_RANK[minRole]) return;
    if (principal.kind === 'session') {
      throw authError(AuthErrorCode.InsufficientRole, `This action needs the ${minRole} role or higher; your role is ${principal.role}.`);
    }
    if (tokenCapRank(principal) < ROLE_RANK[minRole]) throw creatorRoleTooLow(principal, minRole);
    throw authError(AuthErrorCode.InsufficientScope, `This API token's scopes (${principal.scopes.join(', ')}) do not allow this action; it needs ${minRole}-level access.`);
  }
}

function creatorRoleTooLow(principal: TokenPrincipal, minRole: Role) {
  return authError(
    AuthErrorCode.InsufficientRole,
    `This action needs ${minRole}-level access; an API token acts with at most the current role of the member who created it (${principal.creatorRole}).`,
  );
}
