import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { ArtifactsModule } from '../artifacts/artifacts.module';
import { ParsingModule } from '../parsing/parsing.module';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { DraftRecord } from './draft.entity';
import { DraftsConfig } from './drafts.config';
import { DraftsController } from './drafts.controller';
import { DraftsRepository } from './drafts.repository';
import { DraftsService } from './drafts.service';

/** Diagram drafts under /api/v1/orgs/:orgId/drafts (see README.md). */
@Module({
  imports: [TypeOrmModule.forFeature([DraftRecord]), ParsingModule, ArtifactsModule, UsersModule, TokensModule],
  controllers: [DraftsController],
  providers: [{ provide: DraftsConfig, inject: [APP_ENV], useFactory: (env: Env) => DraftsConfig.fromEnv(env) }, DraftsRepository, DraftsService],
  exports: [DraftsService],
})
export class DraftsModule {}
