import { Global, Module } from '@nestjs/common';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { MetricsConfig } from './metrics.config';
import { MetricsService } from './metrics.service';
import { SignInMetricsInterceptor } from './sign-in-metrics.interceptor';

/** Prometheus metrics: global, so any module records into the one registry. */
@Global()
@Module({
  providers: [{ provide: MetricsConfig, inject: [APP_ENV], useFactory: (env: Env) => MetricsConfig.fromEnv(env) }, MetricsService, SignInMetricsInterceptor],
  exports: [MetricsService, SignInMetricsInterceptor],
})
export class MetricsModule {}
