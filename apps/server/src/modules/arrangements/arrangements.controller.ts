import { Body, Controller, Delete, Get, HttpCode, Param, Put, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ArrangementRequest, type DiagramArrangement } from '@sc/contracts';
import type { Response } from 'express';
import { IfMatchVersion, type IfMatchRule } from '../../common/http/if-match';
import { CurrentPrincipal, OrgAccess } from '../access/decorators';
import type { Principal } from '../access/principal';
import { ArrangementErrorCode, arrangementError } from './arrangements.errors';
import { ArrangementsService } from './arrangements.service';

/** The ETag of an arrangement is its version; PUT sends it back in If-Match. */
function withEtag(res: Response, arrangement: DiagramArrangement): DiagramArrangement {
  res.setHeader('ETag', `"${arrangement.version}"`);
  return arrangement;
}

/** `If-Match` of a save: the version arranged, 0 for a diagram without an arrangement; missing or anything else → 428. */
const ARRANGEMENT_IF_MATCH: IfMatchRule = {
  min: 0,
  refuse: {
    thing: 'an arrangement',
    noun: 'arrangement',
    verb: 'arranged',
    source: 'the ETag of GET …/arrangement, "0" for the first',
    error: (message, details) => arrangementError(ArrangementErrorCode.VersionRequired, message, details),
  },
};

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
    @IfMatchVersion(ARRANGEMENT_IF_MATCH) version: number,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DiagramArrangement> {
    return withEtag(res, await this.arrangements.save(orgId, service, name, principal, version, body));
  }

  @Delete()
  @HttpCode(204)
  @OrgAccess('editor')
  reset(
    @Param('orgId') orgId: string,
    @Param('service') service: string,
    @Param('name') name: string,
    @IfMatchVersion({ ...ARRANGEMENT_IF_MATCH, optional: true }) version: number | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    return this.arrangements.reset(orgId, service, name, principal, version);
  }
}
