import { Injectable } from '@nestjs/common';
import type { CreateOrganizationRequest, OrganizationResponse } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { isUniqueViolation } from '../../database/db-errors';
import { AuditService, type AuditActorInput } from '../audit/audit.service';
import type { SessionPrincipal } from '../access/principal';
import { MembersService } from '../members/members.service';
import { UsersService } from '../users/users.service';
import { Organization } from './organization.entity';
import { OrganizationsErrorCode, organizationsError } from './organizations.errors';
import { OrganizationsRepository } from './organizations.repository';
import { UnitOfWork } from '../../database/unit-of-work';

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationsRepository,
    private readonly members: MembersService,
    private readonly users: UsersService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /** The organization, or null when none has this id (public pages that answer their own error). */
  async find(id: string): Promise<OrganizationResponse | null> {
    const organization = await this.organizations.findById(id);
    return organization ? toOrganizationResponse(organization) : null;
  }

  /** Whether members may sign in only through SSO (false for an organization that does not exist). */
  async requiresSso(id: string): Promise<boolean> {
    return (await this.organizations.findById(id))?.requireSso === true;
  }

  /** Stores the Require SSO setting; the caller checked the preconditions and records the audit entry. */
  async setRequireSso(id: string, requireSso: boolean): Promise<void> {
    await this.organizations.setRequireSso(id, requireSso);
  }

  /** False until first-run setup created the first organization. */
  anyExists(): Promise<boolean> {
    return this.organizations.anyExists();
  }

  async get(id: string): Promise<OrganizationResponse> {
    const organization = await this.organizations.findById(id);
    if (!organization) throw organizationsError(OrganizationsErrorCode.NotFound, `No organization "${id}" exists, or you have no access to it.`);
    return toOrganizationResponse(organization);
  }

  /**
   * The owner of the session's organization may create another; the creator becomes its owner. Only the
   * role proven in the session's own organization counts: owning some other organization was never proven
   * here (an owner of this organization can sign anyone in to it).
   */
  async createByOwner(creator: SessionPrincipal, input: CreateOrganizationRequest): Promise<OrganizationResponse> {
    if (creator.role !== 'owner') throw organizationsError(OrganizationsErrorCode.OwnerRequired, 'Only an owner of this organization can create another organization.');
    const organization = await this.unitOfWork.run(async () => {
      const created = await this.create(input, creator);
      const user = await this.users.findById(creator.userId);
      if (!user) throw organizationsError(OrganizationsErrorCode.OwnerRequired, 'Only an owner of this organization can create another organization.');
      await this.members.addOwner(created.id, user, creator);
      return created;
    });
    return toOrganizationResponse(organization);
  }

  /** Inserts the organization (and its first audit entry); 409 organization_exists when the id is taken. */
  async create(input: CreateOrganizationRequest, actor: AuditActorInput): Promise<Organization> {
    if (await this.organizations.findById(input.id)) {
      throw this.idTaken(input.id);
    }
    const organization = Object.assign(new Organization(), { id: input.id, name: input.name.trim(), createdAt: this.clock.now(), requireSso: false });
    try {
      await this.organizations.insert(organization);
    } catch (error) {
      // A concurrent request took the id between the check and the insert.
      if (isUniqueViolation(error)) throw this.idTaken(input.id);
      throw error;
    }
    await this.audit.record(
      { organizationId: organization.id, actor, action: 'organization.created', target: { type: 'organization', id: organization.id, label: organization.name }, after: { id: organization.id, name: organization.name } }
    );
    return organization;
  }

  private idTaken(id: string) {
    return organizationsError(OrganizationsErrorCode.AlreadyExists, `The organization id "${id}" is already taken.`, [{ path: 'id', message: 'id is already taken' }]);
  }
}

export function toOrganizationResponse(organization: Organization): OrganizationResponse {
  return { id: organization.id, name: organization.name, createdAt: organization.createdAt.toISOString() };
}
