import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AddDomainRequest, SignInByEmailRequest, type DomainResponse, type SignInByEmailResponse } from '@sc/contracts';
import { CurrentPrincipal, OrgAccess, Public } from '../access/decorators';
import type { Principal } from '../access/principal';
import { AuthRateLimit } from '../access/rate-limit';
import { DomainsService } from './domains.service';

@ApiTags('domains')
@Controller()
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Get('orgs/:orgId/domains')
  @OrgAccess('admin')
  list(@Param('orgId') orgId: string): Promise<DomainResponse[]> {
    return this.domains.list(orgId);
  }

  @Post('orgs/:orgId/domains')
  @OrgAccess('owner')
  add(@Param('orgId') orgId: string, @Body() body: AddDomainRequest, @CurrentPrincipal() principal: Principal): Promise<DomainResponse> {
    return this.domains.add(orgId, body.domain, principal);
  }

  @Post('orgs/:orgId/domains/:domainId/verify')
  @HttpCode(200)
  @OrgAccess('owner')
  verify(@Param('orgId') orgId: string, @Param('domainId') domainId: string, @CurrentPrincipal() principal: Principal): Promise<DomainResponse> {
    return this.domains.verify(orgId, domainId, principal);
  }

  @Delete('orgs/:orgId/domains/:domainId')
  @HttpCode(204)
  @OrgAccess('owner')
  async remove(@Param('orgId') orgId: string, @Param('domainId') domainId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.domains.remove(orgId, domainId, principal);
  }

  /** `/sign-in`: where a work email signs in. The same answer shape for every address (no account enumeration). */
  @Post('auth/sign-in-by-email')
  @HttpCode(200)
  @Public()
  @AuthRateLimit()
  signInByEmail(@Body() body: SignInByEmailRequest): Promise<SignInByEmailResponse> {
    return this.domains.routeEmail(body.email);
  }
}
