import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SsoErrorCode } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUniqueViolation } from '../../database/db-errors';
import { MembersService } from '../members/members.service';
import { UsersService } from '../users/users.service';
import type { SignInLookups, SignInPlan } from './domain/sign-in-decision';
import type { SsoProvider } from './entities/sso-provider.entity';
import { SsoIdentity } from './entities/sso-identity.entity';
import { ssoError } from './sso.errors';
import { SsoIdentitiesRepository } from './sso-identities.repository';

/**
 * What an SSO sign-in reads and writes about the person: finds the user, the membership and the identity links
 * the sign-in decision weighs, and applies a decided plan (user, identity link, SSO membership).
 */
@Injectable()
export class SsoIdentityLinker {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UsersService,
    private readonly members: MembersService,
    private readonly identities: SsoIdentitiesRepository,
    private readonly clock: Clock,
  ) {}

  async lookup(organizationId: string, providerId: string, email: string, subject: string): Promise<SignInLookups> {
    const user = await this.users.findByEmail(email);
    const [membership, linkBySubject, linkByUser] = await Promise.all([
      user ? this.members.findMembership(organizationId, user.id) : null,
      this.identities.findBySubject(providerId, subject),
      user ? this.identities.findByUser(providerId, user.id) : null,
    ]);
    return { user, membership, linkBySubject, linkByUser };
  }

  /**
   * Writes the sign-in: the user (created when sign-up allowed it) and the identity link in one unit of work,
   * re-checking the link under it; then the SSO membership. A concurrent first sign-in of the same person
   * loses a unique index race and simply runs again. It can lose two: the user (with its link) and then the
   * membership, which both sign-ins insert in their own units of work; after the second every row exists, so a
   * third run only reads.
   */
  async apply(organizationId: string, provider: Pick<SsoProvider, 'id' | 'slug' | 'displayName'>, plan: SignInPlan, clientAddress: string | null, attempt = 0): Promise<{ userId: string; role: string }> {
    const providerId = provider.id;
    try {
      // The name claim fills in a missing display name only for a person no other organization knows: this
      // provider speaks for this organization, not for the names other organizations show.
      const fillMissingName = !plan.user || (await this.members.belongsOnlyTo(organizationId, plan.user.id));
      const user = await this.unitOfWork.run(async () => {
        const { user } = await this.users.findOrCreate({ email: plan.email, displayName: plan.name, fillMissingName });
        const [bySubject, byUser] = await Promise.all([this.identities.findBySubject(providerId, plan.subject), this.identities.findByUser(providerId, user.id)]);
        if ((byUser && byUser.subject !== plan.subject) || (bySubject && bySubject.userId !== user.id)) {
          throw ssoError(SsoErrorCode.IdentityConflict, `The account ${plan.email} is already linked to a different identity at this provider; an administrator must resolve it (no account is taken over silently).`);
        }
        const now = this.clock.now();
        if (byUser) {
          await this.identities.touch(byUser.id, { email: plan.email, lastLoginAt: now });
        } else {
          const link = Object.assign(new SsoIdentity(), { id: randomUUID(), organizationId, providerId, userId: user.id, subject: plan.subject, email: plan.email, createdAt: now, lastLoginAt: now });
          await this.identities.insert(link);
        }
        return user;
      });
      if (!plan.applyRole && plan.membership) return { userId: user.id, role: plan.membership.role };
      const membership = await this.members.applySsoMembership({ organizationId, userId: user.id, role: plan.role, clientAddress, provider: { slug: provider.slug, name: provider.displayName } });
      return { userId: user.id, role: membership.role };
    } catch (error) {
      if (attempt < 2 && isUniqueViolation(error)) return this.apply(organizationId, provider, plan, clientAddress, attempt + 1);
      throw error;
    }
  }
}
