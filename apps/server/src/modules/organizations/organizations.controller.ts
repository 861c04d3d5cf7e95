import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CreateOrganizationRequest, OrganizationResponse } from '@sc/contracts';
import { sessionCookieOf } from '../../common/http/cookies';
import { Authenticated, CurrentPrincipal, OrgAccess } from '../access/decorators';
import type { SessionPrincipal } from '../access/principal';
import { SessionCookies } from '../sessions/session-cookies';
import { SessionsService } from '../sessions/sessions.service';
import { OrganizationsService } from './organizations.service';

@ApiTags('organizations')
@Controller('orgs')
export class OrganizationsController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly sessions: SessionsService,
    private readonly cookies: SessionCookies,
  ) {}

  /**
   * Creates an organization owned by the caller and signs the browser in to it (replacing the current
   * session): creating it is proof enough for the new organization, and proves nothing about any other.
   */
  @Post()
  @Authenticated({ sessionOnly: true })
  async create(
    @Body() body: CreateOrganizationRequest,
    @CurrentPrincipal() principal: SessionPrincipal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<OrganizationResponse> {
    const organization = await this.organizations.createByOwner(principal, body);
    this.cookies.write(res, await this.sessions.startSession({ userId: principal.userId, organizationId: organization.id, replacing: sessionCookieOf(req) }));
    return organization;
  }

  @Get(':orgId')
  @OrgAccess('viewer')
  get(@Param('orgId') orgId: string): Promise<OrganizationResponse> {
    return this.organizations.get(orgId);
  }
}
