import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { ApiToken } from './api-token.entity';
import { TransactionalRepository } from '../../database/unit-of-work';

@Injectable()
export class TokensRepository extends TransactionalRepository {
  findByHash(tokenHash: string): Promise<ApiToken | null> {
    return this.manager.findOneBy(ApiToken, { tokenHash });
  }

  findInOrganization(organizationId: string, id: string): Promise<ApiToken | null> {
    return this.manager.findOneBy(ApiToken, { organizationId, id });
  }

  /** Id and name only, to name tokens in answers. */
  namesByIds(ids: string[]): Promise<Pick<ApiToken, 'id' | 'name'>[]> {
    return ids.length ? this.manager.find(ApiToken, { select: { id: true, name: true }, where: { id: In([...new Set(ids)]) } }) : Promise.resolve([]);
  }

  /** Newest first (id breaks ties), at most `limit`, only those before the (createdAt, id) position `before`. */
  listForOrganization(organizationId: string, { limit, before }: { limit: number; before?: { at: Date; id: string } }): Promise<ApiToken[]> {
    const query = this.manager
      .createQueryBuilder(ApiToken, 't')
      .where('t.organization_id = :organizationId', { organizationId })
      .orderBy('t.created_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .take(limit);
    if (before) query.andWhere('(t.created_at, t.id) < (:beforeAt, :beforeId)', { beforeAt: before.at, beforeId: before.id });
    return query.getMany();
  }

  async insert(token: ApiToken): Promise<void> {
    await this.manager.insert(ApiToken, token);
  }

  async revoke(id: string, revokedAt: Date): Promise<void> {
    await this.manager.createQueryBuilder().update(ApiToken).set({ revokedAt }).where('id = :id AND revoked_at IS NULL', { id }).execute();
  }

  /** Tokens of the organization created by the user and not revoked (expired ones included). */
  listUnrevokedCreatedBy(organizationId: string, userId: string): Promise<ApiToken[]> {
    return this.manager.find(ApiToken, { where: { organizationId, createdByUserId: userId, revokedAt: IsNull() }, order: { createdAt: 'DESC' } });
  }

  /** Records use, skipping the write when the stored time is newer than `notBefore` (throttles writes). */
  async touch(id: string, usedAt: Date, notBefore: Date): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .update(ApiToken)
      .set({ lastUsedAt: usedAt })
      .where('id = :id AND (last_used_at IS NULL OR last_used_at < :notBefore)', { id, notBefore })
      .execute();
  }
}
