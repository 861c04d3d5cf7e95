import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { type AddMemberRequest, type ApiTokenResponse, type AuditAction, type ListPage, type MemberAddedBy, type MemberResponse, type MembershipSource, type Role } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { createdAtIdKey, pageFrom, type PageRequest, type TimeIdPosition } from '../../common/http/paging';
import { AuditService, type AuditActorInput, type ScimActor } from '../audit/audit.service';
import type { Principal } from '../access/principal';
import { SessionsService } from '../sessions/sessions.service';
import { TokensService } from '../tokens/tokens.service';
import type { User } from '../users/user.entity';
import { displayNameOf, UsersService } from '../users/users.service';
import { Membership } from './membership.entity';
import { MembersErrorCode, membersError } from './members.errors';
import { MembershipsRepository } from './memberships.repository';
import { UnitOfWork } from '../../database/unit-of-work';

/** A user who may act in an organization right now (see MembersService.activeMember). */
export interface ActiveMember {
  user: User;
  membership: Membership;
  role: Role;
}

@Injectable()
export class MembersService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly memberships: MembershipsRepository,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly tokens: TokensService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /**
   * The one definition of an active member: the user exists and is not disabled, and so is their membership in
   * this organization. Null otherwise (also for an id that is not a UUID). Every sign-in, every request (the
   * AuthGuard, for sessions and for the creator of an API token) and every sign-in link asks this.
   */
  async activeMember(organizationId: string, userId: string): Promise<ActiveMember | null> {
    if (!isUUID(userId)) return null;
    const [user, membership] = await Promise.all([this.users.findById(userId), this.memberships.find(organizationId, userId)]);
    return user && !user.disabled && membership && !membership.disabled ? { user, membership, role: membership.role } : null;
  }

  /** The user's membership in the organization as stored (disabled or not), for the SSO sign-in decision. */
  findMembership(organizationId: string, userId: string): Promise<Membership | null> {
    return this.memberships.find(organizationId, userId);
  }

  /** True when the user is a member of no organization other than this one. */
  async belongsOnlyTo(organizationId: string, userId: string): Promise<boolean> {
    return (await this.memberships.listForUser(userId)).every((membership) => membership.organizationId === organizationId);
  }

  async list(organizationId: string): Promise<MemberResponse[]> {
    return (await this.memberships.listWithUsers(organizationId)).map(({ membership, user }) => toMemberResponse(membership, user));
  }

  /** One page of the members, oldest membership first. */
  async listPage(organizationId: string, { limit, after }: PageRequest<TimeIdPosition>): Promise<ListPage<MemberResponse>> {
    const rows = await this.memberships.listWithUsers(organizationId, { limit: limit + 1, after });
    return pageFrom(rows, limit, ({ membership, user }) => toMemberResponse(membership, user), ({ membership }) => createdAtIdKey(membership));
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
    return this.unitOfWork.run(async () => {
      const { user } = await this.users.findOrCreate({ email: input.email, displayName: input.displayName });
      if (await this.memberships.find(organizationId, user.id)) {
        throw membersError(MembersErrorCode.AlreadyMember, `${user.email} is already a member of this organization.`);
      }
      const membership = await this.insertMembership(organizationId, user, input.role, 'manual', actor, await this.addedByPrincipal(actor));
      return toMemberResponse(membership, user);
    });
  }

  async changeRole(organizationId: string, actor: Principal, userId: string, role: Role): Promise<MemberResponse> {
    return this.mutate(organizationId, userId, async (membership, user) => {
      if (membership.role === role) return;
      this.requireOwnerForOwnerRole(actor, membership.role === 'owner' ? 'owner' : role);
      if (membership.role === 'owner') await this.protectLastOwner(organizationId, membership, 'demote');
      const before = membership.role;
      membership.role = role;
      await this.memberships.update(membership.id, { role, updatedAt: this.clock.now() });
      await this.record(organizationId, actor, 'member.role_changed', user, { role: before }, { role });
    });
  }

  async setDisabled(organizationId: string, actor: Principal | ScimActor, userId: string, disabled: boolean): Promise<MemberResponse> {
    return this.mutate(organizationId, userId, async (membership, user) => {
      if (membership.disabled === disabled) return;
      this.requireOwnerForOwnerRole(actor, membership.role);
      if (disabled && membership.role === 'owner') await this.protectLastOwner(organizationId, membership, 'disable');
      membership.disabled = disabled;
      await this.memberships.update(membership.id, { disabled, updatedAt: this.clock.now() });
      await this.record(organizationId, actor, disabled ? 'member.disabled' : 'member.enabled', user, { disabled: !disabled }, { disabled });
      if (disabled) {
        // A disabled member is refused on every request anyway; deleting the sessions also frees the rows.
        await this.sessions.endAllOfMember(organizationId, userId);
        // Their tokens must not outlive their access; enabling the member again does not restore them.
        await this.tokens.revokeCreatedBy(organizationId, userId, actor, 'creator_disabled');
      }
    });
  }

  async remove(organizationId: string, actor: Principal | ScimActor, userId: string): Promise<void> {
    await this.mutate(organizationId, userId, async (membership, user) => {
      this.requireOwnerForOwnerRole(actor, membership.role);
      if (membership.role === 'owner') await this.protectLastOwner(organizationId, membership, 'remove');
      await this.memberships.delete(membership.id);
      await this.record(organizationId, actor, 'member.removed', user, membershipFields(membership), null);
      await this.sessions.endAllOfMember(organizationId, userId);
      await this.tokens.revokeCreatedBy(organizationId, userId, actor, 'creator_removed');
    });
  }

  /** Creates an owner membership (first-run setup, creating another organization). */
  async addOwner(organizationId: string, user: User, actor: AuditActorInput): Promise<Membership> {
    return this.insertMembership(organizationId, user, 'owner', 'manual', actor, { kind: actor.kind === 'setup' ? 'setup' : 'organization' });
  }

  /**
   * For the SSO callback: creates the user's SSO membership with `role`, or sets `role` on an existing
   * SSO membership. A manual membership keeps its role (an admin chose it), and the last active owner is
   * never demoted by a login. Returns the membership as stored; the caller refuses disabled ones.
   */
  async applySsoMembership(input: { organizationId: string; userId: string; role: Role; clientAddress?: string | null; provider?: { slug: string; name: string } }): Promise<Membership> {
    // The sign-in changes the signing-in user's own membership: the audit log names them, acting through SSO.
    const actor: AuditActorInput = { kind: 'sso', userId: input.userId, clientAddress: input.clientAddress ?? null };
    const addedBy: MemberAddedBy = { kind: 'sso', providerSlug: input.provider?.slug ?? null, providerName: input.provider?.name ?? null };
    return this.applyIdentityProviderMembership(input, actor, addedBy);
  }

  /**
   * For SCIM provisioning: the same rules as applySsoMembership (an identity provider manages memberships of source
   * `sso` only; manual ones keep their role; the last active owner is never demoted), acted by the SCIM token.
   */
  async applyScimMembership(input: { organizationId: string; userId: string; role: Role; actor: ScimActor }): Promise<Membership> {
    return this.applyIdentityProviderMembership(input, input.actor, { kind: 'scim', tokenId: input.actor.tokenId, tokenName: input.actor.tokenName });
  }

  private async applyIdentityProviderMembership(input: { organizationId: string; userId: string; role: Role }, actor: AuditActorInput, addedBy: MemberAddedBy): Promise<Membership> {
    return this.unitOfWork.run(async () => {
      const existing = await this.memberships.findForUpdate(input.organizationId, input.userId);
      const user = await this.users.findById(input.userId);
      if (!user) throw membersError(MembersErrorCode.NotFound, 'No such user.');
      if (!existing) return this.insertMembership(input.organizationId, user, input.role, 'sso', actor, addedBy);
      if (existing.source !== 'sso' || existing.role === input.role) return existing;
      if (existing.role === 'owner' && !existing.disabled && (await this.memberships.countActiveOwnersLocked(input.organizationId)) <= 1) return existing;
      const before = existing.role;
      existing.role = input.role;
      await this.memberships.update(existing.id, { role: input.role, updatedAt: this.clock.now() });
      await this.record(input.organizationId, actor, 'member.role_changed', user, { role: before }, { role: input.role });
      return existing;
    });
  }

  private async mutate(organizationId: string, userId: string, change: (membership: Membership, user: User) => Promise<void>): Promise<MemberResponse> {
    return this.unitOfWork.run(async () => {
      const membership = await this.lockMembership(organizationId, userId);
      const user = await this.users.findById(userId);
      if (!user) throw membersError(MembersErrorCode.NotFound, 'No such member in this organization.');
      await change(membership, user);
      return toMemberResponse(membership, user);
    });
  }

  private async insertMembership(organizationId: string, user: User, role: Role, source: MembershipSource, actor: AuditActorInput, addedBy: MemberAddedBy): Promise<Membership> {
    const membership = this.newMembership(organizationId, user.id, role, source, addedBy);
    await this.memberships.insert(membership);
    await this.record(organizationId, actor, 'member.added', user, null, membershipFields(membership));
    return membership;
  }

  private record(
    organizationId: string,
    actor: AuditActorInput,
    action: AuditAction,
    user: User,
    before: Record<string, unknown> | null,
    after: Record<string, unknown> | null,
  ): Promise<void> {
    return this.audit.record({ organizationId, actor, action, target: { type: 'member', id: user.id, label: user.email }, before, after });
  }

  private async lockMembership(organizationId: string, userId: string): Promise<Membership> {
    const membership = isUUID(userId) ? await this.memberships.findForUpdate(organizationId, userId) : null;
    if (!membership) throw membersError(MembersErrorCode.NotFound, 'No such member in this organization.');
    return membership;
  }

  /**
   * Owners are managed by owners only; admins manage admins, editors and viewers. A SCIM token acts for the owner
   * who created it (it works only while that member is an active owner), so it may deprovision an owner too.
   */
  private requireOwnerForOwnerRole(actor: Principal | ScimActor, role: Role): void {
    if (role === 'owner' && !(actor.kind === 'session' && actor.role === 'owner') && actor.kind !== 'scim') {
      throw membersError(MembersErrorCode.OwnerRoleRequired, 'Only an owner can grant the owner role or change an owner.');
    }
  }

  private async protectLastOwner(organizationId: string, membership: Membership, action: 'demote' | 'disable' | 'remove'): Promise<void> {
    if (membership.disabled) return;
    const activeOwners = await this.memberships.countActiveOwnersLocked(organizationId);
    if (activeOwners <= 1) {
      throw membersError(MembersErrorCode.LastOwner, `Cannot ${action} the last active owner; make another member an owner first.`);
    }
  }

  private newMembership(organizationId: string, userId: string, role: Role, source: MembershipSource, addedBy: MemberAddedBy): Membership {
    const now = this.clock.now();
    return Object.assign(new Membership(), { id: randomUUID(), organizationId, userId, role, source, addedBy, disabled: false, createdAt: now, updatedAt: now });
  }

  /** "Added by" of a member added through the API: the signed-in member, or the token with its creator. */
  private async addedByPrincipal(actor: Principal): Promise<MemberAddedBy> {
    if (actor.kind === 'token') {
      return { kind: 'token', tokenId: actor.tokenId, tokenName: actor.tokenName, tokenPrefix: actor.tokenPrefix, userId: actor.createdByUserId, email: actor.creatorEmail };
    }
    return { kind: 'member', userId: actor.userId, email: (await this.users.findById(actor.userId))?.email ?? null };
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
    addedBy: membership.addedBy,
    createdAt: membership.createdAt.toISOString(),
  };
}
