import { Injectable } from '@nestjs/common';
import { User } from '../users/user.entity';
import { Membership } from './membership.entity';
import { EditableRecordRepository, keysetPage, type KeysetPosition } from '../../database/record-repository';

export interface MemberRow {
  membership: Membership;
  user: User;
}

@Injectable()
export class MembershipsRepository extends EditableRecordRepository<Membership, 'role' | 'disabled' | 'source' | 'updatedAt'> {
  protected readonly entity = Membership;

  find(organizationId: string, userId: string): Promise<Membership | null> {
    return this.manager.findOneBy(Membership, { organizationId, userId });
  }

  /** Same as find, but locks the row until the transaction ends (role and state changes). */
  findForUpdate(organizationId: string, userId: string): Promise<Membership | null> {
    return this.manager.createQueryBuilder(Membership, 'm').setLock('pessimistic_write').where('m.organization_id = :organizationId AND m.user_id = :userId', { organizationId, userId }).getOne();
  }

  listForUser(userId: string): Promise<Membership[]> {
    return this.manager.findBy(Membership, { userId });
  }

  /** Oldest first (id breaks ties); with `page`, at most `limit` after the (createdAt, id) position `after`. */
  async listWithUsers(
    organizationId: string,
    page?: { limit: number; after?: KeysetPosition },
  ): Promise<MemberRow[]> {
    const query = this.manager.createQueryBuilder(Membership, 'm').where('m.organization_id = :organizationId', { organizationId });
    const memberships = await keysetPage(query, 'm', { time: 'created_at', timeOrder: 'ASC', limit: page?.limit, after: page?.after }).getMany();
    if (memberships.length === 0) return [];
    const users = await this.manager.createQueryBuilder(User, 'u').where('u.id IN (:...ids)', { ids: memberships.map((m) => m.userId) }).getMany();
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
  async countActiveOwnersLocked(organizationId: string): Promise<number> {
    const owners = await this.manager
      .createQueryBuilder(Membership, 'm')
      .setLock('pessimistic_write')
      .innerJoin(User, 'u', 'u.id = m.user_id')
      .where("m.organization_id = :organizationId AND m.role = 'owner'", { organizationId })
      .select(['m.id', 'm.disabled'])
      .addSelect('u.disabled', 'user_disabled')
      .getRawMany<{ m_disabled: boolean; user_disabled: boolean }>();
    return owners.filter((owner) => !owner.m_disabled && !owner.user_disabled).length;
  }
}
