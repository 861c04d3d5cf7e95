/**
 * Names the server and its clients must spell alike: the API prefix, the browser session's cookie and header
 * names, and the paths a client builds itself (the sync gateway's live in sync.ts and gateway-info.ts).
 */

/** Every API route is below this prefix (the CLI package downloads are not). */
export const API_PREFIX = '/api/v1';

/** Cookie and header names of the browser session and its CSRF double-submit token. */
export const SESSION_COOKIE = 'sc_session';
export const CSRF_COOKIE = 'sc_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

/** `/api/v1/auth/orgs/<orgId>/login/<slug>`: starts a sign-in with one SSO provider (append `?redirect=/path`). */
export function ssoLoginPath(organizationId: string, slug: string): string {
  return `${API_PREFIX}/auth/orgs/${encodeURIComponent(organizationId)}/login/${encodeURIComponent(slug)}`;
}

/** `/api/v1/auth/orgs/<orgId>/callback/<slug>`: where the provider sends the browser back. */
export function ssoCallbackPath(organizationId: string, slug: string): string {
  return `${API_PREFIX}/auth/orgs/${encodeURIComponent(organizationId)}/callback/${encodeURIComponent(slug)}`;
}

/** `/api/v1/auth/orgs/<orgId>/saml/<slug>/acs`: where a SAML IdP posts its response (Assertion Consumer Service). */
export function samlAcsPath(organizationId: string, slug: string): string {
  return `${API_PREFIX}/auth/orgs/${encodeURIComponent(organizationId)}/saml/${encodeURIComponent(slug)}/acs`;
}

/** `/api/v1/auth/orgs/<orgId>/saml/<slug>/metadata`: the service provider's SAML metadata; also its entity ID. */
export function samlMetadataPath(organizationId: string, slug: string): string {
  return `${API_PREFIX}/auth/orgs/${encodeURIComponent(organizationId)}/saml/${encodeURIComponent(slug)}/metadata`;
}

/** Who is calling (a session or an API token) and in which organization: `service-cli diff` learns its token's organization here. */
export const ME_PATH = `${API_PREFIX}/me`;

/** `/api/v1/orgs/<orgId>/services/<service>/files`: a revision's files as synced (append `?revision=n`; see ServiceRevisionFiles). */
export function serviceFilesPath(organizationId: string, service: string): string {
  return `${API_PREFIX}/orgs/${encodeURIComponent(organizationId)}/services/${encodeURIComponent(service)}/files`;
}
