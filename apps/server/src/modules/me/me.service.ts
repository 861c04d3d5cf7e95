import { Injectable } from '@nestjs/common';
import type { MeResponse } from '@sc/contracts';
import type { Principal } from '../access/principal';
import { OrganizationsService } from '../organizations/organizations.service';
import { SessionsService } from '../sessions/sessions.service';
import { displayNameOf } from '../users/users.service';
import { UsersService } from '../users/users.service';

@Injectable()
export class MeService {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
  ) {}

  /**
   * The caller in its one organization. The person's other memberships are not listed: any owner of this
   * organization can sign the person in here (a sign-in link, their own identity provider), so what this
   * session may read about the person must be no more than this organization already knows. For a session,
   * `csrfToken` is the session's token; the controller (re)sets the cookie to it.
   */
  async describe(principal: Principal): Promise<MeResponse> {
    const organization = await this.organizations.get(principal.organizationId);
    if (principal.kind === 'token') {
      return { kind: 'token', organization, user: null, role: null, scopes: principal.scopes, csrfToken: null };
    }
    const user = await this.users.findById(principal.userId);
    return {
      kind: 'session',
      organization,
      user: user ? { id: user.id, email: user.email, displayName: displayNameOf(user) } : null,
      role: principal.role,
      scopes: null,
      csrfToken: this.sessions.csrfTokenFor(principal.sessionId),
    };
  }
}
