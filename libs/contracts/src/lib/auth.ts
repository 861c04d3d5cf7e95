import { IsString, Length } from 'class-validator';

/** Roles of a membership, strongest first. owner/admin manage settings, editor writes, viewer reads. */
export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Rank for comparisons: a principal may act when its rank is at least the route's minimum. */
export const ROLE_RANK: Record<Role, number> = { owner: 4, admin: 3, editor: 2, viewer: 1 };

/**
 * API token scopes: `read` allows viewer-level reads, `admin` acts like an admin member, `sync` only
 * allows the routes marked for sync (POST /api/v1/gateway/sync).
 */
export const TOKEN_SCOPES = ['sync', 'read', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const MEMBERSHIP_SOURCES = ['manual', 'sso'] as const;
export type MembershipSource = (typeof MEMBERSHIP_SOURCES)[number];

/** Organization ids are URL-safe and chosen at creation: `acme`, `team-42`. */
export const ORGANIZATION_ID_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/;

/** A minted break-glass link: `{publicUrl}/sign-in-link#<token>` (the token travels in the fragment only). */
export interface SignInLinkResponse {
  url: string;
  expiresAt: string;
}

/** Body of POST /api/v1/auth/sign-in-link/preview and /redeem (sent as application/json only). */
export class RedeemSignInLinkRequest {
  @IsString()
  @Length(1, 200)
  token!: string;
}

/** Who a link signs in where, shown before the person confirms; previewing does not use the link up. */
export interface SignInLinkPreviewResponse {
  organization: { id: string; name: string };
  email: string;
  expiresAt: string;
}

/** Answer of a successful redemption: the session cookie is set; the browser goes to `redirect`. */
export interface RedeemSignInLinkResponse {
  redirect: string;
}
