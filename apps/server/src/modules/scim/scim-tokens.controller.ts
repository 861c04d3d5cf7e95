import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CreateScimTokenRequest, scimBaseUrl, type CreatedScimTokenResponse, type ScimConfigResponse, type ScimTokenResponse } from '@sc/contracts';
import { AppConfig } from '../../config/app-config';
import { CurrentPrincipal, OrgAccess } from '../access/decorators';
import type { Principal } from '../access/principal';
import { ScimTokensService } from './scim-tokens.service';

/** SCIM tokens: owners only (a token provisions and deprovisions members, owners included). */
@ApiTags('scim')
@Controller('orgs/:orgId')
export class ScimTokensController {
  constructor(
    private readonly tokens: ScimTokensService,
    private readonly config: AppConfig,
  ) {}

  @Get('scim-config')
  @OrgAccess('owner')
  scimConfig(@Param('orgId') orgId: string): ScimConfigResponse {
    return { baseUrl: scimBaseUrl(this.config.publicUrl, orgId) };
  }

  @Get('scim-tokens')
  @OrgAccess('owner')
  list(@Param('orgId') orgId: string): Promise<ScimTokenResponse[]> {
    return this.tokens.list(orgId);
  }

  @Post('scim-tokens')
  @OrgAccess('owner')
  create(@Param('orgId') orgId: string, @Body() body: CreateScimTokenRequest, @CurrentPrincipal() principal: Principal): Promise<CreatedScimTokenResponse> {
    return this.tokens.create(orgId, body.name, principal);
  }

  @Delete('scim-tokens/:tokenId')
  @OrgAccess('owner')
  revoke(@Param('orgId') orgId: string, @Param('tokenId') tokenId: string, @CurrentPrincipal() principal: Principal): Promise<ScimTokenResponse> {
    return this.tokens.revoke(orgId, tokenId, principal);
  }
}
