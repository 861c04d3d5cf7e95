import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CreateOrganizationRequest, OrganizationResponse } from '@sc/contracts';
import { Authenticated, CurrentPrincipal, OrgAccess } from '../auth/decorators';
import type { SessionPrincipal } from '../auth/principal';
import { OrganizationsService } from './organizations.service';

@ApiTags('organizations')
@Controller('orgs')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Post()
  @Authenticated({ sessionOnly: true })
  create(@Body() body: CreateOrganizationRequest, @CurrentPrincipal() principal: SessionPrincipal): Promise<OrganizationResponse> {
    return this.organizations.createByUser(principal, body);
  }

  @Get(':orgId')
  @OrgAccess('viewer')
  get(@Param('orgId') orgId: string): Promise<OrganizationResponse> {
    return this.organizations.get(orgId);
  }
}
