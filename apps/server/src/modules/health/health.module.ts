import { Module } from '@nestjs/common';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { ParsingModule } from '../parsing/parsing.module';
import { HealthConfig } from './health.config';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { ShutdownService } from './shutdown.service';

/** Liveness, readiness and graceful shutdown (ShutdownService: work that must not commit past the grace period asks it). */
@Module({
  imports: [ParsingModule],
  controllers: [HealthController],
  providers: [{ provide: HealthConfig, inject: [APP_ENV], useFactory: (env: Env) => HealthConfig.fromEnv(env) }, HealthService, ShutdownService],
  exports: [ShutdownService],
})
export class HealthModule {}
