import { Get, SetMetadata, createParamDecorator, ExecutionContext, applyDecorators } from '@nestjs/common';
import type { Role } from '@sc/contracts';
import { PagedList } from '../../common/http/paging';
import type { Principal } from './principal';

export const ACCESS_METADATA = 'sc:access';

/**
 * How a route is authorized. Every route has exactly one: the global AuthGuard refuses a route that has
 * none (secure by default), and the organization-isolation test refuses any `:orgId` route without `org`.
 */
export type AccessRule =
  | { kind: 'public' }
  | { kind: 'org'; minRole: Role; sync: boolean }
  | { kind: 'token'; scope: TokenRouteScope }
  | { kind: 'authenticated'; sessionOnly: boolean; minRole?: Role };

/** No authentication (health, setup, sign-in link redemption, SSO login start and callback). */
export const Public = () => SetMetadata(ACCESS_METADATA, { kind: 'public' } satisfies AccessRule);

/**
 * For routes with an `:orgId` path parameter. The caller's organization must be `:orgId` (otherwise
 * 404 organization_not_found, so other organizations' existence is not revealed) and its rank at least
 * `minRole` (otherwise 403 insufficient_role / insufficient_scope). `{ sync: true }` also admits
 * tokens with the `sync` scope.
 */
export const OrgAccess = (minRole: Role, options: { sync?: boolean } = {}) =>
  SetMetadata(ACCESS_METADATA, { kind: 'org', minRole, sync: options.sync ?? false } satisfies AccessRule);

/**
 * An organization's paged list (docs/server-conventions.md, "Paged lists"): a GET of `path` (below the controller's
 * path) that members from `minRole` up may read, answered as a ListPage and documented by PagedList, whose `order`
 * says how the list is sorted. The handler takes `@Query(new ListPagePipe(…))`.
 */
export const OrgPagedList = (minRole: Role, order: string, path?: string) => applyDecorators(Get(path), OrgAccess(minRole), PagedList(order));

/**
 * The scope a token-only route needs: `sync` (CI's POST /api/v1/gateway/sync) or `read` (the MCP server at /mcp,
 * which also admits `admin` tokens, as every read route of the API does).
 */
export type TokenRouteScope = 'sync' | 'read';

/**
 * For non-organization routes called with an API token only (POST /api/v1/gateway/sync, POST /mcp): an API token with
 * `scope`; the token's organization is the target, and the token never acts above its creator's current role.
 */
export const TokenAccess = (scope: TokenRouteScope) => SetMetadata(ACCESS_METADATA, { kind: 'token', scope } satisfies AccessRule);

/**
 * Any signed-in caller acting in its own organization (GET /me, sign-out). `sessionOnly` refuses API
 * tokens; `minRole` additionally requires that rank in the caller's organization.
 */
export const Authenticated = (options: { sessionOnly?: boolean; minRole?: Role } = {}) =>
  applyDecorators(SetMetadata(ACCESS_METADATA, { kind: 'authenticated', sessionOnly: options.sessionOnly ?? false, minRole: options.minRole } satisfies AccessRule));

/** The authenticated Principal of the request (set by AuthGuard). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<{ principal?: Principal }>().principal;
  if (!principal) throw new Error('@CurrentPrincipal() used on a route without authentication.');
  return principal;
});
