import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  CreateSsoProviderRequest,
  SsoAuditQuery,
  type ListPage,
  type SsoAuditEntry,
  SsoDiscoveryRequest,
  SsoDiscoveryResponse,
  SsoProviderResponse,
  type SsoPublicUrlResponse,
  SsoSignInStatus,
  SsoTestStartResponse,
  StartSsoTestRequest,
  UpdateSsoProviderRequest,
  UpdateSsoSettingsRequest,
  type SsoSettingsResponse,
} from '@sc/contracts';
import { SsoRequirementService } from './sso-requirement.service';
import { ListPagePipe, TIME_ID_CURSOR, type FilterOf, type PageRequest, type TimeIdPosition } from '../../common/http/paging';
import { CurrentPrincipal, OrgAccess, OrgPagedList } from '../access/decorators';
import type { Principal } from '../access/principal';
import { signInRequest } from './sign-in-request';
import { SsoAuditService } from './sso-audit.service';
import { SsoBindingCookie } from './sso-binding-cookie';
import { SsoProvidersService } from './sso-providers.service';
import { SsoSignInService } from './sso-sign-in.service';

/** Organization settings → SSO: owners and admins only. */
@ApiTags('sso')
@Controller('orgs/:orgId/sso')
export class SsoAdminController {
  constructor(
    private readonly providers: SsoProvidersService,
    private readonly signIn: SsoSignInService,
    private readonly audit: SsoAuditService,
    private readonly binding: SsoBindingCookie,
    private readonly requirement: SsoRequirementService,
  ) {}

  @Get('settings')
  @OrgAccess('admin')
  settings(@Param('orgId') orgId: string): Promise<SsoSettingsResponse> {
    return this.requirement.get(orgId);
  }

  /** Owners only: Require SSO decides how everyone, owners included, gets in. */
  @Put('settings')
  @OrgAccess('owner')
  updateSettings(@Param('orgId') orgId: string, @Body() body: UpdateSsoSettingsRequest, @CurrentPrincipal() principal: Principal): Promise<SsoSettingsResponse> {
    return this.requirement.set(orgId, body.requireSso, principal);
  }

  @Get('providers')
  @OrgAccess('admin')
  list(@Param('orgId') orgId: string): Promise<SsoProviderResponse[]> {
    return this.providers.list(orgId);
  }

  /** Any member: the dashboard asks before signing out whether SSO has proven it can let people back in. */
  @Get('sign-in-status')
  @OrgAccess('viewer')
  signInStatus(@Param('orgId') orgId: string): Promise<SsoSignInStatus> {
    return this.providers.signInStatus(orgId);
  }

  @Post('providers')
  @OrgAccess('admin')
  create(@Param('orgId') orgId: string, @Body() body: CreateSsoProviderRequest, @CurrentPrincipal() principal: Principal): Promise<SsoProviderResponse> {
    return this.providers.create(orgId, body, principal);
  }

  @Get('providers/:slug')
  @OrgAccess('admin')
  get(@Param('orgId') orgId: string, @Param('slug') slug: string): Promise<SsoProviderResponse> {
    return this.providers.get(orgId, slug);
  }

  @Patch('providers/:slug')
  @OrgAccess('admin')
  update(@Param('orgId') orgId: string, @Param('slug') slug: string, @Body() body: UpdateSsoProviderRequest, @CurrentPrincipal() principal: Principal): Promise<SsoProviderResponse> {
    return this.providers.update(orgId, slug, body, principal);
  }

  @Delete('providers/:slug')
  @OrgAccess('admin')
  @HttpCode(204)
  async remove(@Param('orgId') orgId: string, @Param('slug') slug: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.providers.delete(orgId, slug, principal);
  }

  /** Starts a test sign-in: the admin's browser then navigates to `authorizationUrl`. */
  @Post('providers/:slug/test')
  @OrgAccess('admin')
  @HttpCode(200)
  async startTest(
    @Param('orgId') orgId: string,
    @Param('slug') slug: string,
    @Body() _body: StartSsoTestRequest,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SsoTestStartResponse> {
    const { binding, ...started } = await this.signIn.startTest(signInRequest(req, res, orgId, slug), principal);
    this.binding.set(res, binding);
    return started;
  }

  /** The address callback URLs start with, so a provider being created can show its own before it is saved. */
  @Get('public-url')
  @OrgAccess('admin')
  publicUrl(): SsoPublicUrlResponse {
    return this.providers.publicUrl();
  }

  @Post('discovery')
  @OrgAccess('admin')
  @HttpCode(200)
  discover(@Body() body: SsoDiscoveryRequest): Promise<SsoDiscoveryResponse> {
    return this.providers.discover(body.issuer);
  }

  @OrgPagedList('admin', 'Newest first', 'audit')
  auditLog(
    @Param('orgId') orgId: string,
    @Query(new ListPagePipe(TIME_ID_CURSOR, SsoAuditQuery)) page: PageRequest<TimeIdPosition, FilterOf<SsoAuditQuery>>,
  ): Promise<ListPage<SsoAuditEntry>> {
    return this.audit.page(orgId, page);
  }
}
