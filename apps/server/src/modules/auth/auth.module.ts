import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { MembersModule } from '../members/members.module';
import { SessionsModule } from '../sessions/sessions.module';
import { TokensModule } from '../tokens/tokens.module';
import { Clock } from '../../common/clock';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { CacheChanges } from '../../database/cache-changes';
import { MetricsService } from '../metrics/metrics.service';
import { AuthCache } from './auth-cache';
import { AuthFailureLimiter } from './auth-failure-limit';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';

/**
 * Registers the global AuthGuard (it enforces the rules modules/access declares), its AuthCache, and sign-out. Exports
 * the cache (for tests) and the failed-guess limiter (SCIM counts its token guesses in it); a module that needs
 * sessions, members or users imports their module itself.
 */
@Module({
  imports: [SessionsModule, TokensModule, MembersModule],
  controllers: [AuthController],
  providers: [
    AuthFailureLimiter,
    {
      provide: AuthCache,
      inject: [APP_ENV, CacheChanges, Clock, MetricsService],
      useFactory: (env: Env, changes: CacheChanges, clock: Clock, metrics: MetricsService) => AuthCache.fromEnv(env, changes, clock, metrics),
    },
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [AuthCache, AuthFailureLimiter],
})
export class AuthModule {}
