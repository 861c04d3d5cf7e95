import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { scimBaseUrl } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { UnitOfWork } from '../../database/unit-of-work';
import type { ScimActor } from '../audit/audit.service';
import { invalidValue, notFound } from './scim-error';
import type { ScimFilter } from './scim-filter';
import { applyPatch } from './scim-patch';
import { ScimResourcesRepository } from './scim-resources.repository';
import { groupAttributes, listResponse, readGroupInput, toGroupResource, type GroupInput } from './scim-resources';
import { ScimRolesService } from './scim-roles.service';
import { checkVersion, uniquely, type ExpectedVersion, type ScimAnswer } from './scim-users.service';
import { ScimGroup, type ScimUser } from './scim.entities';
import { ScimError } from './scim-error';

/**
 * SCIM Groups of one organization. Groups grant nothing by themselves: after every change of a group's name or
 * members, the role of each user who joined or left is recomputed from the organization's group→role rules
 * (ScimRolesService), in the same transaction.
 */
@Injectable()
export class ScimGroupsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly resources: ScimResourcesRepository,
    private readonly roles: ScimRolesService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async create(organizationId: string, actor: ScimActor, body: unknown): Promise<ScimAnswer> {
    const input = readGroupInput(body);
    const { group, members } = await uniquely(() =>
      this.unitOfWork.run(async () => {
        await this.requireFreeName(organizationId, input.displayName, null);
        const members = await this.requireMembers(organizationId, input.memberIds);
        const now = this.clock.now();
        const group = Object.assign(new ScimGroup(), { id: randomUUID(), organizationId, version: 1, createdAt: now, updatedAt: now });
        assignInput(group, input);
        await this.resources.saveGroup(group);
        await this.roles.apply(organizationId, actor, members);
        return { group, members };
      }),
    );
    return this.answer(organizationId, group, members);
  }

  async get(organizationId: string, id: string, excludeMembers = false): Promise<ScimAnswer> {
    const group = isUUID(id) ? await this.resources.findGroup(organizationId, id) : null;
    if (!group) throw notFound('Group', id);
    return this.answer(organizationId, group, await this.resources.findUsersByIds(organizationId, group.memberIds), excludeMembers);
  }

  async list(organizationId: string, filter: ScimFilter | null, startIndex: number, count: number, excludeMembers: boolean): Promise<Record<string, unknown>> {
    const page = await this.resources.listGroups(organizationId, filter, { offset: startIndex - 1, limit: count });
    const resources = await Promise.all(
      page.items.map(async (group) => this.answer(organizationId, group, excludeMembers ? [] : await this.resources.findUsersByIds(organizationId, group.memberIds), excludeMembers)),
    );
    return listResponse(page.total, startIndex, resources.map((answer) => answer.resource));
  }

  async replace(organizationId: string, actor: ScimActor, id: string, body: unknown, ifMatch: ExpectedVersion): Promise<ScimAnswer> {
    return this.change(organizationId, actor, id, ifMatch, () => readGroupInput(body));
  }

  /** PATCH, as Entra ID and Okta send it: add/remove members (lists or `members[value eq "…"]`), replace displayName. */
  async patch(organizationId: string, actor: ScimActor, id: string, body: unknown, ifMatch: ExpectedVersion): Promise<ScimAnswer> {
    return this.change(organizationId, actor, id, ifMatch, (group, members) => readGroupInput(applyPatch(groupAttributes(group, members), body)));
  }

  async delete(organizationId: string, actor: ScimActor, id: string, ifMatch: ExpectedVersion): Promise<void> {
    await this.unitOfWork.run(async () => {
      const group = await this.requireLocked(organizationId, id, ifMatch);
      const members = await this.resources.findUsersByIds(organizationId, group.memberIds);
      await this.resources.deleteGroup(group.id);
      await this.roles.apply(organizationId, actor, members);
    });
  }

  private async change(organizationId: string, actor: ScimActor, id: string, ifMatch: ExpectedVersion, read: (group: ScimGroup, members: ScimUser[]) => GroupInput): Promise<ScimAnswer> {
    const { group, members } = await uniquely(() =>
      this.unitOfWork.run(async () => {
        const group = await this.requireLocked(organizationId, id, ifMatch);
        const before = await this.resources.findUsersByIds(organizationId, group.memberIds);
        const input = read(group, before);
        if (input.displayName.toLowerCase() !== group.displayName.toLowerCase()) await this.requireFreeName(organizationId, input.displayName, group.id);
        const members = await this.requireMembers(organizationId, input.memberIds);
        assignInput(group, input);
        group.version += 1;
        group.updatedAt = this.clock.now();
        await this.resources.saveGroup(group);
        // A renamed group can change the role of every member, so all of them, and those who left, are recomputed.
        const affected = new Map([...before, ...members].map((user) => [user.id, user]));
        await this.roles.apply(organizationId, actor, [...affected.values()]);
        return { group, members };
      }),
    );
    return this.answer(organizationId, group, members);
  }

  private async requireMembers(organizationId: string, ids: string[]): Promise<ScimUser[]> {
    const unknown = ids.filter((id) => !isUUID(id));
    const found = await this.resources.findUsersByIds(organizationId, ids.filter((id) => isUUID(id)));
    const known = new Set(found.map((user) => user.id));
    unknown.push(...ids.filter((id) => isUUID(id) && !known.has(id)));
    if (unknown.length) throw invalidValue(`members: no User with id ${unknown.map((id) => `"${id}"`).join(', ')} exists in this organization.`);
    return found;
  }

  private async requireFreeName(organizationId: string, displayName: string, exceptId: string | null): Promise<void> {
    const existing = await this.resources.findGroupByDisplayName(organizationId, displayName);
    if (existing && existing.id !== exceptId) throw new ScimError(409, `A Group named "${displayName}" exists already.`, 'uniqueness');
  }

  private async requireLocked(organizationId: string, id: string, ifMatch: ExpectedVersion): Promise<ScimGroup> {
    const group = isUUID(id) ? await this.resources.findGroup(organizationId, id, { lock: true }) : null;
    if (!group) throw notFound('Group', id);
    checkVersion(ifMatch, group.version);
    return group;
  }

  private answer(organizationId: string, group: ScimGroup, members: ScimUser[], excludeMembers = false): ScimAnswer {
    return { resource: toGroupResource(group, members, scimBaseUrl(this.config.publicUrl, organizationId), { excludeMembers }), version: group.version };
  }
}

function assignInput(group: ScimGroup, input: GroupInput): void {
  Object.assign(group, { displayName: input.displayName, externalId: input.externalId, memberIds: input.memberIds });
}
