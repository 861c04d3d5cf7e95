/**
 * Access rules: what every controller imports to declare who may call a route, and the Principal a request
 * resolves to. This folder depends on no other module, so every module may import it; the global AuthGuard
 * that enforces the rules lives in modules/auth (it needs the sessions, tokens and members services).
 *
 * The global AuthGuard resolves the caller into a Principal: `Authorization: Bearer sct_…` (an API token)
 * wins; otherwise the `sc_session` cookie. Both act in exactly one organization. Cookie-authenticated
 * POST/PUT/PATCH/DELETE must send `X-CSRF-Token` equal to the `sc_csrf` cookie (403 csrf_failed);
 * bearer requests are exempt. Every route declares exactly one access rule, or it answers 500:
 *
 *   @Public()                              no authentication (health, setup, SSO login/callback)
 *   @OrgAccess('viewer')                   routes with :orgId. Caller's organization must equal :orgId,
 *                                          otherwise 404 organization_not_found (same as a missing
 *                                          organization, so ids cannot be probed); then rank check:
 *                                          owner > admin > editor > viewer → 403 insufficient_role.
 *                                          Tokens: `admin` scope = admin rank, `read` = viewer rank on
 *                                          GET/HEAD only → 403 insufficient_scope; never above the
 *                                          token creator's current role → 403 insufficient_role.
 *   @OrgAccess('editor', { sync: true })   additionally admits tokens with the `sync` scope.
 *   @OrgPagedList(minRole, order, path?)   an organization's paged list: GET + @OrgAccess(minRole) + @PagedList(order).
 *   @TokenAccess('sync')                   non-org routes for CI (POST /api/v1/gateway/sync): an API token
 *                                          with `sync`; principal.organizationId is the target org.
 *   @TokenAccess('read')                   non-org read-only routes for tools (POST /mcp): an API token with
 *                                          `read` (or `admin`); it reads as a viewer, whatever its method.
 *   @Authenticated({ sessionOnly?, minRole? })  any caller in its own organization (GET /me, sign-out).
 *   @AuthRateLimit()                       add to authentication endpoints (429 rate_limited).
 *   @EmbedRateLimit()                      the public /embed routes (their own count; 429 rate_limited).
 *
 * Failed guesses (token_invalid, session_invalid) are counted per client address (AuthFailureLimiter); over
 * SERVICE_AUTH_FAILURE_LIMIT per SERVICE_AUTH_FAILURE_WINDOW they answer 429 rate_limited instead of 401.
 *
 * In a handler: `@CurrentPrincipal() principal: Principal`. After a sign-in, the service calls
 * `SessionsService.startSession({ userId, organizationId })` and returns the started session; the controller
 * writes its cookies with `SessionCookies.write(res, session)`.
 */
export { Public, OrgAccess, TokenAccess, Authenticated, CurrentPrincipal, ACCESS_METADATA } from './decorators';
export type { AccessRule, TokenRouteScope } from './decorators';
export type { Principal, SessionPrincipal, TokenPrincipal, AuthenticatedRequest } from './principal';
export { effectiveRank, tokenCapRank } from './principal';
export { AuthRateLimit, EmbedRateLimit } from './rate-limit';
