import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { User } from '../users/user.entity';
import { Membership } from './membership.entity';

export interface MemberRow {
  membership: Membership;
  user: User;
}

@Injectable()
export class MembershipsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  find(organizationId: string, userId: string, manager: EntityManager = this.dataSource.manager): Promise<Membership | null> {
    return manager.findOneBy(Membership, { organizationId, userId });
  }

  /** Same as find, but locks the row until the transaction ends (role and state changes). */
  findForUpdate(organizationId: string, userId: string, manager: EntityManager): Promise<Membership | null> {
    return manager.createQueryBuilder(Membership, 'm').setLock('pessimistic_write').where('m.organization_id = :organizationId AND m.user_id = :userId', { organizationId, userId }).getOne();
  }

  listForUser(userId: string): Promise<Membership[]> {
    return this.dataSource.manager.findBy(Membership, { userId });
  }

  /** Oldest first (id breaks ties); with `page`, at most `limit` after the (createdAt, id) position `after`. */
  async listWithUsers(
    organizationId: string,
    manager: EntityManager = this.dataSource.manager,
    page?: { limit: number; after?: { createdAt: Date; id: string } },
  ): Promise<MemberRow[]> {
    const query = manager.createQueryBuilder(Membership, 'm').where('m.organization_id = :organizationId', { organizationId }).orderBy('m.created_at', 'ASC').addOrderBy('m.id', 'ASC');
    if (page?.after) query.andWhere('(m.created_at, m.id) > (:afterAt, :afterId)', { afterAt: page.after.createdAt, afterId: page.after.id });
    if (page) query.take(page.limit);
    const memberships = await query.getMany();
    if (memberships.length === 0) return [];
    const users = await manager.createQueryBuilder(User, 'u').where('u.id IN (:...ids)', { ids: memberships.map((m) => m.userId) }).getMany();
    const byId = new Map(users.map((user) => [user.id, user]));
    return memberships.flatMap((membership) => {
      const user = byId.get(membership.userId);
      return user ? [{ membership, user }] : [];
    });
  }

  /**
   * Locks the organization's owner memberships and counts the active ones, so two concurrent
   * demotions cannot both see "another owner is left" and remove the last two owners.
   */
  async countActiveOwnersLocked(organizationId: string, manager: EntityManager): Promise<number> {
    const owners = await manager
      .createQueryBuilder(Membership, 'm')
      .setLock('pessimistic_write')
      .innerJoin(User, 'u', 'u.id = m.user_id')
      .where("m.organization_id = :organizationId AND m.role = 'owner'", { organizationId })
      .select(['m.id', 'm.disabled'])
      .addSelect('u.disabled', 'user_disabled')
      .getRawMany<{ m_disabled: boolean; user_disabled: boolean }>();
    return owners.filter((owner) => !owner.m_disabled && !owner.user_disabled).length;
  }

  async insert(membership: Membership, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(Membership, membership);
  }

  async update(id: string, changes: Partial<Pick<Membership, 'role' | 'disabled' | 'source' | 'updatedAt'>>, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.update(Membership, { id }, changes);
  }

  async delete(id: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.delete(Membership, { id });
  }
}
