import { Module } from '@nestjs/common';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { DiagramLayoutPool } from './diagram-layout-pool';
import { MermaidParseConfig } from './mermaid-parse.config';
import { MermaidParseService } from './mermaid-parse.service';
import { ParsingConfig } from './parsing.config';
import { SqlSchemaParseService } from './sql-schema-parse.service';

/**
 * The CPU-heavy parsing off the main event loop, each in its own worker_threads pool: Mermaid (MermaidParseService),
 * SQL schemas (SqlSchemaParseService: node-sql-parser takes seconds on a large schema) and diagram layouts and images
 * (DiagramLayoutPool: ELK, resvg). Used by the artifacts, drafts and health modules.
 */
@Module({
  providers: [
    { provide: MermaidParseConfig, inject: [APP_ENV], useFactory: (env: Env) => MermaidParseConfig.fromEnv(env) },
    { provide: ParsingConfig, inject: [APP_ENV], useFactory: (env: Env) => ParsingConfig.fromEnv(env) },
    MermaidParseService,
    SqlSchemaParseService,
    DiagramLayoutPool,
  ],
  exports: [MermaidParseService, SqlSchemaParseService, DiagramLayoutPool],
})
export class ParsingModule {}
