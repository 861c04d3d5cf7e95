import { Body, Controller, Delete, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CreateEmbedLinkRequest, EmbedLinksQuery, type CreatedEmbedLinkResponse, type EmbedLinkResponse, type ListPage } from '@sc/contracts';
import { ListPagePipe, TIME_ID_CURSOR, type FilterOf, type PageRequest, type TimeIdPosition } from '../../common/http/paging';
import { CurrentPrincipal, OrgAccess, OrgPagedList } from '../access/decorators';
import type { Principal } from '../access/principal';
import { EmbedLinksService } from './embeds.service';

/** Embed links of the organization: admins create, list and revoke them (modules/embeds/README.md). */
@ApiTags('embed-links')
@Controller('orgs/:orgId/embed-links')
export class EmbedLinksController {
  constructor(private readonly embeds: EmbedLinksService) {}

  @OrgPagedList('admin', 'Newest first')
  list(
    @Param('orgId') orgId: string,
    @Query(new ListPagePipe(TIME_ID_CURSOR, EmbedLinksQuery)) page: PageRequest<TimeIdPosition, FilterOf<EmbedLinksQuery>>,
  ): Promise<ListPage<EmbedLinkResponse>> {
    return this.embeds.list(orgId, page);
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
