import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { CommonModule } from './common/common.module';
import { ConfigModule } from './config/config.module';
import { APP_ENV, AppConfig } from './config/app-config';
import { RedisModule } from './common/redis/redis.module';
import { RedisService } from './common/redis/redis.service';
import { SharedThrottlerStorage } from './common/redis/shared-throttler-storage';
import { DatabaseModule } from './database/database.module';
import { LoggingModule } from './common/logging/logging.module';
import { ArtifactsModule } from './modules/artifacts/artifacts.module';
import { AuditModule } from './modules/audit/audit.module';
import { AuthModule } from './modules/auth/auth.module';
import { CliPackageModule } from './modules/cli-package/cli-package.module';
import { DraftsModule } from './modules/drafts/drafts.module';
import { ArrangementsModule } from './modules/arrangements/arrangements.module';
import { AUTH_THROTTLER, EMBED_THROTTLER } from './modules/access/rate-limit';
import { EmbedsConfig } from './modules/embeds/embeds.config';
import { EmbedsModule } from './modules/embeds/embeds.module';
import type { Env } from './config/env';
import { HealthModule } from './modules/health/health.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { McpModule } from './modules/mcp/mcp.module';
import { MeModule } from './modules/me/me.module';
import { MembersModule } from './modules/members/members.module';
import { ParsingModule } from './modules/parsing/parsing.module';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { SearchModule } from './modules/search/search.module';
import { WhereUsedModule } from './modules/where-used/where-used.module';
import { ScimModule } from './modules/scim/scim.module';
import { DomainsModule } from './modules/domains/domains.module';
import { SessionsModule } from './modules/sessions/sessions.module';
import { SetupModule } from './modules/setup/setup.module';
import { SignInLinksModule } from './modules/sign-in-links/sign-in-links.module';
import { SsoModule } from './modules/sso/sso.module';
import { TokensModule } from './modules/tokens/tokens.module';
import { UsersModule } from './modules/users/users.module';

@Module({
  imports: [
    ConfigModule,
    LoggingModule,
    CommonModule,
    DatabaseModule,
    RedisModule,
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, RedisService, APP_ENV],
      useFactory: async (config: AppConfig, redis: RedisService, env: Env) => ({
        throttlers: [
          { name: AUTH_THROTTLER, ttl: config.authRateLimit.windowMs, limit: config.authRateLimit.limit },
          { name: EMBED_THROTTLER, ...embedThrottler(EmbedsConfig.fromEnv(env)) },
        ],
        // With REDIS_URL every instance counts in Redis; otherwise in this process's memory.
        ...(redis.client ? { storage: await SharedThrottlerStorage.create(redis.client) } : {}),
      }),
    }),
    AuthModule,
    HealthModule,
    MetricsModule,
    SetupModule,
    UsersModule,
    OrganizationsModule,
    MembersModule,
    SessionsModule,
    TokensModule,
    SignInLinksModule,
    MeModule,
    // Feature modules of other areas are added below.
    ParsingModule,
    ArtifactsModule,
    SsoModule,
    AuditModule,
    CliPackageModule,
    DraftsModule,
    ArrangementsModule,
    SearchModule,
    WhereUsedModule,
    ScimModule,
    DomainsModule,
    McpModule,
    EmbedsModule,
  ],
})
export class AppModule {}

function embedThrottler(config: EmbedsConfig): { ttl: number; limit: number } {
  return { ttl: config.rateLimit.windowMs, limit: config.rateLimit.limit };
}
