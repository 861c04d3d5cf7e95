import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { ApiToken } from './api-token.entity';
import { HashedTokenRepository, type KeysetPosition } from '../../database/record-repository';

@Injectable()
export class TokensRepository extends HashedTokenRepository<ApiToken> {
  protected readonly entity = ApiToken;

  /** Id and name only, to name tokens in answers. */
  namesByIds(ids: string[]): Promise<Pick<ApiToken, 'id' | 'name'>[]> {
    return ids.length ? this.manager.find(ApiToken, { select: { id: true, name: true }, where: { id: In([...new Set(ids)]) } }) : Promise.resolve([]);
  }

  /** Newest first (id breaks ties), at most `limit`, only those before the (createdAt, id) position `before`. */
  listForOrganization(organizationId: string, page: { limit: number; before?: KeysetPosition }): Promise<ApiToken[]> {
    return this.newestFirst('t', organizationId, page).getMany();
  }

  /** Tokens of the organization created by the user and not revoked (expired ones included). */
  listUnrevokedCreatedBy(organizationId: string, userId: string): Promise<ApiToken[]> {
    return this.manager.find(ApiToken, { where: { organizationId, createdByUserId: userId, revokedAt: IsNull() }, order: { createdAt: 'DESC' } });
  }
}
