import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { ArtifactsModule } from '../artifacts/artifacts.module';
import { AuditModule } from '../audit/audit.module';
import { EmbedLink } from './embed-link.entity';
import { EmbedPublicController } from './embed-public.controller';
import { EmbedLinksController } from './embeds.controller';
import { EmbedsConfig } from './embeds.config';
import { EmbedLinksRepository } from './embeds.repository';
import { EmbedLinksService } from './embeds.service';

/** Embed links: read-only public links to diagram images for READMEs, wikis and portals (README.md). */
@Module({
  imports: [TypeOrmModule.forFeature([EmbedLink]), ArtifactsModule, AuditModule],
  controllers: [EmbedLinksController, EmbedPublicController],
  providers: [{ provide: EmbedsConfig, inject: [APP_ENV], useFactory: (env: Env) => EmbedsConfig.fromEnv(env) }, EmbedLinksRepository, EmbedLinksService],
  exports: [EmbedLinksService],
})
export class EmbedsModule {}
