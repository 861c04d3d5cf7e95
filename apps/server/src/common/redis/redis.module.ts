import { Global, Module } from '@nestjs/common';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { RedisConfig, RedisService } from './redis.service';

/** The optional shared Redis (REDIS_URL): rate-limit counters shared by every instance. */
@Global()
@Module({
  providers: [
    { provide: RedisConfig, inject: [APP_ENV], useFactory: (env: Env) => RedisConfig.fromEnv(env) },
    { provide: RedisService, inject: [RedisConfig], useFactory: (config: RedisConfig) => RedisService.connect(config) },
  ],
  exports: [RedisService],
})
export class RedisModule {}
