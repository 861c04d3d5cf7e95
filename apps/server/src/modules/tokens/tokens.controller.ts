import { Body, Controller, Delete, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiTokenResponse, CreateApiTokenRequest, CreatedApiTokenResponse, type ListPage } from '@sc/contracts';
import { ListPagePipe, TIME_ID_CURSOR, type PageRequest, type TimeIdPosition } from '../../common/http/paging';
import { CurrentPrincipal, OrgAccess, OrgPagedList } from '../access/decorators';
import type { Principal } from '../access/principal';
import { TokensService } from './tokens.service';

@ApiTags('tokens')
@Controller('orgs/:orgId/tokens')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @OrgPagedList('admin', 'Newest first')
  list(@Param('orgId') orgId: string, @Query(new ListPagePipe(TIME_ID_CURSOR)) page: PageRequest<TimeIdPosition>): Promise<ListPage<ApiTokenResponse>> {
    return this.tokens.list(orgId, page);
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
