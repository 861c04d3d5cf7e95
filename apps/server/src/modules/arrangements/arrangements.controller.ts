import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Put, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ArrangementRequest, type DiagramArrangement } from '@sc/contracts';
import type { Response } from 'express';
import { CurrentPrincipal, OrgAccess } from '../access/decorators';
import type { Principal } from '../access/principal';
import { ArrangementsService } from './arrangements.service';

/** The ETag of an arrangement is its version; PUT sends it back in If-Match. */
function withEtag(res: Response, arrangement: DiagramArrangement): DiagramArrangement {
  res.setHeader('ETag', `"${arrangement.version}"`);
  return arrangement;
}

/** A synced diagram's arrangement: viewers read it, editors and above save and reset it. */
@ApiTags('services')
@Controller('orgs/:orgId/services/:service/diagrams/:name/arrangement')
export class ArrangementsController {
  constructor(private readonly arrangements: ArrangementsService) {}

  @Get()
  @OrgAccess('viewer')
  async get(@Param('orgId') orgId: string, @Param('service') service: string, @Param('name') name: string, @Res({ passthrough: true }) res: Response): Promise<DiagramArrangement> {
    return withEtag(res, await this.arrangements.get(orgId, service, name));
  }

  @Put()
  @OrgAccess('editor')
  async save(
    @Param('orgId') orgId: string,
    @Param('service') service: string,
    @Param('name') name: string,
    @Body() body: ArrangementRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DiagramArrangement> {
    return withEtag(res, await this.arrangements.save(orgId, service, name, principal, ifMatch, body));
  }

  @Delete()
  @HttpCode(204)
  @OrgAccess('editor')
  reset(
    @Param('orgId') orgId: string,
    @Param('service') service: string,
    @Param('name') name: string,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    return this.arrangements.reset(orgId, service, name, principal, ifMatch);
  }
}
