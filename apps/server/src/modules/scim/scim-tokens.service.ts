import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SCIM_TOKEN_PREFIX, type CreatedScimTokenResponse, type ScimTokenResponse } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { prefixedToken, sha256Hex } from '../../common/crypto/tokens';
import { hashedTokenFields } from '../../database/columns';
import { UnitOfWork } from '../../database/unit-of-work';
import type { Principal } from '../access/principal';
import { AuditService, accountableUserId, type ScimActor } from '../audit/audit.service';
import { RevocationService } from '../audit/revocation';
import { MembersService } from '../members/members.service';
import { ScimError } from './scim-error';
import { ScimToken } from './scim.entities';
import { ScimErrorCode, scimError } from './scim.errors';
import { ScimTokensRepository } from './scim-tokens.repository';

/** "Last used" is written at most once a minute per token, as for API tokens. */
const TOUCH_INTERVAL_MS = 60_000;
const TOKEN_PATTERN = /^scim_[a-z0-9]{8}_[A-Za-z0-9_-]{43}$/;

@Injectable()
export class ScimTokensService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly tokens: ScimTokensRepository,
    private readonly members: MembersService,
    private readonly audit: AuditService,
    private readonly revocations: RevocationService,
    private readonly clock: Clock,
  ) {}

  /** Creates a token (owners only, enforced by the route) and returns the raw value once. */
  async create(organizationId: string, name: string, actor: Principal): Promise<CreatedScimTokenResponse> {
    const { token, prefix } = prefixedToken(SCIM_TOKEN_PREFIX.slice(0, -1), 32);
    const entity = Object.assign(new ScimToken(), {
      id: randomUUID(),
      organizationId,
      name: name.trim(),
      prefix,
      tokenHash: sha256Hex(token),
      createdByUserId: accountableUserId(actor),
      createdAt: this.clock.now(),
      lastUsedAt: null,
      revokedAt: null,
    });
    await this.unitOfWork.run(async () => {
      await this.tokens.insert(entity);
      await this.audit.record({ organizationId, actor, action: 'scim_token.created', target: target(entity), after: { name: entity.name, prefix } });
    });
    return { id: entity.id, token, scimToken: toResponse(entity) };
  }

  async list(organizationId: string): Promise<ScimTokenResponse[]> {
    return (await this.tokens.listForOrganization(organizationId)).map(toResponse);
  }

  /** Revokes at once: the next SCIM request with it answers 401. Revoking twice keeps the first time. */
  async revoke(organizationId: string, tokenId: string, actor: Principal): Promise<ScimTokenResponse> {
    const token = await this.revocations.revokeInOrganization(this.tokens, organizationId, tokenId, {
      notFound: () => scimError(ScimErrorCode.TokenNotFound, 'No SCIM token with this id exists in this organization.'),
      change: (revoked) => ({ organizationId, actor, action: 'scim_token.revoked', target: target(revoked) }),
    });
    return toResponse(token);
  }

  /**
   * The actor of a SCIM request to `organizationId`. Refused: no or malformed bearer, unknown or revoked token (401);
   * a token of another organization (404, the answer for an organization that does not exist, so none is probed);
   * a token whose creating owner is no longer an active owner (401: the token acts for that owner).
   */
  async authenticate(organizationId: string, authorization: string | undefined, clientAddress: string | null): Promise<ScimActor> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) throw new ScimError(401, 'Send the SCIM token as "Authorization: Bearer <token>".');
    const token = TOKEN_PATTERN.test(match[1]) ? await this.tokens.findByHash(sha256Hex(match[1])) : null;
    if (!token) throw new UnknownScimTokenError();
    if (token.revokedAt) throw new ScimError(401, 'This SCIM token was revoked; create a new one in the SSO settings.');
    if (token.organizationId !== organizationId) throw new ScimError(404, `No organization "${organizationId}" exists, or this token is not for it.`);
    const creator = token.createdByUserId ? await this.members.activeMember(organizationId, token.createdByUserId) : null;
    if (creator?.role !== 'owner') throw new ScimError(401, 'The owner who created this SCIM token is no longer an active owner; an owner must create a new token.');
    const now = this.clock.now();
    if (!token.lastUsedAt || token.lastUsedAt.getTime() < now.getTime() - TOUCH_INTERVAL_MS) {
      await this.tokens.touch(token.id, now, new Date(now.getTime() - TOUCH_INTERVAL_MS));
    }
    return { kind: 'scim', tokenId: token.id, tokenPrefix: token.prefix, tokenName: token.name, userId: token.createdByUserId, clientAddress };
  }
}

function target(token: ScimToken) {
  return { type: 'scim_token' as const, id: token.id, label: token.name };
}

function toResponse(token: ScimToken): ScimTokenResponse {
  return {
    id: token.id,
    name: token.name,
    ...hashedTokenFields(token),
  };
}

/**
 * The bearer token is no SCIM token at all: what guessing produces (ScimTokenGuard counts it in the failed-guess
 * limiter). Revoked tokens, tokens of another organization and missing headers come from real clients and are not
 * counted, as for API tokens.
 */
export class UnknownScimTokenError extends ScimError {
  constructor() {
    super(401, 'This SCIM token is not valid.');
  }
}
