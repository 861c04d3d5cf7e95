import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { SearchAnswer } from '@sc/contracts';
import { OrgAccess } from '../access/decorators';
import { SearchQueryPipe, type SearchQuery } from './search-query.pipe';
import { SearchService } from './search.service';

/** GET /api/v1/orgs/:orgId/search: any member (or a read token) searches the organization's current revisions. */
@ApiTags('search')
@Controller('orgs/:orgId/search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Get()
  @OrgAccess('viewer')
  @ApiOkResponse({ description: 'Ranked hits (at most `limit` ≤ 50, default 20); 400 invalid_search_query for an empty or too long `q`, an unknown `kind` or a bad `limit`.' })
  find(@Param('orgId') orgId: string, @Query(SearchQueryPipe) query: SearchQuery): Promise<SearchAnswer> {
    return this.search.search(orgId, query);
  }
}
