/**
 * SCIM 2.0 provisioning (RFC 7643/7644, issue 27 item 4): an identity provider (Entra ID, Okta) creates, updates,
 * deactivates and deletes the organization's members at `/scim/v2/orgs/:orgId`, authenticated by a SCIM token.
 *
 * Endpoints of the management API (under /api/v1, owners only):
 *   GET    /orgs/:orgId/scim-tokens              → ScimTokenResponse[] (newest first, revoked ones included)
 *   POST   /orgs/:orgId/scim-tokens              CreateScimTokenRequest → 201 CreatedScimTokenResponse (the token, once)
 *   DELETE /orgs/:orgId/scim-tokens/:tokenId     → ScimTokenResponse (revoked; 404 scim_token_not_found)
 *   GET    /orgs/:orgId/scim-config              → ScimConfigResponse (the base URL to paste into the IdP)
 */
import { IsString, Length } from 'class-validator';
import { FIELD_LIMITS } from './field-limits';

/** Where SCIM clients send requests: `<public URL>/scim/v2/orgs/<orgId>`. */
export function scimBaseUrl(publicUrl: string, organizationId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/scim/v2/orgs/${encodeURIComponent(organizationId)}`;
}

/** The visible start of every SCIM token, so it is never confused with an API token (`sct_`). */
export const SCIM_TOKEN_PREFIX = 'scim_';

export class CreateScimTokenRequest {
  /** What the owner calls it: "Entra ID provisioning". */
  @IsString()
  @Length(1, FIELD_LIMITS.apiTokenName)
  name!: string;
}

export interface ScimTokenResponse {
  id: string;
  name: string;
  /** The visible start of the token (`scim_ab12cd34`); never the secret. */
  prefix: string;
  /** The owner who created it: the token acts only while this member is an active owner. */
  createdByUserId: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CreatedScimTokenResponse {
  id: string;
  /** The bearer value for the identity provider; shown this once, stored only as a SHA-256 hash. */
  token: string;
  scimToken: ScimTokenResponse;
}

export interface ScimConfigResponse {
  baseUrl: string;
}
