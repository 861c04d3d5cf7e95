import { Injectable } from '@nestjs/common';
import type { ErrorDetail, SsoSettingsResponse } from '@sc/contracts';
import { UnitOfWork } from '../../database/unit-of-work';
import type { Principal } from '../access/principal';
import { AuditService } from '../audit/audit.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { SessionsService } from '../sessions/sessions.service';
import { SsoErrorCode, ssoError } from './sso.errors';
import { SsoProvidersRepository } from './sso-providers.repository';

/**
 * Require SSO (issue 27 item 2): the organization setting and its preconditions. Where it is enforced: sign-in links
 * (SignInLinksService: only break-glass links of owners), the sessions ended when it is turned on (those that did not
 * start through SSO), and the last enabled provider (SsoProvidersService refuses to disable or delete it).
 */
@Injectable()
export class SsoRequirementService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationsService,
    private readonly sessions: SessionsService,
    private readonly providers: SsoProvidersRepository,
    private readonly audit: AuditService,
  ) {}

  async get(organizationId: string): Promise<SsoSettingsResponse> {
    return { requireSso: await this.organizations.requiresSso(organizationId) };
  }

  /**
   * Turning it on needs an enabled provider whose last test sign-in passed (so SSO is known to let people in) and
   * the owner's own session to have started through SSO (so the owner turning it on is not locked out at once);
   * then every session of the organization that did not start through SSO ends. Turning it off needs nothing.
   */
  async set(organizationId: string, requireSso: boolean, principal: Principal): Promise<SsoSettingsResponse> {
    if (principal.kind !== 'session') {
      throw ssoError(SsoErrorCode.SessionRequired, 'Require SSO is changed by an owner in a signed-in browser session, not with an API token.');
    }
    const current = await this.organizations.requiresSso(organizationId);
    if (current === requireSso) return { requireSso };
    if (requireSso) {
      const problems: ErrorDetail[] = [];
      const proven = (await this.providers.listEnabled(organizationId)).filter((provider) => provider.lastTestOk === true);
      if (proven.length === 0) {
        problems.push({ path: 'requireSso', message: 'No enabled provider has passed its last test sign-in: enable a provider and run its test sign-in first.' });
      }
      if (!(await this.sessions.startedViaSso(principal.sessionId))) {
        problems.push({ path: 'requireSso', message: 'You did not sign in through SSO in this session: sign out, sign in with one of the organization’s providers, then turn it on.' });
      }
      if (problems.length > 0) {
        // The details say what is missing, one each (the dashboard lists them under the message).
        throw ssoError(SsoErrorCode.SsoRequirementUnmet, `Require SSO cannot be turned on yet: ${problems.length === 1 ? 'one condition is' : 'two conditions are'} not met.`, problems);
      }
    }
    await this.unitOfWork.run(async () => {
      await this.organizations.setRequireSso(organizationId, requireSso);
      if (requireSso) await this.sessions.endAllNotViaSso(organizationId);
      await this.audit.record({
        organizationId,
        actor: principal,
        action: 'organization.sso_requirement_changed',
        target: { type: 'organization', id: organizationId },
        before: { requireSso: current },
        after: { requireSso },
      });
    });
    return { requireSso };
  }
}
