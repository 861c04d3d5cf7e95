import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { type AddMemberRequest, type ApiTokenResponse, type AuditAction, type ListPage, type ListPageQuery, type MemberResponse, type MembershipSource, type Role } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { decodeTimeIdCursor, pageFrom, pageLimit, timeIdKey } from '../../common/http/paging';
import { AuditService, type AuditActorInput } from '../audit/audit.service';
import type { Principal } from '../auth/principal';
import { SessionsRepository } from '../sessions/sessions.repository';
import { TokensService } from '../tokens/tokens.service';
import { displayNameOf, type User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { Membership } from './membership.entity';
import { MembersErrorCode, membersError } from './members.errors';
import { MembershipsRepository } from './memberships.repository';

@Injectable()
export class MembersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly memberships: MembershipsRepository,
    private readonly users: UsersService,
    private readonly sessions: SessionsRepository,
    private readonly tokens: TokensService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  async list(organizationId: string): Promise<MemberResponse[]> {
    return (await this.memberships.listWithUsers(organizationId)).map(({ membership, user }) => toMemberResponse(membership, user));
  }

  /** One page of the members, oldest membership first. */
  async listPage(organizationId: string, query: ListPageQuery): Promise<ListPage<MemberResponse>> {
    const limit = pageLimit(query);
    const rows = await this.memberships.listWithUsers(organizationId, undefined, { limit: limit + 1, after: decodeTimeIdCursor(query.cursor) });
    return pageFrom(rows, limit, ({ membership, user }) => toMemberResponse(membership, user), ({ membership }) => timeIdKey(membership));
  }

  async get(organizationId: string, userId: string): Promise<MemberResponse> {
    const member = (await this.list(organizationId)).find((candidate) => candidate.userId === userId);
    if (!member) throw membersError(MembersErrorCode.NotFound, 'No such member in this organization.');
    return member;
  }

  /** The member's usable API tokens: the ones removing or disabling the member revokes (for the confirmation). */
  async tokensRevokedWithMember(organizationId: string, userId: string): Promise<ApiTokenResponse[]> {
    await this.get(organizationId, userId);
    return this.tokens.listActiveCreatedBy(organizationId, userId);
  }

  /** Adds a user (created when unknown) by email. Only owners may grant the owner role. */
  async add(organizationId: string, actor: Principal, input: AddMemberRequest): Promise<MemberResponse> {
    this.requireOwnerForOwnerRole(actor, input.role);
    return this.dataSource.transaction(async (manager) => {
      const { user } = await this.users.findOrCreate({ email: input.email, displayName: input.displayName }, manager);
      if (await this.memberships.find(organizationId, user.id, manager)) {
        throw membersError(MembersErrorCode.AlreadyMember, `${user.email} is already a member of this organization.`);
      }
      const membership = await this.insertMembership(organizationId, user, input.role, 'manual', actor, manager);
      return toMemberResponse(membership, user);
    });
  }

  async changeRole(organizationId: string, actor: Principal, userId: string, role: Role): Promise<MemberResponse> {
    return this.mutate(organizationId, userId, async (membership, user, manager) => {
      if (membership.role === role) return;
      this.requireOwnerForOwnerRole(actor, membership.role === 'owner' ? 'owner' : role);
      if (membership.role === 'owner') await this.protectLastOwner(organizationId, membership, manager, 'demote');
      const before = membership.role;
      membership.role = role;
      await this.memberships.update(membership.id, { role, updatedAt: this.clock.now() }, manager);
      await this.record(organizationId, actor, 'member.role_changed', user, { role: before }, { role }, manager);
    });
  }

  async setDisabled(organizationId: string, actor: Principal, userId: string, disabled: boolean): Promise<MemberResponse> {
    return this.mutate(organizationId, userId, async (membership, user, manager) => {
      if (membership.disabled === disabled) return;
      this.requireOwnerForOwnerRole(actor, membership.role);
      if (disabled && membership.role === 'owner') await this.protectLastOwner(organizationId, membership, manager, 'disable');
      membership.disabled = disabled;
      await this.memberships.update(membership.id, { disabled, updatedAt: this.clock.now() }, manager);
      await this.record(organizationId, actor, disabled ? 'member.disabled' : 'member.enabled', user, { disabled: !disabled }, { disabled }, manager);
      if (disabled) {
        // A disabled member is refused on every request anyway; deleting the sessions also frees the rows.
        await this.sessions.deleteForMember(organizationId, userId, manager);
        // Their tokens must not outlive their access; enabling the member again does not restore them.
        await this.tokens.revokeCreatedBy(organizationId, userId, actor, 'creator_disabled', manager);
      }
    });
  }

  async remove(organizationId: string, actor: Principal, userId: string): Promise<void> {
    await this.mutate(organizationId, userId, async (membership, user, manager) => {
      this.requireOwnerForOwnerRole(actor, membership.role);
      if (membership.role === 'owner') await this.protectLastOwner(organizationId, membership, manager, 'remove');
      await this.memberships.delete(membership.id, manager);
      await this.record(organizationId, actor, 'member.removed', user, membershipFields(membership), null, manager);
      await this.sessions.deleteForMember(organizationId, userId, manager);
      await this.tokens.revokeCreatedBy(organizationId, userId, actor, 'creator_removed', manager);
    });
  }

  /** Creates an owner membership (first-run setup, creating another organization). */
  async addOwner(organizationId: string, user: User, actor: AuditActorInput, manager: EntityManager): Promise<Membership> {
    return this.insertMembership(organizationId, user, 'owner', 'manual', actor, manager);
  }

  /**
   * For the SSO callback: creates the user's SSO membership with `role`, or sets `role` on an existing
   * SSO membership. A manual membership keeps its role (an admin chose it), and the last active owner is
   * never demoted by a login. Returns the membership as stored; the caller refuses disabled ones.
   */
  async applySsoMembership(input: { organizationId: string; userId: string; role: Role; clientAddress?: string | null }): Promise<Membership> {
    return this.dataSource.transaction(async (manager) => {
      const existing = await this.memberships.findForUpdate(input.organizationId, input.userId, manager);
      const user = await this.users.findById(input.userId, manager);
      if (!user) throw membersError(MembersErrorCode.NotFound, 'No such user.');
      // The sign-in changes the signing-in user's own membership: the audit log names them, acting through SSO.
      const actor: AuditActorInput = { kind: 'sso', userId: input.userId, clientAddress: input.clientAddress ?? null };
      if (!existing) return this.insertMembership(input.organizationId, user, input.role, 'sso', actor, manager);
      if (existing.source !== 'sso' || existing.role === input.role) return existing;
      if (existing.role === 'owner' && !existing.disabled && (await this.memberships.countActiveOwnersLocked(input.organizationId, manager)) <= 1) return existing;
      const before = existing.role;
      existing.role = input.role;
      await this.memberships.update(existing.id, { role: input.role, updatedAt: this.clock.now() }, manager);
      await this.record(input.organizationId, actor, 'member.role_changed', user, { role: before }, { role: input.role }, manager);
      return existing;
    });
  }

  private async mutate(organizationId: string, userId: string, change: (membership: Membership, user: User, manager: EntityManager) => Promise<void>): Promise<MemberResponse> {
    return this.dataSource.transaction(async (manager) => {
      const membership = await this.lockMembership(organizationId, userId, manager);
      const user = await this.users.findById(userId, manager);
      if (!user) throw membersError(MembersErrorCode.NotFound, 'No such member in this organization.');
      await change(membership, user, manager);
      return toMemberResponse(membership, user);
    });
  }

  private async insertMembership(organizationId: string, user: User, role: Role, source: MembershipSource, actor: AuditActorInput, manager: EntityManager): Promise<Membership> {
    const membership = this.newMembership(organizationId, user.id, role, source);
    await this.memberships.insert(membership, manager);
    await this.record(organizationId, actor, 'member.added', user, null, membershipFields(membership), manager);
    return membership;
  }

  private record(
    organizationId: string,
    actor: AuditActorInput,
    action: AuditAction,
    user: User,
    before: Record<string, unknown> | null,
    after: Record<string, unknown> | null,
    manager: EntityManager,
  ): Promise<void> {
    return this.audit.record({ organizationId, actor, action, target: { type: 'member', id: user.id, label: user.email }, before, after }, manager);
  }

  private async lockMembership(organizationId: string, userId: string, manager: EntityManager): Promise<Membership> {
    const membership = isUUID(userId) ? await this.memberships.findForUpdate(organizationId, userId, manager) : null;
    if (!membership) throw membersError(MembersErrorCode.NotFound, 'No such member in this organization.');
    return membership;
  }

  /** Owners are managed by owners only; admins manage admins, editors and viewers. */
  private requireOwnerForOwnerRole(actor: Principal, role: Role): void {
    if (role === 'owner' && !(actor.kind === 'session' && actor.role === 'owner')) {
      throw membersError(MembersErrorCode.OwnerRoleRequired, 'Only an owner can grant the owner role or change an owner.');
    }
  }

  private async protectLastOwner(organizationId: string, membership: Membership, manager: EntityManager, action: 'demote' | 'disable' | 'remove'): Promise<void> {
    if (membership.disabled) return;
    const activeOwners = await this.memberships.countActiveOwnersLocked(organizationId, manager);
    if (activeOwners <= 1) {
      throw membersError(MembersErrorCode.LastOwner, `Cannot ${action} the last active owner; make another member an owner first.`);
    }
  }

  private newMembership(organizationId: string, userId: string, role: Role, source: MembershipSource): Membership {
    const now = this.clock.now();
    return Object.assign(new Membership(), { id: randomUUID(), organizationId, userId, role, source, disabled: false, createdAt: now, updatedAt: now });
  }
}

function membershipFields(membership: Membership): Record<string, unknown> {
  return { role: membership.role, source: membership.source, disabled: membership.disabled };
}

export function toMemberResponse(membership: Membership, user: User): MemberResponse {
  return {
    userId: user.id,
    email: user.email,
    displayName: displayNameOf(user),
    role: membership.role,
    source: membership.source,
    disabled: membership.disabled,
    userDisabled: user.disabled,
    createdAt: membership.createdAt.toISOString(),
  };
}
