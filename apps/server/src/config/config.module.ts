import { Global, Module } from '@nestjs/common';
import { APP_ENV, AppConfig, loadAppConfig } from './app-config';
import { Env } from './env';

/** Provides the raw environment (APP_ENV) and the validated AppConfig to every module. Tests override both. */
@Global()
@Module({
  providers: [
    { provide: APP_ENV, useFactory: (): Env => process.env },
    { provide: AppConfig, inject: [APP_ENV], useFactory: (env: Env) => loadAppConfig(env) },
  ],
  exports: [APP_ENV, AppConfig],
})
export class ConfigModule {}
