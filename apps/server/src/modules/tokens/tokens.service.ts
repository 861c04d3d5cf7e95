import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { isUUID } from 'class-validator';
import { EntityManager } from 'typeorm';
import type { ApiTokenResponse, CreatedApiTokenResponse, TokenScope } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { sha256Hex } from '../../common/crypto/tokens';
import { ApiToken } from './api-token.entity';
import { generateApiToken, looksLikeApiToken } from './token-format';
import { TokensErrorCode, tokensError } from './tokens.errors';
import { TokensRepository } from './tokens.repository';

/** lastUsedAt is written at most once per this interval per token. */
const TOUCH_INTERVAL_MS = 60_000;

export type TokenLookup = { status: 'valid'; token: ApiToken } | { status: 'unknown' } | { status: 'revoked' } | { status: 'expired' };

export interface CreateTokenInput {
  organizationId: string;
  name: string;
  scopes: TokenScope[];
  expiresAt?: Date | null;
  /** The accountable member: the signed-in user, or for a token created with a token, that token's creator. */
  createdByUserId?: string | null;
}

@Injectable()
export class TokensService {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly clock: Clock,
  ) {}

  /** Creates a token and returns the raw value (the only time it exists outside the caller's hands). */
  async create(input: CreateTokenInput, manager?: EntityManager): Promise<CreatedApiTokenResponse> {
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
      createdByUserId: input.createdByUserId ?? null,
      createdAt: now,
      expiresAt: input.expiresAt ?? null,
      lastUsedAt: null,
      revokedAt: null,
    });
    await this.tokens.insert(entity, manager);
    return { token, apiToken: toApiTokenResponse(entity) };
  }

  async list(organizationId: string): Promise<ApiTokenResponse[]> {
    return (await this.tokens.listForOrganization(organizationId)).map(toApiTokenResponse);
  }

  /** Revokes a token of the organization; revoking twice keeps the first revocation time. */
  async revoke(organizationId: string, tokenId: string): Promise<ApiTokenResponse> {
    const token = isUUID(tokenId) ? await this.tokens.findInOrganization(organizationId, tokenId) : null;
    if (!token) throw tokensError(TokensErrorCode.NotFound, 'No API token with this id exists in this organization.');
    if (!token.revokedAt) {
      token.revokedAt = this.clock.now();
      await this.tokens.revoke(token.id, token.revokedAt);
    }
    return toApiTokenResponse(token);
  }

  /** The usable (neither revoked nor expired) tokens a member created: what removing or disabling the member revokes. */
  async listActiveCreatedBy(organizationId: string, userId: string): Promise<ApiTokenResponse[]> {
    const now = this.clock.now();
    const tokens = isUUID(userId) ? await this.tokens.listUnrevokedCreatedBy(organizationId, userId) : [];
    return tokens.filter((token) => !token.expiresAt || token.expiresAt > now).map(toApiTokenResponse);
  }

  /** Revokes every token the member created in the organization (member removed or disabled); returns them. */
  async revokeCreatedBy(organizationId: string, userId: string, manager: EntityManager): Promise<ApiTokenResponse[]> {
    const revokedAt = this.clock.now();
    const tokens = await this.tokens.listUnrevokedCreatedBy(organizationId, userId, manager);
    for (const token of tokens) {
      token.revokedAt = revokedAt;
      await this.tokens.revoke(token.id, revokedAt, manager);
    }
    return tokens.map(toApiTokenResponse);
  }

  /** Resolves a bearer value; records the use of a valid token (throttled). */
  async lookup(rawToken: string): Promise<TokenLookup> {
    if (!looksLikeApiToken(rawToken)) return { status: 'unknown' };
    const token = await this.tokens.findByHash(sha256Hex(rawToken));
    if (!token) return { status: 'unknown' };
    if (token.revokedAt) return { status: 'revoked' };
    const now = this.clock.now();
    if (token.expiresAt && token.expiresAt <= now) return { status: 'expired' };
    await this.tokens.touch(token.id, now, new Date(now.getTime() - TOUCH_INTERVAL_MS));
    return { status: 'valid', token };
  }
}

export function toApiTokenResponse(token: ApiToken): ApiTokenResponse {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    scopes: token.scopes,
    createdByUserId: token.createdByUserId,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt?.toISOString() ?? null,
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}
