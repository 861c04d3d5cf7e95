import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { scimBaseUrl } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { isUniqueViolation } from '../../database/db-errors';
import { UnitOfWork } from '../../database/unit-of-work';
import type { ScimActor } from '../audit/audit.service';
import { MembersService } from '../members/members.service';
import { UsersService } from '../users/users.service';
import { ScimError, notFound } from './scim-error';
import type { ScimFilter } from './scim-filter';
import { applyPatch } from './scim-patch';
import { ScimResourcesRepository } from './scim-resources.repository';
import { listResponse, readUserInput, toUserResource, userAttributes, type UserInput } from './scim-resources';
import { ScimRolesService } from './scim-roles.service';
import { ScimUser } from './scim.entities';

export interface ScimAnswer {
  resource: Record<string, unknown>;
  version: number;
}

/**
 * SCIM Users of one organization. A SCIM User is the IdP's record of a member: creating one adds the member (an
 * existing account with that email is reused, as add-by-email does), `active: false` disables the membership and
 * deleting removes it; both end the member's sessions and revoke their API tokens in the same transaction
 * (MembersService), and neither touches the last active owner (409). Users are shared by organizations, so what
 * SCIM sends changes only this organization's SCIM record and membership, never the account's email or name.
 */
@Injectable()
export class ScimUsersService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly resources: ScimResourcesRepository,
    private readonly users: UsersService,
    private readonly members: MembersService,
    private readonly roles: ScimRolesService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async create(organizationId: string, actor: ScimActor, body: unknown): Promise<ScimAnswer> {
    const input = readUserInput(body);
    return this.answer(
      organizationId,
      await uniquely(() =>
        this.unitOfWork.run(async () => {
          await this.requireFreeUserName(organizationId, input.userName, null);
          const { user } = await this.users.findOrCreate({ email: input.email, displayName: input.displayName });
          if (await this.resources.findUserByUserId(organizationId, user.id)) throw new ScimError(409, `A User for ${input.email} exists already in this organization.`, 'uniqueness');
          const now = this.clock.now();
          const scimUser = Object.assign(new ScimUser(), { id: randomUUID(), organizationId, userId: user.id, version: 1, createdAt: now, updatedAt: now });
          assignInput(scimUser, input);
          await this.resources.saveUser(scimUser);
          await this.applyActive(organizationId, actor, scimUser);
          return scimUser;
        }),
      ),
    );
  }

  async get(organizationId: string, id: string): Promise<ScimAnswer> {
    return this.answer(organizationId, await this.require(organizationId, id));
  }

  async list(organizationId: string, filter: ScimFilter | null, startIndex: number, count: number): Promise<Record<string, unknown>> {
    const page = await this.resources.listUsers(organizationId, filter, { offset: startIndex - 1, limit: count });
    const resources = await Promise.all(page.items.map(async (user) => (await this.answer(organizationId, user)).resource));
    return listResponse(page.total, startIndex, resources);
  }

  /** PUT: the body replaces the User (attributes it leaves out are cleared). */
  async replace(organizationId: string, actor: ScimActor, id: string, body: unknown, ifMatch: ExpectedVersion): Promise<ScimAnswer> {
    return this.change(organizationId, actor, id, ifMatch, () => readUserInput(body));
  }

  async patch(organizationId: string, actor: ScimActor, id: string, body: unknown, ifMatch: ExpectedVersion): Promise<ScimAnswer> {
    return this.change(organizationId, actor, id, ifMatch, (current) => readUserInput(applyPatch(userAttributes(current), body)));
  }

  /** Removes the member (sessions ended, API tokens revoked) and the SCIM record; 409 for the last active owner. */
  async delete(organizationId: string, actor: ScimActor, id: string, ifMatch: ExpectedVersion): Promise<void> {
    await this.unitOfWork.run(async () => {
      const user = await this.requireLocked(organizationId, id, ifMatch);
      if (await this.members.findMembership(organizationId, user.userId)) await this.members.remove(organizationId, actor, user.userId);
      await this.resources.removeMemberEverywhere(organizationId, user.id, this.clock.now());
      await this.resources.deleteUser(user.id);
    });
  }

  private async change(organizationId: string, actor: ScimActor, id: string, ifMatch: ExpectedVersion, read: (current: ScimUser) => UserInput): Promise<ScimAnswer> {
    const user = await uniquely(() =>
      this.unitOfWork.run(async () => {
        const current = await this.requireLocked(organizationId, id, ifMatch);
        const input = read(current);
        if (input.userName.toLowerCase() !== current.userName.toLowerCase()) await this.requireFreeUserName(organizationId, input.userName, current.id);
        assignInput(current, input);
        current.version += 1;
        current.updatedAt = this.clock.now();
        await this.resources.saveUser(current);
        await this.applyActive(organizationId, actor, current);
        return current;
      }),
    );
    return this.answer(organizationId, user);
  }

  /**
   * Makes the membership follow `active`: disabling ends the member's sessions and revokes their API tokens at once
   * (MembersService.setDisabled); an active User without a membership (new, or removed by an admin) gets one.
   */
  private async applyActive(organizationId: string, actor: ScimActor, user: ScimUser): Promise<void> {
    const membership = await this.members.findMembership(organizationId, user.userId);
    if (!membership) {
      if (!user.active) return;
      const role = await this.roles.roleFor(organizationId, user.userName, await this.resources.groupsOfUser(organizationId, user.id));
      await this.members.applyScimMembership({ organizationId, userId: user.userId, role, actor });
      return;
    }
    if (membership.disabled === user.active) await this.members.setDisabled(organizationId, actor, user.userId, !user.active);
  }

  private async requireFreeUserName(organizationId: string, userName: string, exceptId: string | null): Promise<void> {
    const existing = await this.resources.findUserByUserName(organizationId, userName);
    if (existing && existing.id !== exceptId) throw new ScimError(409, `A User with userName "${userName}" exists already.`, 'uniqueness');
  }

  private async require(organizationId: string, id: string): Promise<ScimUser> {
    const user = isUUID(id) ? await this.resources.findUser(organizationId, id) : null;
    if (!user) throw notFound('User', id);
    return user;
  }

  private async requireLocked(organizationId: string, id: string, ifMatch: ExpectedVersion): Promise<ScimUser> {
    const user = isUUID(id) ? await this.resources.findUser(organizationId, id, { lock: true }) : null;
    if (!user) throw notFound('User', id);
    checkVersion(ifMatch, user.version);
    return user;
  }

  private async answer(organizationId: string, user: ScimUser): Promise<ScimAnswer> {
    const groups = await this.resources.groupsOfUser(organizationId, user.id);
    return { resource: toUserResource(user, groups, scimBaseUrl(this.config.publicUrl, organizationId)), version: user.version };
  }
}

function assignInput(user: ScimUser, input: UserInput): void {
  Object.assign(user, { userName: input.userName, externalId: input.externalId, active: input.active, attributes: input.attributes });
}

/** The version a request's If-Match names: undefined when absent or `*` (any version), null when it names none. */
export type ExpectedVersion = number | null | undefined;

/** If-Match (RFC 7644 §3.14): when sent, it must name the current version, else 412. */
export function checkVersion(ifMatch: ExpectedVersion, version: number): void {
  if (ifMatch === undefined) return;
  if (ifMatch !== version) throw new ScimError(412, `The resource is at version W/"${version}"; read it again and retry with that If-Match.`);
}

/** A concurrent request that took the same userName or displayName: the unique index answers, reported as SCIM's uniqueness. */
export async function uniquely<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ScimError(409, 'A resource with the same unique attribute exists already.', 'uniqueness');
    throw error;
  }
}
