// Test support for the unit specs (*.service.spec.ts); excluded from the production build (tsconfig.app.json).
import type { DynamicModule, ModuleMetadata, Type } from '@nestjs/common';
import { Global, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { ThrottlerModule } from '@nestjs/throttler';
import { randomBytes } from 'node:crypto';
import { temporaryPgliteCopy } from '../../test/support/database-template';
import { Clock } from '../common/clock';
import { CommonModule } from '../common/common.module';
import { RedisModule } from '../common/redis/redis.module';
import { APP_ENV, AppConfig, loadAppConfig } from '../config/app-config';
import type { Env } from '../config/env';
import { DatabaseModule } from '../database/database.module';
import { UnitOfWork } from '../database/unit-of-work';
import { AUTH_THROTTLER } from '../modules/access/rate-limit';
import { MetricsModule } from '../modules/metrics/metrics.module';

/** A clock the spec moves by hand. */
export class SpecClock extends Clock {
  static readonly START = new Date('2026-03-01T09:00:00Z');
  at = new Date(SpecClock.START.getTime());
  now(): Date {
    return new Date(this.at.getTime());
  }
  advance(ms: number): void {
    this.at = new Date(this.at.getTime() + ms);
  }
  /** Back at START (serviceSpec does this before each test). */
  reset(): void {
    this.at = new Date(SpecClock.START.getTime());
  }
}

export interface ServiceTestModule {
  module: TestingModule;
  clock: SpecClock;
  config: AppConfig;
  get<T>(type: Type<T>): T;
  /** Runs `work` as one unit of work, like a service would (seeding rows that must commit together). */
  inUnitOfWork<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The real feature modules under test, their real dependencies and a PGlite database of their own with every
 * migration applied; no HTTP server. A rule is tested by calling the service and reading what it stored, never by
 * mocking our own parts. Service specs use it through `serviceSpec` (service-spec.ts): one per file, not per test.
 *
 * The database is a copy of the run's migrated template (test/unit-global-setup.cjs) in a temporary directory,
 * removed by `close()`: creating a PGlite database (initdb in WebAssembly) costs seconds of CPU per file, copying one
 * a fraction of that. Without a template (a spec run by a config without that setup) it is a new in-memory database
 * the module migrates at start.
 */
export async function createServiceTestModule(imports: NonNullable<ModuleMetadata['imports']>, env: Env = {}): Promise<ServiceTestModule> {
  const fullEnv: Env = { SERVICE_PUBLIC_URL: 'http://127.0.0.1:3999', SERVICE_SECRET_KEY: randomBytes(32).toString('base64'), SERVICE_LOG_LEVEL: 'silent', ...env };
  const config = loadAppConfig(fullEnv);
  const copy = temporaryPgliteCopy('sc-spec-');
  config.database = { kind: 'pglite', dataDir: copy.dataDir };
  const clock = new SpecClock();
  let module: TestingModule;
  try {
    module = await Test.createTestingModule({ imports: [SpecConfigModule.with(fullEnv, config), CommonModule, DatabaseModule, RedisModule, MetricsModule, SPEC_THROTTLER, ...imports] })
      .overrideProvider(Clock)
      .useValue(clock)
      .compile();
    await module.init();
  } catch (error) {
    copy.remove();
    throw error;
  }
  return {
    module,
    clock,
    config,
    get: (type) => module.get(type, { strict: false }),
    inUnitOfWork: (work) => module.get(UnitOfWork).run(work),
    close: async () => {
      try {
        await module.close();
      } finally {
        copy.remove();
      }
    },
  };
}

/** Controllers of the imported modules carry @AuthRateLimit(); their guard needs the throttler (never reached here). */
const SPEC_THROTTLER = ThrottlerModule.forRoot([{ name: AUTH_THROTTLER, ttl: 60_000, limit: 1000 }]);

@Global()
@Module({})
class SpecConfigModule {
  static with(env: Env, config: AppConfig): DynamicModule {
    return {
      module: SpecConfigModule,
      providers: [
        { provide: APP_ENV, useValue: env },
        { provide: AppConfig, useValue: config },
      ],
      exports: [APP_ENV, AppConfig],
    };
  }
}
