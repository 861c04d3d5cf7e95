import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { ArrangementStoreModule } from '../arrangement-store/arrangement-store.module';
import { AuditModule } from '../audit/audit.module';
import { HealthModule } from '../health/health.module';
import { ParsingModule } from '../parsing/parsing.module';
import { MermaidParseService } from '../parsing/mermaid-parse.service';
import { mermaidParserFrom } from '../parsing/mermaid-parser';
import { SearchModule } from '../search/search.module';
import { ArtifactsConfig } from './artifacts.config';
import { DiagramLayoutService } from './layouts/diagram-layout.service';
import { PreviewsController } from './previews/previews.controller';
import { PreviewsService } from './previews/previews.service';
import { AnswerCache } from './read/answer-cache';
import { ArtifactsReadService } from './read/artifacts-read.service';
import { ReadLookups } from './read/read-lookups';
import { SchemasController } from './read/schemas.controller';
import { ServicesController } from './read/services.controller';
import { RetentionService } from './retention/retention.service';
import { ServiceDeletionService } from './retention/service-deletion.service';
import { StoreCollector } from './retention/store-collector';
import { BlobStore } from './store/blob-store';
import { DiagramLayoutsRepository } from './store/diagram-layouts.repository';
import { ArtifactBlobRecord } from './store/entities/artifact-blob.entity';
import { ArtifactVersionRecord } from './store/entities/artifact-version.entity';
import { RevisionArtifactRecord } from './store/entities/revision-artifact.entity';
import { ServiceRecord } from './store/entities/service.entity';
import { ServiceRevisionRecord } from './store/entities/service-revision.entity';
import { PreviewsRepository } from './store/previews.repository';
import { ServicesRepository } from './store/services.repository';
import { BundleValidator, MERMAID_PARSER } from './sync/bundle-validator';
import { DiagramCheckService } from './sync/diagram-check.service';
import { GatewayController } from './sync/gateway.controller';
import { RevisionWriter } from './sync/revision-writer';
import { SearchBackfillService } from './sync/search-backfill.service';
import { SyncAudit } from './sync/sync-audit';
import { SyncCheckService } from './sync/sync-check.service';
import { SyncService } from './sync/sync.service';

/**
 * Artifact sync (POST /api/v1/gateway/sync) and the versioned artifact store with its read API
 * (/api/v1/orgs/:orgId/services/...), and the public JSON Schema of context files (/schemas/context.v1.json).
 * Folders by job: sync/, read/, previews/, layouts/, store/, retention/ (README.md).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ServiceRecord, ServiceRevisionRecord, ArtifactBlobRecord, ArtifactVersionRecord, RevisionArtifactRecord]),
    // Mermaid, SQL schemas and diagram layouts are parsed and computed in ParsingModule's worker pools, never on the request thread.
    ParsingModule,
    HealthModule,
    AuditModule,
    // The sync replaces the service's search entries in its transaction.
    SearchModule,
    // Diagram images are drawn through the diagram's saved arrangement, as the dashboard draws it.
    ArrangementStoreModule,
  ],
  controllers: [GatewayController, ServicesController, PreviewsController, SchemasController],
  providers: [
    { provide: ArtifactsConfig, inject: [APP_ENV], useFactory: (env: Env) => ArtifactsConfig.fromEnv(env) },
    { provide: MERMAID_PARSER, inject: [MermaidParseService], useFactory: mermaidParserFrom },
    // store/
    ServicesRepository,
    BlobStore,
    DiagramLayoutsRepository,
    PreviewsRepository,
    // sync/
    BundleValidator,
    RevisionWriter,
    SyncAudit,
    SyncService,
    SyncCheckService,
    // layouts/: default-view layouts of synced diagrams, computed in the background, and diagram images.
    DiagramLayoutService,
    // read/ and previews/
    { provide: AnswerCache, inject: [APP_ENV], useFactory: (env: Env) => AnswerCache.fromEnv(env) },
    ReadLookups,
    ArtifactsReadService,
    PreviewsService,
    // retention/
    StoreCollector,
    RetentionService,
    ServiceDeletionService,
    // sync/: a diagram checked with the sync's engine, stored nowhere (the MCP server's validate_diagram).
    DiagramCheckService,
    // sync/: services synced before the search index existed are indexed at start (and by runOnce).
    SearchBackfillService,
  ],
  // Drafts copy synced diagrams ("Edit a copy") through the read service; the multi-instance suite runs retention;
  // the MCP server reads through the read service and checks diagrams through DiagramCheckService.
  exports: [ArtifactsReadService, RetentionService, DiagramCheckService],
})
export class ArtifactsModule {}
