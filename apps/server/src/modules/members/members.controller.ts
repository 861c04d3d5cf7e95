import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AddMemberRequest, ApiTokenResponse, MemberResponse, UpdateMemberRequest, type ListPage } from '@sc/contracts';
import { ListPagePipe, TIME_ID_CURSOR, type PageRequest, type TimeIdPosition } from '../../common/http/paging';
import { CurrentPrincipal, OrgAccess, OrgPagedList } from '../access/decorators';
import type { Principal } from '../access/principal';
import { MembersService } from './members.service';

@ApiTags('members')
@Controller('orgs/:orgId/members')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @OrgPagedList('viewer', 'Oldest member first')
  list(@Param('orgId') orgId: string, @Query(new ListPagePipe(TIME_ID_CURSOR)) page: PageRequest<TimeIdPosition>): Promise<ListPage<MemberResponse>> {
    return this.members.listPage(orgId, page);
  }

  /** The API tokens that removing or disabling this member revokes (listed in the confirmation dialog). */
  @Get(':userId/tokens')
  @OrgAccess('admin')
  tokens(@Param('orgId') orgId: string, @Param('userId') userId: string): Promise<ApiTokenResponse[]> {
    return this.members.tokensRevokedWithMember(orgId, userId);
  }

  @Post()
  @OrgAccess('admin')
  add(@Param('orgId') orgId: string, @Body() body: AddMemberRequest, @CurrentPrincipal() principal: Principal): Promise<MemberResponse> {
    return this.members.add(orgId, principal, body);
  }

  /** Changes the role and/or the disabled flag. */
  @Patch(':userId')
  @OrgAccess('admin')
  async update(
    @Param('orgId') orgId: string,
    @Param('userId') userId: string,
    @Body() body: UpdateMemberRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<MemberResponse> {
    let member: MemberResponse | undefined;
    if (body.role !== undefined) member = await this.members.changeRole(orgId, principal, userId, body.role);
    if (body.disabled !== undefined) member = await this.members.setDisabled(orgId, principal, userId, body.disabled);
    return member ?? this.members.get(orgId, userId);
  }

  @Post(':userId/disable')
  @HttpCode(200)
  @OrgAccess('admin')
  disable(@Param('orgId') orgId: string, @Param('userId') userId: string, @CurrentPrincipal() principal: Principal): Promise<MemberResponse> {
    return this.members.setDisabled(orgId, principal, userId, true);
  }

  @Post(':userId/enable')
  @HttpCode(200)
  @OrgAccess('admin')
  enable(@Param('orgId') orgId: string, @Param('userId') userId: string, @CurrentPrincipal() principal: Principal): Promise<MemberResponse> {
    return this.members.setDisabled(orgId, principal, userId, false);
  }

  @Delete(':userId')
  @HttpCode(204)
  @OrgAccess('admin')
  async remove(@Param('orgId') orgId: string, @Param('userId') userId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.members.remove(orgId, principal, userId);
  }

}
