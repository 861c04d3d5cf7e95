import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { isUUID } from 'class-validator';
import type { ApiTokenResponse, CreatedApiTokenResponse, ListPage, TokenScope } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { sha256Hex } from '../../common/crypto/tokens';
import { createdAtIdKey, pageFrom, type PageRequest, type TimeIdPosition } from '../../common/http/paging';
import { AuditService, accountableUserId, type AuditActorInput } from '../audit/audit.service';
import { RevocationService, revokeOnce, type RevocationChange } from '../audit/revocation';
import type { User } from '../users/user.entity';
import { displayNameOf, UsersService } from '../users/users.service';
import { ApiToken } from './api-token.entity';
import { generateApiToken, looksLikeApiToken } from './token-format';
import { TokensErrorCode, tokensError } from './tokens.errors';
import { TokensRepository } from './tokens.repository';
import { hashedTokenFields } from '../../database/columns';
import { UnitOfWork } from '../../database/unit-of-work';

/**
 * lastUsedAt is written at most once per this interval per token, so "last used" is accurate to a minute. A token
 * read with a recent lastUsedAt costs no write at all (no UPDATE statement per API request); the UPDATE's own
 * condition still keeps concurrent requests on several instances from writing more than once per interval.
 */
const TOUCH_INTERVAL_MS = 60_000;

export type TokenLookup = { status: 'valid'; token: ApiToken } | { status: 'unknown' } | { status: 'revoked' } | { status: 'expired' };

export interface CreateTokenInput {
  organizationId: string;
  name: string;
  scopes: TokenScope[];
  expiresAt?: Date | null;
  /**
   * Who creates it. The token's creator is the accountable member: the signed-in user, or for a token created
   * with a token, that token's creator (so removing the member revokes both).
   */
  actor: AuditActorInput;
}

