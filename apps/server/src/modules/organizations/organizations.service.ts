import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { CreateOrganizationRequest, OrganizationResponse } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { isUniqueViolation } from '../../database/db-errors';
import { AuditService, type AuditActorInput } from '../audit/audit.service';
import type { SessionPrincipal } from '../auth/principal';
import { MembersService } from '../members/members.service';
import { MembershipsRepository } from '../members/memberships.repository';
import { UsersService } from '../users/users.service';
import { Organization } from './organization.entity';
import { OrganizationsErrorCode, organizationsError } from './organizations.errors';
import { OrganizationsRepository } from './organizations.repository';

@Injectable()
export class OrganizationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsRepository,
    private readonly memberships: MembershipsRepository,
    private readonly members: MembersService,
    private readonly users: UsersService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  async get(id: string): Promise<OrganizationResponse> {
    const organization = await this.organizations.findById(id);
    if (!organization) throw organizationsError(OrganizationsErrorCode.NotFound, `No organization "${id}" exists, or you have no access to it.`);
    return toOrganizationResponse(organization);
  }

  /** An owner of any organization may create another; the creator becomes its owner. */
  async createByUser(actor: SessionPrincipal, input: CreateOrganizationRequest): Promise<OrganizationResponse> {
    const ownsOne = (await this.memberships.listForUser(actor.userId)).some((membership) => membership.role === 'owner' && !membership.disabled);
    if (!ownsOne) throw organizationsError(OrganizationsErrorCode.OwnerRequired, 'Only an owner of an organization can create another organization.');
    const organization = await this.dataSource.transaction(async (manager) => {
      const created = await this.create(input, actor, manager);
      const user = await this.users.findById(actor.userId, manager);
      if (!user) throw organizationsError(OrganizationsErrorCode.OwnerRequired, 'Only an owner of an organization can create another organization.');
      await this.members.addOwner(created.id, user, actor, manager);
      return created;
    });
    return toOrganizationResponse(organization);
  }

  /** Inserts the organization (and its first audit entry); 409 organization_exists when the id is taken. */
  async create(input: CreateOrganizationRequest, actor: AuditActorInput, manager: EntityManager): Promise<Organization> {
    if (await this.organizations.findById(input.id, manager)) {
      throw this.idTaken(input.id);
    }
    const organization = Object.assign(new Organization(), { id: input.id, name: input.name.trim(), createdAt: this.clock.now() });
    try {
      await this.organizations.insert(organization, manager);
    } catch (error) {
      // A concurrent request took the id between the check and the insert.
      if (isUniqueViolation(error)) throw this.idTaken(input.id);
      throw error;
    }
    await this.audit.record(
      { organizationId: organization.id, actor, action: 'organization.created', target: { type: 'organization', id: organization.id, label: organization.name }, after: { id: organization.id, name: organization.name } },
      manager,
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
