import { Injectable } from '@nestjs/common';
import { In, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import { TransactionalRepository } from '../../database/unit-of-work';
import { filterToSql, type FilterColumn } from './scim-filter-sql';
import type { ScimFilter } from './scim-filter';
import { ScimGroup, ScimUser } from './scim.entities';

/** The attributes Users can be filtered on, by lower-case name (RFC 7643 §4.1: userName and emails are not case-exact). */
const USER_FILTER_COLUMNS: Record<string, FilterColumn> = {
  id: { expression: 'u.id::text', caseExact: true },
  username: { expression: 'u.user_name', caseExact: false },
  externalid: { expression: 'u.external_id', caseExact: true },
  active: { expression: 'u.active', caseExact: true, type: 'boolean' },
  displayname: { expression: "u.attributes->>'displayName'", caseExact: false },
  'name.givenname': { expression: "u.attributes->'name'->>'givenName'", caseExact: false },
  'name.familyname': { expression: "u.attributes->'name'->>'familyName'", caseExact: false },
  emails: { expression: "e->>'value'", caseExact: false, existsFrom: "jsonb_array_elements(u.attributes->'emails')" },
  'emails.value': { expression: "e->>'value'", caseExact: false, existsFrom: "jsonb_array_elements(u.attributes->'emails')" },
};

const GROUP_FILTER_COLUMNS: Record<string, FilterColumn> = {
  id: { expression: 'g.id::text', caseExact: true },
  displayname: { expression: 'g.display_name', caseExact: false },
  externalid: { expression: 'g.external_id', caseExact: true },
  members: { expression: 'e', caseExact: true, existsFrom: 'jsonb_array_elements_text(g.member_ids)' },
  'members.value': { expression: 'e', caseExact: true, existsFrom: 'jsonb_array_elements_text(g.member_ids)' },
};

export interface ScimPage<T> {
  total: number;
  items: T[];
}

@Injectable()
export class ScimResourcesRepository extends TransactionalRepository {
  findUser(organizationId: string, id: string, options: { lock?: boolean } = {}): Promise<ScimUser | null> {
    const query = this.manager.createQueryBuilder(ScimUser, 'u').where('u.organization_id = :organizationId AND u.id = :id', { organizationId, id });
    if (options.lock) query.setLock('pessimistic_write');
    return query.getOne();
  }

  findUserByUserId(organizationId: string, userId: string): Promise<ScimUser | null> {
    return this.manager.findOneBy(ScimUser, { organizationId, userId });
  }

  findUsersByIds(organizationId: string, ids: string[]): Promise<ScimUser[]> {
    return ids.length ? this.manager.findBy(ScimUser, { organizationId, id: In(ids) }) : Promise.resolve([]);
  }

  /** Another SCIM user of the organization with this userName (case-insensitive), for the uniqueness answer. */
  findUserByUserName(organizationId: string, userName: string): Promise<ScimUser | null> {
    return this.manager.createQueryBuilder(ScimUser, 'u').where('u.organization_id = :organizationId AND lower(u.user_name) = lower(:userName)', { organizationId, userName }).getOne();
  }

  listUsers(organizationId: string, filter: ScimFilter | null, page: { offset: number; limit: number }): Promise<ScimPage<ScimUser>> {
    return this.page(this.manager.createQueryBuilder(ScimUser, 'u').where('u.organization_id = :organizationId', { organizationId }), 'u', filter, USER_FILTER_COLUMNS, page);
  }

  async saveUser(user: ScimUser): Promise<void> {
    await this.manager.save(ScimUser, user);
  }

  async deleteUser(id: string): Promise<void> {
    await this.manager.delete(ScimUser, { id });
  }

  findGroup(organizationId: string, id: string, options: { lock?: boolean } = {}): Promise<ScimGroup | null> {
    const query = this.manager.createQueryBuilder(ScimGroup, 'g').where('g.organization_id = :organizationId AND g.id = :id', { organizationId, id });
    if (options.lock) query.setLock('pessimistic_write');
    return query.getOne();
  }

  findGroupByDisplayName(organizationId: string, displayName: string): Promise<ScimGroup | null> {
    return this.manager.createQueryBuilder(ScimGroup, 'g').where('g.organization_id = :organizationId AND lower(g.display_name) = lower(:displayName)', { organizationId, displayName }).getOne();
  }

  listGroups(organizationId: string, filter: ScimFilter | null, page: { offset: number; limit: number }): Promise<ScimPage<ScimGroup>> {
    return this.page(this.manager.createQueryBuilder(ScimGroup, 'g').where('g.organization_id = :organizationId', { organizationId }), 'g', filter, GROUP_FILTER_COLUMNS, page);
  }

  /** The groups a SCIM user is a member of (the GIN index on member_ids serves `@>`). */
  groupsOfUser(organizationId: string, scimUserId: string): Promise<ScimGroup[]> {
    return this.manager
      .createQueryBuilder(ScimGroup, 'g')
      .where('g.organization_id = :organizationId AND g.member_ids @> :member::jsonb', { organizationId, member: JSON.stringify([scimUserId]) })
      .orderBy('g.display_name')
      .getMany();
  }

  async saveGroup(group: ScimGroup): Promise<void> {
    await this.manager.save(ScimGroup, group);
  }

  async deleteGroup(id: string): Promise<void> {
    await this.manager.delete(ScimGroup, { id });
  }

  /** Takes a deleted user out of every group of the organization (bumping their versions). */
  async removeMemberEverywhere(organizationId: string, scimUserId: string, now: Date): Promise<void> {
    await this.manager.query(
      `UPDATE scim_groups SET member_ids = member_ids - $2::text, version = version + 1, updated_at = $3
        WHERE organization_id = $1 AND member_ids @> jsonb_build_array($2::text)`,
      [organizationId, scimUserId, now],
    );
  }

  /** Oldest first (id breaks ties), so startIndex pages are stable while nothing is created in between. */
  private async page<T extends ObjectLiteral>(
    query: SelectQueryBuilder<T>,
    alias: string,
    filter: ScimFilter | null,
    columns: Record<string, FilterColumn>,
    { offset, limit }: { offset: number; limit: number },
  ): Promise<ScimPage<T>> {
    if (filter) {
      const params: Record<string, unknown> = {};
      query.andWhere(filterToSql(filter, columns, params), params);
    }
    const total = await query.getCount();
    const items = limit === 0 ? [] : await query.orderBy(`${alias}.created_at`, 'ASC').addOrderBy(`${alias}.id`, 'ASC').offset(offset).limit(limit).getMany();
    return { total, items };
  }
}
