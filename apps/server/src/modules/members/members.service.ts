import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { type AddMemberRequest, type ApiTokenResponse, type MemberResponse, type MembershipSource, type Role } from '@sc/contracts';
import { Clock } from '../../common/clock';
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
    private readonly clock: Clock,
  ) {}

  async list(organizationId: string): Promise<MemberResponse[]> {
    return (await this.memberships.listWithUsers(organizationId)).map(({ membership, user }) => toMemberResponse(membership, user));
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
      const membership = this.newMembership(organizationId, user.id, input.role, 'manual');
      await this.memberships.insert(membership, manager);
      return toMemberResponse(membership, user);
    });
  }

  async changeRole(organizationId: string, actor: Principal, userId: string, role: Role): Promise<MemberResponse> {
    return this.mutate(organizationId, userId, async (membership, manager) => {
      if (membership.role === role) return;
      this.requireOwnerForOwnerRole(actor, membership.role === 'owner' ? 'owner' : role);
      if (membership.role === 'owner') await this.protectLastOwner(organizationId, membership, manager, 'demote');
      membership.role = role;
      await this.memberships.update(membership.id, { role, updatedAt: this.clock.now() }, manager);
    });
  }

  async setDisabled(organizationId: string, actor: Principal, userId: string, disabled: boolean): Promise<MemberResponse> {
    return this.mutate(organizationId, userId, async (membership, manager) => {
      if (membership.disabled === disabled) return;
      this.requireOwnerForOwnerRole(actor, membership.role);
      if (disabled && membership.role === 'owner') await this.protectLastOwner(organizationId, membership, manager, 'disable');
      membership.disabled = disabled;
      await this.memberships.update(membership.id, { disabled, updatedAt: this.clock.now() }, manager);
      // A disabled member is refused on every request anyway; deleting the sessions also frees the rows.
      if (disabled) await this.sessions.deleteForMember(organizationId, userId, manager);
      // Their tokens must not outlive their access; enabling the member again does not restore them.
      if (disabled) await this.tokens.revokeCreatedBy(organizationId, userId, manager);
    });
  }

  async remove(organizationId: string, actor: Principal, userId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const membership = await this.lockMembership(organizationId, userId, manager);
      this.requireOwnerForOwnerRole(actor, membership.role);
      if (membership.role === 'owner') await this.protectLastOwner(organizationId, membership, manager, 'remove');
      await this.memberships.delete(membership.id, manager);
      await this.sessions.deleteForMember(organizationId, userId, manager);
      await this.tokens.revokeCreatedBy(organizationId, userId, manager);
    });
  }

  /** Creates an owner membership (first-run setup, creating another organization). */
  async addOwner(organizationId: string, userId: string, manager: EntityManager): Promise<Membership> {
    const membership = this.newMembership(organizationId, userId, 'owner', 'manual');
    await this.memberships.insert(membership, manager);
    return membership;
  }

  /**
   * For the SSO callback: creates the user's SSO membership with `role`, or sets `role` on an existing
   * SSO membership. A manual membership keeps its role (an admin chose it), and the last active owner is
   * never demoted by a login. Returns the membership as stored; the caller refuses disabled ones.
   */
  async applySsoMembership(input: { organizationId: string; userId: string; role: Role }): Promise<Membership> {
    return this.dataSource.transaction(async (manager) => {
      const existing = await this.memberships.findForUpdate(input.organizationId, input.userId, manager);
      if (!existing) {
        const membership = this.newMembership(input.organizationId, input.userId, input.role, 'sso');
        await this.memberships.insert(membership, manager);
        return membership;
      }
      if (existing.source !== 'sso' || existing.role === input.role) return existing;
      if (existing.role === 'owner' && !existing.disabled && (await this.memberships.countActiveOwnersLocked(input.organizationId, manager)) <= 1) return existing;
      existing.role = input.role;
      await this.memberships.update(existing.id, { role: input.role, updatedAt: this.clock.now() }, manager);
      return existing;
    });
  }

  private async mutate(organizationId: string, userId: string, change: (membership: Membership, manager: EntityManager) => Promise<void>): Promise<MemberResponse> {
    return this.dataSource.transaction(async (manager) => {
      const membership = await this.lockMembership(organizationId, userId, manager);
      await change(membership, manager);
      const user = await this.users.findById(userId, manager);
      if (!user) throw membersError(MembersErrorCode.NotFound, 'No such member in this organization.');
      return toMemberResponse(membership, user);
    });
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