@Injectable()
export class TokensService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly tokens: TokensRepository,
    private readonly audit: AuditService,
    private readonly revocations: RevocationService,
    private readonly users: UsersService,
    private readonly clock: Clock,
  ) {}

  /** Creates a token and returns the raw value (the only time it exists outside the caller's hands). */
  async create(input: CreateTokenInput): Promise<CreatedApiTokenResponse> {
    const now = this.clock.now();
    if (input.expiresAt && input.expiresAt <= now) {
      throw tokensError(TokensErrorCode.ExpiryInPast, 'expiresAt must be in the future.', [{ path: 'expiresAt', message: 'expiresAt must be in the future' }]);
    }
    const { token, prefix } = generateApiToken();
    const entity = Object.assign(new ApiToken(), {
      id: randomUUID(),
      organizationId: input.organizationId,
      name: input.name.trim(),
      prefix,
      tokenHash: sha256Hex(token),
      scopes: [...new Set(input.scopes)],
      createdByUserId: accountableUserId(input.actor),
      createdAt: now,
      expiresAt: input.expiresAt ?? null,
      lastUsedAt: null,
      revokedAt: null,
    });
    const apiToken = toApiTokenResponse(entity);
    // Joins the caller's unit of work when there is one (first-run setup), else commits on its own.
    await this.unitOfWork.run(async () => {
      await this.tokens.insert(entity);
      await this.audit.record({ organizationId: entity.organizationId, actor: input.actor, action: 'token.created', target: tokenTarget(entity), after: auditedFields(apiToken) });
    });
    return { token, apiToken };
  }

  /** One page of the organization's tokens, newest first. */
  async list(organizationId: string, { limit, after }: Pick<PageRequest<TimeIdPosition>, 'limit' | 'after'>): Promise<ListPage<ApiTokenResponse>> {
    const rows = await this.tokens.listForOrganization(organizationId, { limit: limit + 1, before: after });
    const creators = await this.users.findByIds([...new Set(rows.map((row) => row.createdByUserId).filter((id): id is string => id !== null))]);
    return pageFrom(rows, limit, (token) => toApiTokenResponse(token, token.createdByUserId ? creators.get(token.createdByUserId) : undefined), createdAtIdKey);
  }

  /** Id and name of the tokens with these ids, by id (to name who saved something; unknown ids are left out). */
  async namesByIds(ids: string[]): Promise<Map<string, { id: string; name: string }>> {
    return new Map((await this.tokens.namesByIds(ids)).map((token) => [token.id, { id: token.id, name: token.name }]));
  }

  /** Revokes a token of the organization; revoking twice keeps the first revocation time (and records one entry). */
  async revoke(organizationId: string, tokenId: string, actor: AuditActorInput): Promise<ApiTokenResponse> {
    const token = await this.revocations.revokeInOrganization(this.tokens, organizationId, tokenId, {
      notFound: () => tokensError(TokensErrorCode.NotFound, 'No API token with this id exists in this organization.'),
      change: (revoked) => revocationChange(revoked, actor),
      after: { reason: 'revoked' },
    });
    return toApiTokenResponse(token);
  }

  /** The usable (neither revoked nor expired) tokens a member created: what removing or disabling the member revokes. */
  async listActiveCreatedBy(organizationId: string, userId: string): Promise<ApiTokenResponse[]> {
    const now = this.clock.now();
    const tokens = isUUID(userId) ? await this.tokens.listUnrevokedCreatedBy(organizationId, userId) : [];
    return tokens.filter((token) => !token.expiresAt || token.expiresAt > now).map((token) => toApiTokenResponse(token));
  }

  /** Revokes every token the member created in the organization (member removed or disabled), inside the caller's transaction. */
  async revokeCreatedBy(organizationId: string, userId: string, actor: AuditActorInput, reason: 'creator_removed' | 'creator_disabled'): Promise<void> {
    for (const token of await this.tokens.listUnrevokedCreatedBy(organizationId, userId)) {
      await this.revokeRecorded(token, actor, reason);
    }
  }

  private async revokeRecorded(token: ApiToken, actor: AuditActorInput, reason: string): Promise<void> {
    await revokeOnce(token, {
      now: this.clock.now(),
      store: (id, revokedAt) => this.tokens.revoke(id, revokedAt),
      audit: this.audit,
      change: revocationChange(token, actor),
      after: { reason },
    });
  }

  /** Resolves a bearer value; records the use of a valid token (throttled). */
  async lookup(rawToken: string): Promise<TokenLookup> {
    if (!looksLikeApiToken(rawToken)) return { status: 'unknown' };
    const token = await this.tokens.findByHash(sha256Hex(rawToken));
    if (!token) return { status: 'unknown' };
    if (token.revokedAt) return { status: 'revoked' };
    const now = this.clock.now();
    if (token.expiresAt && token.expiresAt <= now) return { status: 'expired' };
    const notBefore = new Date(now.getTime() - TOUCH_INTERVAL_MS);
    if (!token.lastUsedAt || token.lastUsedAt < notBefore) {
      await this.tokens.touch(token.id, now, notBefore);
      token.lastUsedAt = now;
    }
    return { status: 'valid', token };
  }

  /**
   * Until when (clock ms) a valid lookup's answer may be reused without asking again (AuthCache): not past the token's
   * expiry, and not past the next due write of its use, so "last used" stays accurate to a minute.
   */
  reusableUntil(token: ApiToken): number {
    return Math.min(token.expiresAt?.getTime() ?? Infinity, (token.lastUsedAt?.getTime() ?? 0) + TOUCH_INTERVAL_MS);
  }
}

/** The audit entry of a token's revocation, by a person or with its creator's removal (the reason goes in `after`). */
function revocationChange(token: ApiToken, actor: AuditActorInput): RevocationChange {
  return { organizationId: token.organizationId, actor, action: 'token.revoked', target: tokenTarget(token) };
}

function tokenTarget(token: ApiToken) {
  return { type: 'token' as const, id: token.id, label: token.name };
}

/** What the audit log keeps of a new token: what the list shows of it (never the token or its hash); id and time are the entry's. */
function auditedFields(token: ApiTokenResponse): Record<string, unknown> {
  const { id: _id, createdAt: _createdAt, lastUsedAt: _lastUsedAt, revokedAt: _revokedAt, createdBy: _createdBy, ...fields } = token;
  return fields;
}

/** `creator`: the creating user when the caller loaded it (the list does); `createdBy` is null otherwise. */
export function toApiTokenResponse(token: ApiToken, creator?: User): ApiTokenResponse {
  return {
    id: token.id,
    name: token.name,
    scopes: token.scopes,
    ...hashedTokenFields(token),
    createdBy: creator ? { email: creator.email, displayName: displayNameOf(creator) } : null,
    expiresAt: token.expiresAt?.toISOString() ?? null,
  };
}
