import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type {
  DatabaseListItem,
  DatabaseView,
  DiagramDiff,
  DiagramSource,
  DiagramView,
  FlowListItem,
  FlowView,
  JobsView,
  ServiceDetail,
  ServiceListItem,
  ServiceRevisionItem,
  SummaryView,
  TextArtifactListItem,
  TextArtifactView,
} from '@sc/contracts';
import { OrgAccess } from '../auth/decorators';
import { ArtifactsReadService } from './artifacts-read.service';

/**
 * The artifact read API: a session of any member, or an API token with the read (or admin) scope.
 * `?revision=n` reads an earlier revision; without it, the current one.
 */
@ApiTags('services')
@Controller('orgs/:orgId/services')
export class ServicesController {
  constructor(private readonly artifacts: ArtifactsReadService) {}

  @Get()
  @OrgAccess('viewer')
  list(@Param('orgId') orgId: string): Promise<ServiceListItem[]> {
    return this.artifacts.listServices(orgId);
  }

  @Get(':service')
  @OrgAccess('viewer')
  get(@Param('orgId') orgId: string, @Param('service') service: string, @Query('revision') revision?: string): Promise<ServiceDetail> {
    return this.artifacts.getService(orgId, service, revision);
  }

  @Get(':service/revisions')
  @OrgAccess('viewer')
  revisions(@Param('orgId') orgId: string, @Param('service') service: string): Promise<ServiceRevisionItem[]> {
    return this.artifacts.listRevisions(orgId, service);
  }

  @Get(':service/diagrams/:name')
  @OrgAccess('viewer')
  diagram(@Param('orgId') orgId: string, @Param('service') service: string, @Param('name') name: string, @Query('revision') revision?: string): Promise<DiagramView> {
    return this.artifacts.getDiagram(orgId, service, name, revision);
  }

  /** The Mermaid and context files exactly as synced (Export To Mermaid of a synced diagram). */
  @Get(':service/diagrams/:name/source')
  @OrgAccess('viewer')
  diagramSource(
    @Param('orgId') orgId: string,
    @Param('service') service: string,
    @Param('name') name: string,
    @Query('revision') revision?: string,
  ): Promise<DiagramSource> {
    return this.artifacts.getDiagramSource(orgId, service, name, revision);
  }

  @Get(':service/diagrams/:name/diff')
  @OrgAccess('viewer')
  diff(
    @Param('orgId') orgId: string,
    @Param('service') service: string,
    @Param('name') name: string,
    @Query('from') from?: string,
    @Query('to') to?: string,
  ): Promise<DiagramDiff> {
    return this.artifacts.diffDiagram(orgId, service, name, from, to);
  }

  @Get(':service/flows')
  @OrgAccess('viewer')
  flows(@Param('orgId') orgId: string, @Param('service') service: string, @Query('revision') revision?: string): Promise<FlowListItem[]> {
    return this.artifacts.listFlows(orgId, service, revision);
  }

  @Get(':service/flows/:name')
  @OrgAccess('viewer')
  flow(@Param('orgId') orgId: string, @Param('service') service: string, @Param('name') name: string, @Query('revision') revision?: string): Promise<FlowView> {
    return this.artifacts.getFlow(orgId, service, name, revision);
  }

  @Get(':service/databases')
  @OrgAccess('viewer')
  databases(@Param('orgId') orgId: string, @Param('service') service: string, @Query('revision') revision?: string): Promise<DatabaseListItem[]> {
    return this.artifacts.listDatabases(orgId, service, revision);
  }

  @Get(':service/databases/:name')
  @OrgAccess('viewer')
  database(@Param('orgId') orgId: string, @Param('service') service: string, @Param('name') name: string, @Query('revision') revision?: string): Promise<DatabaseView> {
    return this.artifacts.getDatabase(orgId, service, name, revision);
  }

  @Get(':service/jobs')
  @OrgAccess('viewer')
  jobs(@Param('orgId') orgId: string, @Param('service') service: string, @Query('revision') revision?: string): Promise<JobsView> {
    return this.artifacts.getJobs(orgId, service, revision);
  }

  @Get(':service/summary')
  @OrgAccess('viewer')
  summary(@Param('orgId') orgId: string, @Param('service') service: string, @Query('revision') revision?: string): Promise<SummaryView> {
    return this.artifacts.getSummary(orgId, service, revision);
  }

  @Get(':service/docs')
  @OrgAccess('viewer')
  docs(@Param('orgId') orgId: string, @Param('service') service: string, @Query('revision') revision?: string): Promise<TextArtifactListItem[]> {
    return this.artifacts.listTexts(orgId, service, 'doc', revision);
  }

  @Get(':service/docs/:name')
  @OrgAccess('viewer')
  doc(@Param('orgId') orgId: string, @Param('service') service: string, @Param('name') name: string, @Query('revision') revision?: string): Promise<TextArtifactView> {
    return this.artifacts.getText(orgId, service, 'doc', name, revision);
  }

  @Get(':service/api-specs')
  @OrgAccess('viewer')
  apiSpecs(@Param('orgId') orgId: string, @Param('service') service: string, @Query('revision') revision?: string): Promise<TextArtifactListItem[]> {
    return this.artifacts.listTexts(orgId, service, 'api-spec', revision);
  }

  @Get(':service/api-specs/:name')
  @OrgAccess('viewer')
  apiSpec(@Param('orgId') orgId: string, @Param('service') service: string, @Param('name') name: string, @Query('revision') revision?: string): Promise<TextArtifactView> {
    return this.artifacts.getText(orgId, service, 'api-spec', name, revision);
  }
}
