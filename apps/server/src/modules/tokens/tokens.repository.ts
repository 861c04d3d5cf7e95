import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { ApiToken } from './api-token.entity';

@Injectable()
export class TokensRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findByHash(tokenHash: string): Promise<ApiToken | null> {
    return this.dataSource.manager.findOneBy(ApiToken, { tokenHash });
  }

  findInOrganization(organizationId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<ApiToken | null> {
    return manager.findOneBy(ApiToken, { organizationId, id });
  }

  /** Newest first (id breaks ties), at most `limit`, only those before the (createdAt, id) position `before`. */
  listForOrganization(organizationId: string, { limit, before }: { limit: number; before?: { createdAt: Date; id: string } }): Promise<ApiToken[]> {
    const query = this.dataSource.manager
      .createQueryBuilder(ApiToken, 't')
      .where('t.organization_id = :organizationId', { organizationId })
      .orderBy('t.created_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .take(limit);
    if (before) query.andWhere('(t.created_at, t.id) < (:beforeAt, :beforeId)', { beforeAt: before.createdAt, beforeId: before.id });
    return query.getMany();
  }

  async insert(token: ApiToken, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(ApiToken, token);
  }

  async revoke(id: string, revokedAt: Date, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.createQueryBuilder().update(ApiToken).set({ revokedAt }).where('id = :id AND revoked_at IS NULL', { id }).execute();
  }

  /** Tokens of the organization created by the user and not revoked (expired ones included). */
  listUnrevokedCreatedBy(organizationId: string, userId: string, manager: EntityManager = this.dataSource.manager): Promise<ApiToken[]> {
    return manager.find(ApiToken, { where: { organizationId, createdByUserId: userId, revokedAt: IsNull() }, order: { createdAt: 'DESC' } });
  }

  /** Records use, skipping the write when the stored time is newer than `notBefore` (throttles writes). */
  async touch(id: string, usedAt: Date, notBefore: Date): Promise<void> {
    await this.dataSource.manager
      .createQueryBuilder()
      .update(ApiToken)
      .set({ lastUsedAt: usedAt })
      .where('id = :id AND (last_used_at IS NULL OR last_used_at < :notBefore)', { id, notBefore })
      .execute();
  }
}
