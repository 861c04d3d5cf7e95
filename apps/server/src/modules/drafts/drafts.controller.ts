import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CreateDraftRequest, UpdateDraftRequest, type Draft, type DraftExport, type DraftSummary, type ListPage } from '@sc/contracts';
import type { Response } from 'express';
import { IfMatchVersion } from '../../common/http/if-match';
import { ListPagePipe, TIME_ID_CURSOR, type PageRequest, type TimeIdPosition } from '../../common/http/paging';
import { CurrentPrincipal, OrgAccess, OrgPagedList } from '../access/decorators';
import type { Principal } from '../access/principal';
import { DRAFT_IF_MATCH, DraftIdPipe } from './draft-params';
import { DraftsService } from './drafts.service';

/** The ETag of a draft is its version; PUT sends it back in If-Match. */
function withEtag<T extends { version: number }>(res: Response, draft: T): T {
  res.setHeader('ETag', `"${draft.version}"`);
  return draft;
}

/** Diagram drafts: viewers read and export, editors and above create, save and delete. */
@ApiTags('drafts')
@Controller('orgs/:orgId/drafts')
export class DraftsController {
  constructor(private readonly drafts: DraftsService) {}

  @OrgPagedList('viewer', 'The latest change first')
  list(@Param('orgId') orgId: string, @Query(new ListPagePipe(TIME_ID_CURSOR)) page: PageRequest<TimeIdPosition>): Promise<ListPage<DraftSummary>> {
    return this.drafts.list(orgId, page);
  }

  @Post()
  @OrgAccess('editor')
  async create(@Param('orgId') orgId: string, @Body() body: CreateDraftRequest, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: Response): Promise<Draft> {
    return withEtag(res, await this.drafts.create(orgId, principal, body));
  }

  @Get(':draftId')
  @OrgAccess('viewer')
  async get(@Param('orgId') orgId: string, @Param('draftId', DraftIdPipe) draftId: string, @Res({ passthrough: true }) res: Response): Promise<Draft> {
    return withEtag(res, await this.drafts.get(orgId, draftId));
  }

  @Put(':draftId')
  @OrgAccess('editor')
  async update(
    @Param('orgId') orgId: string,
    @Param('draftId', DraftIdPipe) draftId: string,
    @Body() body: UpdateDraftRequest,
    @IfMatchVersion(DRAFT_IF_MATCH) version: number,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Draft> {
    return withEtag(res, await this.drafts.update(orgId, draftId, principal, version, body));
  }

  @Delete(':draftId')
  @HttpCode(204)
  @OrgAccess('editor')
  remove(@Param('orgId') orgId: string, @Param('draftId', DraftIdPipe) draftId: string, @IfMatchVersion({ ...DRAFT_IF_MATCH, optional: true }) version: number | undefined): Promise<void> {
    return this.drafts.remove(orgId, draftId, version);
  }

  @Get(':draftId/export')
  @OrgAccess('viewer')
  export(@Param('orgId') orgId: string, @Param('draftId', DraftIdPipe) draftId: string): Promise<DraftExport> {
    return this.drafts.export(orgId, draftId);
  }
}
