import { Body, Controller, Delete, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CreateEmbedLinkRequest, EmbedLinksQuery, type CreatedEmbedLinkResponse, type EmbedLinkResponse } from '@sc/contracts';
import type { Request, Response } from 'express';
import { pageItems } from '../../common/http/paging';
import { CurrentPrincipal, OrgAccess } from '../access/decorators';
import type { Principal } from '../access/principal';
import { EmbedLinksService } from './embeds.service';

/** Embed links of the organization: admins create, list and revoke them (modules/embeds/README.md). */
@ApiTags('embed-links')
@Controller('orgs/:orgId/embed-links')
export class EmbedLinksController {
  constructor(private readonly embeds: EmbedLinksService) {}

  @Get()
  @OrgAccess('admin')
  async list(@Param('orgId') orgId: string, @Query() query: EmbedLinksQuery, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<EmbedLinkResponse[]> {
    return pageItems(req, res, query, await this.embeds.list(orgId, query));
  }

  @Post()
  @OrgAccess('admin')
  create(@Param('orgId') orgId: string, @Body() body: CreateEmbedLinkRequest, @CurrentPrincipal() principal: Principal): Promise<CreatedEmbedLinkResponse> {
    return this.embeds.create({
      organizationId: orgId,
      service: body.service,
      diagram: body.diagram ?? null,
      revision: body.revision ?? null,
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
      frameAncestors: body.frameAncestors ?? null,
      actor: principal,
    });
  }

  @Delete(':linkId')
  @OrgAccess('admin')
  revoke(@Param('orgId') orgId: string, @Param('linkId') linkId: string, @CurrentPrincipal() principal: Principal): Promise<EmbedLinkResponse> {
    return this.embeds.revoke(orgId, linkId, principal);
  }
}
