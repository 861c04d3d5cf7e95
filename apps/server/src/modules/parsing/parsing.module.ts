import { Module } from '@nestjs/common';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { MermaidParseConfig } from './mermaid-parse.config';
import { MermaidParseService } from './mermaid-parse.service';

/** Mermaid parsing off the main event loop (worker_threads pool); used by the artifacts module. */
@Module({
  providers: [{ provide: MermaidParseConfig, inject: [APP_ENV], useFactory: (env: Env) => MermaidParseConfig.fromEnv(env) }, MermaidParseService],
  exports: [MermaidParseService],
})
export class MermaidParseModule {}
