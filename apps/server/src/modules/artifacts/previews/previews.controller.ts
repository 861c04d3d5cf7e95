import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { PreviewListItem, PreviewView } from '@sc/contracts';
import { CurrentPrincipal, OrgAccess } from '../../access/decorators';
import type { Principal } from '../../access/principal';
import { PreviewsService } from './previews.service';

/**
 * Previews of a service (`service-cli sync --preview`, stored by the gateway): listed and read by any member or a
 * read token, deleted by editors and up. Expired previews answer 404 preview_not_found.
 */
@ApiTags('services')
@Controller('orgs/:orgId/services/:service/previews')
export class PreviewsController {
  constructor(private readonly previews: PreviewsService) {}

  @Get()
  @OrgAccess('viewer')
  list(@Param('orgId') orgId: string, @Param('service') service: string): Promise<PreviewListItem[]> {
    return this.previews.list(orgId, service);
  }

  @Get(':id')
  @OrgAccess('viewer')
  get(@Param('orgId') orgId: string, @Param('service') service: string, @Param('id') id: string): Promise<PreviewView> {
    return this.previews.get(orgId, service, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @OrgAccess('editor')
  async remove(@Param('orgId') orgId: string, @Param('service') service: string, @Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.previews.remove(orgId, service, id, principal);
  }
}
