import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiTokenResponse, CreateApiTokenRequest, CreatedApiTokenResponse } from '@sc/contracts';
import { CurrentPrincipal, OrgAccess } from '../access/decorators';
import type { Principal } from '../access/principal';
import { TokensService } from './tokens.service';

@ApiTags('tokens')
@Controller('orgs/:orgId/tokens')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Get()
  @OrgAccess('admin')
  list(@Param('orgId') orgId: string): Promise<ApiTokenResponse[]> {
    return this.tokens.list(orgId);
  }

  @Post()
  @OrgAccess('admin')
  create(@Param('orgId') orgId: string, @Body() body: CreateApiTokenRequest, @CurrentPrincipal() principal: Principal): Promise<CreatedApiTokenResponse> {
    return this.tokens.create({
      organizationId: orgId,
      name: body.name,
      scopes: body.scopes,
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
      actor: principal,
    });
  }

  @Delete(':tokenId')
  @OrgAccess('admin')
  revoke(@Param('orgId') orgId: string, @Param('tokenId') tokenId: string, @CurrentPrincipal() principal: Principal): Promise<ApiTokenResponse> {
    return this.tokens.revoke(orgId, tokenId, principal);
  }

  @Post(':tokenId/revoke')
  @HttpCode(200)
  @OrgAccess('admin')
  revokeByPost(@Param('orgId') orgId: string, @Param('tokenId') tokenId: string, @CurrentPrincipal() principal: Principal): Promise<ApiTokenResponse> {
    return this.tokens.revoke(orgId, tokenId, principal);
  }
}
