import { Injectable } from '@nestjs/common';
import { SSO_DEFAULT_ROLE, type Role } from '@sc/contracts';
import type { ScimActor } from '../audit/audit.service';
import { MembersService } from '../members/members.service';
import { evaluateClaimRules } from '../sso/domain/claims';
import { SsoProvidersService } from '../sso/sso-providers.service';
import { ScimResourcesRepository } from './scim-resources.repository';
import type { ScimGroup, ScimUser } from './scim.entities';

/**
 * Roles from SCIM groups through the organization's existing group→role rules: the claim rules of its enabled SSO
 * providers (in the providers' order), evaluated on the claims `{ email, groups }` where `groups` lists each group's
 * displayName and externalId (Entra ID's group object id), so a rule written for the sign-in's `groups` claim
 * (names or ids) gives the same role here. The first matching rule decides; without one, the first enabled provider's
 * default role (viewer without providers). Applied as an SSO sign-in applies it (MembersService.applyScimMembership):
 * only memberships an identity provider created change, never a manual one, never the last owner.
 */
@Injectable()
export class ScimRolesService {
  constructor(
    private readonly providers: SsoProvidersService,
    private readonly members: MembersService,
    private readonly resources: ScimResourcesRepository,
  ) {}

  async roleFor(organizationId: string, email: string, groups: ScimGroup[]): Promise<Role> {
    const enabled = (await this.providers.list(organizationId)).filter((provider) => provider.enabled);
    const claims = { email, groups: groups.flatMap((group) => [group.displayName, ...(group.externalId ? [group.externalId] : [])]) };
    for (const provider of enabled) {
      const { selected } = evaluateClaimRules(provider.claimRules, claims);
      if (selected) return selected.role;
    }
    return enabled[0]?.defaultRole ?? SSO_DEFAULT_ROLE;
  }

  /** Recomputes the role of each provisioned user who is (still) a member, after their groups changed. */
  async apply(organizationId: string, actor: ScimActor, users: ScimUser[]): Promise<void> {
    for (const user of users) {
      if (!(await this.members.findMembership(organizationId, user.userId))) continue;
      const role = await this.roleFor(organizationId, user.userName, await this.resources.groupsOfUser(organizationId, user.id));
      await this.members.applyScimMembership({ organizationId, userId: user.userId, role, actor });
    }
  }
}
