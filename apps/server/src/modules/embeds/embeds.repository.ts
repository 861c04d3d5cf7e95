import { Injectable } from '@nestjs/common';
import { TransactionalRepository } from '../../database/unit-of-work';
import { EmbedLink } from './embed-link.entity';

@Injectable()
export class EmbedLinksRepository extends TransactionalRepository {
  findByHash(tokenHash: string): Promise<EmbedLink | null> {
    return this.manager.findOneBy(EmbedLink, { tokenHash });
  }

  findInOrganization(organizationId: string, id: string): Promise<EmbedLink | null> {
    return this.manager.findOneBy(EmbedLink, { organizationId, id });
  }

  /**
   * Newest first (id breaks ties), at most `limit`, only those before the (createdAt, id) position `before`;
   * `service` narrows to one service, `diagram` to the links showing that diagram (its own and the service's).
   */
  listForOrganization(
    organizationId: string,
    { limit, before, service, diagram }: { limit: number; before?: { at: Date; id: string }; service?: string; diagram?: string },
  ): Promise<EmbedLink[]> {
    const query = this.manager
      .createQueryBuilder(EmbedLink, 'e')
      .where('e.organization_id = :organizationId', { organizationId })
      .orderBy('e.created_at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .take(limit);
    if (service !== undefined) query.andWhere('e.service_name = :service', { service });
    if (diagram !== undefined) query.andWhere('(e.diagram = :diagram OR e.diagram IS NULL)', { diagram });
    if (before) query.andWhere('(e.created_at, e.id) < (:beforeAt, :beforeId)', { beforeAt: before.at, beforeId: before.id });
    return query.getMany();
  }

  async insert(link: EmbedLink): Promise<void> {
    await this.manager.insert(EmbedLink, link);
  }

  async revoke(id: string, revokedAt: Date): Promise<void> {
    await this.manager.createQueryBuilder().update(EmbedLink).set({ revokedAt }).where('id = :id AND revoked_at IS NULL', { id }).execute();
  }

  /** Records use, skipping the write when the stored time is newer than `notBefore` (throttles writes across instances). */
  async touch(id: string, usedAt: Date, notBefore: Date): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .update(EmbedLink)
      .set({ lastUsedAt: usedAt })
      .where('id = :id AND (last_used_at IS NULL OR last_used_at < :notBefore)', { id, notBefore })
      .execute();
  }
}
