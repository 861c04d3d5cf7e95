import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { ArrangementStoreModule } from '../arrangement-store/arrangement-store.module';
import { AuditModule } from '../audit/audit.module';
import { HealthModule } from '../health/health.module';
import { MermaidParseModule } from '../mermaid-parse/mermaid-parse.module';
import { MermaidParseService } from '../mermaid-parse/mermaid-parse.service';
import { SearchModule } from '../search/search.module';
import { AnswerCache } from './answer-cache';
import { mermaidParserFrom } from './mermaid-parser';
import { ArtifactsConfig } from './artifacts.config';
import { ArtifactsReadService } from './artifacts-read.service';
import { ArtifactsRepository } from './artifacts.repository';
import { ReadLookups } from './read-lookups';
import { ArtifactBlobRecord } from './entities/artifact-blob.entity';
import { ArtifactVersionRecord } from './entities/artifact-version.entity';
import { RevisionArtifactRecord } from './entities/revision-artifact.entity';
import { ServiceRecord } from './entities/service.entity';
import { ServiceRevisionRecord } from './entities/service-revision.entity';
import { RetentionService } from './retention.service';
import { GatewayController } from './gateway.controller';
import { SchemasController } from './schemas.controller';
import { ServicesController } from './services.controller';
import { PreviewsController } from './previews.controller';
import { PreviewsRepository } from './previews.repository';
import { PreviewsService } from './previews.service';
import { SqlSchemaParseService } from './sql-schema-parse.service';
import { DiagramLayoutService } from './diagram-layout.service';
import { DiagramCheckService } from './diagram-check.service';
import { SearchBackfillService } from './search-backfill.service';
import { MERMAID_PARSER, SyncService } from './sync.service';

/**
 * Artifact sync (POST /api/v1/gateway/sync) and the versioned artifact store with its read API
 * (/api/v1/orgs/:orgId/services/...), and the public JSON Schema of context files (/schemas/context.v1.json).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ServiceRecord, ServiceRevisionRecord, ArtifactBlobRecord, ArtifactVersionRecord, RevisionArtifactRecord]),
    MermaidParseModule,
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
    // Mermaid runs in MermaidParseModule's worker pool, never on the request thread.
    { provide: MERMAID_PARSER, inject: [MermaidParseService], useFactory: mermaidParserFrom },
    ArtifactsRepository,
    PreviewsRepository,
    PreviewsService,
    // SQL schemas are parsed in worker threads too (node-sql-parser takes seconds on a large schema).
    SqlSchemaParseService,
    // Default-view layouts of synced diagrams, with ELK in worker threads, in the background.
    DiagramLayoutService,
    SyncService,
    { provide: AnswerCache, inject: [APP_ENV], useFactory: (env: Env) => AnswerCache.fromEnv(env) },
    ReadLookups,
    ArtifactsReadService,
    RetentionService,
    // A diagram checked with the sync's engine, stored nowhere (the MCP server's validate_diagram).
    DiagramCheckService,
    // Services synced before the search index existed are indexed at start (and by runOnce).
    SearchBackfillService,
  ],
  // Drafts copy synced diagrams ("Edit a copy") through the read service; the multi-instance suite runs retention;
  // the MCP server reads through the read service and checks diagrams through DiagramCheckService.
  exports: [ArtifactsReadService, RetentionService, DiagramCheckService],
})
export class ArtifactsModule {}
