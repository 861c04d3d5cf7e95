import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { WhereUsedAnswer } from '@sc/contracts';
import { OrgAccess } from '../access/decorators';
import { WhereUsedQueryPipe, type WhereUsedQuery } from '../search/search-query.pipe';
import { WhereUsedService } from './where-used.service';

/** GET /api/v1/orgs/:orgId/search/where-used: any member (or a read token) lists the diagrams binding a table. */
@ApiTags('search')
@Controller('orgs/:orgId/search')
export class WhereUsedController {
  constructor(private readonly whereUsed: WhereUsedService) {}

  @Get('where-used')
  @OrgAccess('viewer')
  @ApiOkResponse({ description: 'The nodes of current diagrams whose dbConfig.tableName is `table` (at most 200, `truncated` beyond); 400 invalid_search_query for a missing, empty or too long `table` or `database`.' })
  async find(@Param('orgId') orgId: string, @Query(WhereUsedQueryPipe) query: WhereUsedQuery): Promise<WhereUsedAnswer> {
    const found = await this.whereUsed.find(orgId, query.table, { tableOnly: true, database: query.database });
    return { table: query.table, database: query.database, ...found };
  }
}
