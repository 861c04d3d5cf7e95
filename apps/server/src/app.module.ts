import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { CommonModule } from './common/common.module';
import { ConfigModule } from './config/config.module';
import { AppConfig } from './config/app-config';
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
import { AUTH_THROTTLER } from './modules/access/rate-limit';
import { HealthModule } from './modules/health/health.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { MeModule } from './modules/me/me.module';
import { MembersModule } from './modules/members/members.module';
import { ParsingModule } from './modules/parsing/parsing.module';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { SearchModule } from './modules/search/search.module';
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
      inject: [AppConfig, RedisService],
      useFactory: (config: AppConfig, redis: RedisService) => ({
        throttlers: [{ name: AUTH_THROTTLER, ttl: config.authRateLimit.windowMs, limit: config.authRateLimit.limit }],
        // With REDIS_URL every instance counts in Redis; otherwise in this process's memory.
        ...(redis.client ? { storage: new SharedThrottlerStorage(redis.client) } : {}),
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
  ],
})
export class AppModule {}
