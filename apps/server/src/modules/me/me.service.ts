import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { MeResponse } from '@sc/contracts';
import type { Principal } from '../auth/principal';
import { MembershipsRepository } from '../members/memberships.repository';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import { OrganizationsService } from '../organizations/organizations.service';
import { SessionsService } from '../sessions/sessions.service';
import { displayNameOf } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';

@Injectable()
export class MeService {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly organizationsRepository: OrganizationsRepository,
    private readonly users: UsersRepository,
    private readonly memberships: MembershipsRepository,
    private readonly sessions: SessionsService,
  ) {}

  async describe(principal: Principal, res: Response, csrfCookie: string | undefined): Promise<MeResponse> {
    const organization = await this.organizations.get(principal.organizationId);
    if (principal.kind === 'token') {
      return { kind: 'token', organization, user: null, role: null, scopes: principal.scopes, csrfToken: null, organizations: [] };
    }
    const user = await this.users.findById(principal.userId);
    const memberships = (await this.memberships.listForUser(principal.userId)).filter((membership) => !membership.disabled);
    const names = new Map((await this.organizationsRepository.findByIds(memberships.map((m) => m.organizationId))).map((o) => [o.id, o.name]));
    return {
      kind: 'session',
      organization,
      user: user ? { id: user.id, email: user.email, displayName: displayNameOf(user) } : null,
      role: principal.role,
      scopes: null,
      csrfToken: this.sessions.ensureCsrfCookie(res, principal.sessionId, csrfCookie),
      organizations: memberships
        .map((membership) => ({ id: membership.organizationId, name: names.get(membership.organizationId) ?? membership.organizationId, role: membership.role }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    };
  }
}
