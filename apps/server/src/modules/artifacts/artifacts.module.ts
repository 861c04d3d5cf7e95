import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { AuditModule } from '../audit/audit.module';
import { HealthModule } from '../health/health.module';
import { MermaidParseModule } from '../parsing/parsing.module';
import { MermaidParseService } from '../parsing/mermaid-parse.service';
import { SearchModule } from '../search/search.module';
import { AnswerCache } from './read/answer-cache';
import { mermaidParserFrom } from '../parsing/mermaid-parser';
import { ArtifactsConfig } from './artifacts.config';
import { ArtifactsReadService } from './read/artifacts-read.service';
import { ArtifactsRepository } from './store/services.repository';
import { ReadLookups } from './read/read-lookups';
import { ArtifactBlobRecord } from './store/entities/artifact-blob.entity';
import { ArtifactVersionRecord } from './store/entities/artifact-version.entity';
import { RevisionArtifactRecord } from './store/entities/revision-artifact.entity';
import { ServiceRecord } from './store/entities/service.entity';
import { ServiceRevisionRecord } from './store/entities/service-revision.entity';
import { RetentionService } from './retention/retention.service';
import { GatewayController } from './sync/gateway.controller';
import { SchemasController } from './read/schemas.controller';
import { ServicesController } from './read/services.controller';
import { PreviewsController } from './previews/previews.controller';
import { PreviewsRepository } from './store/previews.repository';
import { PreviewsService } from './previews/previews.service';
import { SqlSchemaParseService } from '../parsing/sql-schema-parse.service';
import { DiagramLayoutService } from './layouts/diagram-layout.service';
import { MERMAID_PARSER, SyncService } from './sync/sync.service';

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
  ],
  // Drafts copy synced diagrams ("Edit a copy") through the read service; the multi-instance suite runs retention.
  exports: [ArtifactsReadService, RetentionService],
})
export class ArtifactsModule {}
