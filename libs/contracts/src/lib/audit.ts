/**
 * The organization audit log: who changed members, roles, API tokens, SSO providers, services or the organization, when
 * and from where. Secrets never appear in an entry (no client secret, no token value, no sign-in link).
 *
 * Endpoints (all under /api/v1, owner|admin):
 *   GET /orgs/:orgId/audit          ?limit&cursor&action&actor&target&from&to → AuditEntry[] (newest first; paged: list-page.ts)
 *   GET /orgs/:orgId/audit/export   ?action&actor&target&from&to → application/x-ndjson attachment, one AuditEntry per line
 */
import { IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageCursor, PageLimit } from './list-page';

export const AUDIT_ACTIONS = [
  'organization.created',
  'member.added',
  'member.role_changed',
  'member.disabled',
  'member.enabled',
  'member.removed',
  'token.created',
  'token.revoked',
  'sso_provider.created',
  'sso_provider.updated',
  'sso_provider.deleted',
  'organization.sso_requirement_changed',
  'sign_in_link.created',
  'service.deleted',
  'service.synced',
  'service.sync_refused',
  'service.previewed',
  'service.preview_deleted',
  'diagram.arranged',
  'diagram.arrangement_reset',
  'scim_token.created',
  'scim_token.revoked',
  'domain.added',
  'domain.verified',
  'domain.verification_failed',
  'domain.removed',
  'embed_link.created',
  'embed_link.revoked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * `user`: a signed-in member; `token`: an API token (its creator in `userId`); `sso`: a sign-in through an SSO
 * provider changed the signing-in user's own membership; `setup`: first-run setup (the first owner in `userId`);
 * `host`: the `sign-in-link` command on the server host (the owner the link is for in `userId`); `scim`: an identity
 * provider through a SCIM token (the token in `tokenId`/`tokenPrefix`, the owner who created it in `userId`).
 */
export const AUDIT_ACTOR_TYPES = ['user', 'token', 'sso', 'setup', 'host', 'scim'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** `diagram`: a synced diagram, its id `<service>/<diagram name>`. */
export const AUDIT_TARGET_TYPES = ['organization', 'member', 'token', 'sso_provider', 'sign_in_link', 'service', 'diagram', 'scim_token', 'domain', 'embed_link'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export interface AuditActor {
  type: AuditActorType;
  userId: string | null;
  /** The user's email when the change was made (null for a token without a known creator). */
  email: string | null;
  tokenId: string | null;
  /** The token's visible prefix (`sct_ab12cd34`), never the token. */
  tokenPrefix: string | null;
}

export interface AuditTarget {
  type: AuditTargetType;
  id: string;
  /** What a person recognises: the member's email, the token's name, the provider's slug, the organization's name. */
  label: string | null;
}

export interface AuditEntry {
  id: string;
  createdAt: string;
  action: AuditAction;
  actor: AuditActor;
  target: AuditTarget;
  /** The changed fields before and after (whole objects for creations and deletions); never a secret. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The client address of the request (behind a proxy: as SERVICE_TRUST_PROXY resolves it). */
  ipAddress: string | null;
}

/** No id, email, name or slug holds one, and PostgreSQL refuses NUL in text. */
// eslint-disable-next-line no-control-regex
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

/** Filters shared by the page and the export. */
export class AuditFilter {
  @IsOptional()
  @IsIn(AUDIT_ACTIONS, { message: `action must be one of ${AUDIT_ACTIONS.join(', ')}` })
  action?: AuditAction;

  /** A user id, token id, email or token prefix. */
  @IsOptional()
  @IsString()
  @MaxLength(320)
  @Matches(NO_CONTROL_CHARACTERS, { message: 'actor must not contain control characters' })
  actor?: string;

  /** A part of a target id or label (email, token name, provider slug, service name), case-insensitive. */
  @IsOptional()
  @IsString()
  @MaxLength(320)
  @Matches(NO_CONTROL_CHARACTERS, { message: 'target must not contain control characters' })
  target?: string;

  /** Entries at or after this ISO 8601 date-time. */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time' })
  from?: string;

  /** Entries before this ISO 8601 date-time. */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time' })
  to?: string;
}

/** The filters and the paging of GET /audit (list-page.ts). */
export class AuditQuery extends AuditFilter {
  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;
}

/** Human wording of each action (dashboard filter and table). */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'organization.created': 'Organization created',
  'member.added': 'Member added',
  'member.role_changed': 'Role changed',
  'member.disabled': 'Member disabled',
  'member.enabled': 'Member enabled',
  'member.removed': 'Member removed',
  'token.created': 'API token created',
  'token.revoked': 'API token revoked',
  'sso_provider.created': 'SSO provider created',
  'sso_provider.updated': 'SSO provider updated',
  'sso_provider.deleted': 'SSO provider deleted',
  'organization.sso_requirement_changed': 'Require SSO changed',
  'sign_in_link.created': 'Sign-in link created',
  'service.deleted': 'Service deleted',
  'service.synced': 'Service synced',
  'service.sync_refused': 'Sync refused',
  'service.previewed': 'Preview pushed',
  'service.preview_deleted': 'Preview deleted',
  'diagram.arranged': 'Diagram arranged',
  'diagram.arrangement_reset': 'Diagram arrangement reset',
  'scim_token.created': 'SCIM token created',
  'scim_token.revoked': 'SCIM token revoked',
  'domain.added': 'Domain added',
  'domain.verified': 'Domain verified',
  'domain.verification_failed': 'Domain verification failed',
  'domain.removed': 'Domain removed',
  'embed_link.created': 'Embed link created',
  'embed_link.revoked': 'Embed link revoked',
};
