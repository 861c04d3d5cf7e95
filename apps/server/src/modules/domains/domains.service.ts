import { Injectable, Logger } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { DOMAIN_VERIFICATION_PREFIX, type DomainResponse, type SignInByEmailResponse, type SignInDestination } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { randomToken } from '../../common/crypto/tokens';
import { isUniqueViolation } from '../../database/db-errors';
import { UnitOfWork } from '../../database/unit-of-work';
import type { Principal } from '../access/principal';
import { AuditService } from '../audit/audit.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { SsoProvidersService } from '../sso/sso-providers.service';
import { DnsTxtLookup } from './dns-txt';
import { DomainsConfig } from './domains.config';
import { DomainsErrorCode, domainsError } from './domains.errors';
import { DomainsRepository } from './domains.repository';
import { VerifiedDomain } from './verified-domain.entity';

/** Domains one background pass checks at most (the rest wait for the next pass, an hour later). */
const RECHECK_BATCH = 500;

@Injectable()
export class DomainsService {
  private readonly logger = new Logger('Domains');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly domains: DomainsRepository,
    private readonly dns: DnsTxtLookup,
    private readonly config: DomainsConfig,
    private readonly audit: AuditService,
    private readonly organizations: OrganizationsService,
    private readonly providers: SsoProvidersService,
    private readonly clock: Clock,
  ) {}

  async list(organizationId: string): Promise<DomainResponse[]> {
    return (await this.domains.list(organizationId)).map(toResponse);
  }

  /** Adds a domain in state `pending` with a new verification token (409 domain_exists when already added). */
  async add(organizationId: string, domain: string, actor: Principal): Promise<DomainResponse> {
    const entity = Object.assign(new VerifiedDomain(), {
      id: randomUUID(),
      organizationId,
      domain,
      token: randomToken(24),
      state: 'pending' as const,
      verifiedAt: null,
      lastCheckedAt: null,
      lastError: null,
      createdAt: this.clock.now(),
    });
    try {
      await this.unitOfWork.run(async () => {
        if (await this.domains.findByDomain(organizationId, domain)) throw alreadyAdded(domain);
        await this.domains.insert(entity);
        await this.audit.record({ organizationId, actor, action: 'domain.added', target: target(entity), after: { domain, state: 'pending' } });
      });
    } catch (error) {
      throw isUniqueViolation(error) ? alreadyAdded(domain) : error;
    }
    return toResponse(entity);
  }

  /** Looks the TXT record up now and stores the outcome as the domain's state (audited when the state changes). */
  async verify(organizationId: string, id: string, actor: Principal): Promise<DomainResponse> {
    const domain = await this.require(organizationId, id);
    const before = domain.state;
    await this.check(domain);
    if (domain.state !== before) {
      await this.audit.record({
        organizationId,
        actor,
        action: domain.state === 'verified' ? 'domain.verified' : 'domain.verification_failed',
        target: target(domain),
        before: { state: before },
        after: { state: domain.state, ...(domain.lastError ? { reason: domain.lastError } : {}) },
      });
    }
    return toResponse(domain);
  }

  async remove(organizationId: string, id: string, actor: Principal): Promise<void> {
    await this.unitOfWork.run(async () => {
      const domain = await this.require(organizationId, id);
      await this.domains.delete(domain.id);
      await this.audit.record({ organizationId, actor, action: 'domain.removed', target: target(domain), before: { domain: domain.domain, state: domain.state } });
    });
  }

  /**
   * The background re-check: every domain whose last check is older than SERVICE_DOMAIN_RECHECK_AGE (a day) is looked
   * up again. A record gone turns a verified domain `failed` (it stops routing); a pending one whose record appeared
   * becomes verified. A resolver that cannot answer changes no state (only lastError), so a DNS outage does not
   * unverify every domain. Instances share the work: each domain is claimed by one (DomainsRepository.claimCheck).
   */
  async recheckDue(): Promise<number> {
    const now = this.clock.now();
    const due = new Date(now.getTime() - this.config.recheckAgeMs);
    let checked = 0;
    for (const domain of await this.domains.listDue(due, RECHECK_BATCH)) {
      if (!(await this.domains.claimCheck(domain.id, due, now))) continue;
      const before = domain.state;
      await this.check(domain);
      if (domain.state !== before) this.logger.warn(`Domain ${domain.domain} of ${domain.organizationId}: ${before} → ${domain.state}${domain.lastError ? ` (${domain.lastError})` : ''}`);
      checked++;
    }
    return checked;
  }

  /**
   * Where the email's domain leads: the organizations that verified exactly that domain and have an enabled SSO
   * provider, with those providers. It never looks at users, so the answer (and its timing) is the same whether or not
   * the address has an account.
   */
  async routeEmail(email: string): Promise<SignInByEmailResponse> {
    const domain = email.trim().toLowerCase().split('@').pop() ?? '';
    const destinations: SignInDestination[] = [];
    for (const organizationId of await this.domains.verifiedOrganizations(domain)) {
      const [organization, providers] = await Promise.all([this.organizations.find(organizationId), this.providers.listPublic(organizationId)]);
      if (!organization || providers.length === 0) continue;
      destinations.push({ organizationId, organizationName: organization.name, signInPath: `/orgs/${encodeURIComponent(organizationId)}/sign-in`, providers });
    }
    return { destinations };
  }

  private async check(domain: VerifiedDomain): Promise<void> {
    const expected = `${DOMAIN_VERIFICATION_PREFIX}${domain.token}`;
    const result = await this.dns.lookup(domain.domain);
    const now = this.clock.now();
    domain.lastCheckedAt = now;
    if (result.status === 'found' && result.records.some((record) => record.trim() === expected)) {
      domain.state = 'verified';
      domain.verifiedAt ??= now;
      domain.lastError = null;
    } else if (result.status === 'unavailable') {
      domain.lastError = result.reason;
    } else {
      domain.state = 'failed';
      domain.lastError = result.status === 'missing' ? `${result.reason} Publish the TXT record "${expected}".` : `No TXT record of ${domain.domain} is "${expected}".`;
    }
    if (domain.state !== 'verified') domain.verifiedAt = null;
    await this.domains.update(domain.id, { state: domain.state, verifiedAt: domain.verifiedAt, lastCheckedAt: now, lastError: domain.lastError });
  }

  private async require(organizationId: string, id: string): Promise<VerifiedDomain> {
    const domain = isUUID(id) ? await this.domains.find(organizationId, id) : null;
    if (!domain) throw domainsError(DomainsErrorCode.NotFound, 'No domain with this id exists in this organization.');
    return domain;
  }
}

function alreadyAdded(domain: string) {
  return domainsError(DomainsErrorCode.AlreadyAdded, `${domain} is already added to this organization.`, [{ path: 'domain', message: 'domain is already added' }]);
}

function target(domain: VerifiedDomain) {
  return { type: 'domain' as const, id: domain.id, label: domain.domain };
}

function toResponse(domain: VerifiedDomain): DomainResponse {
  return {
    id: domain.id,
    domain: domain.domain,
    state: domain.state,
    txtRecord: `${DOMAIN_VERIFICATION_PREFIX}${domain.token}`,
    verifiedAt: domain.verifiedAt?.toISOString() ?? null,
    lastCheckedAt: domain.lastCheckedAt?.toISOString() ?? null,
    lastError: domain.lastError,
    createdAt: domain.createdAt.toISOString(),
  };
}
