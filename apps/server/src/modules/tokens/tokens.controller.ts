import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiTokenResponse, CreateApiTokenRequest, CreatedApiTokenResponse, ListPageQuery } from '@sc/contracts';
import type { Request, Response } from 'express';
import { pageItems } from '../../common/http/paging';
import { CurrentPrincipal, OrgAccess } from '../access/decorators';
import type { Principal } from '../access/principal';
import { TokensService } from './tokens.service';

@ApiTags('tokens')
@Controller('orgs/:orgId/tokens')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Get()
  @OrgAccess('admin')
  async list(@Param('orgId') orgId: string, @Query() query: ListPageQuery, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<ApiTokenResponse[]> {
    return pageItems(req, res, query, await this.tokens.list(orgId, query));
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
