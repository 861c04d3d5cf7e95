import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/app.factory';
import { Clock } from '../../src/common/clock';
import { LOG_DESTINATION } from '../../src/common/logging/logging.module';
import { APP_ENV, AppConfig, loadAppConfig } from '../../src/config/app-config';
import type { Env } from '../../src/config/env';
import { freePort } from './free-port';
import { lineCollector } from './log-lines';
import { ManualClock } from './manual-clock';
import { createMigratedTestDatabase } from './database-template';
import type { TestDatabase } from './test-database';

/** The setup token every test app accepts (SERVICE_SETUP_TOKEN). */
export const TEST_SETUP_TOKEN = 'test-setup-token-0123456789';

export interface TestApp {
  app: INestApplication;
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  baseUrl: string;
  clock: ManualClock;
  dataSource: DataSource;
  config: AppConfig;
  /** The app's database (pass it as `sharedDatabase` to start a second instance on it). */
  database: TestDatabase;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment variables (merged over the test defaults; not over process.env). */
  env?: Env;
  /** Providers to replace, e.g. `{ provide: SomeHttpClient, useValue: fake }`. */
  overrideProviders?: { provide: unknown; useValue: unknown }[];
  /** Collects every line the app logs (one JSON entry each) here instead of writing it to stdout. */
  logLines?: string[];
  /** Embedded database on disk in this directory instead of memory (another process may open it after close); ignored with TEST_DATABASE_URL. */
  embeddedDataDir?: string;
  /**
   * Another test app's PostgreSQL database (its `database`), for a second instance on the same data; the first app
   * drops it on close, this one leaves it. Only with TEST_DATABASE_URL (PGlite is one process, one connection).
   */
  sharedDatabase?: TestDatabase;
}

/**
 * Boots the real AppModule with the production HTTP pipeline (configureApp) on a database of its own (a copy of the
 * run's migrated template, see database-template.ts), listening on 127.0.0.1 with a random port. Always
 * `await close()` (afterAll/afterEach).
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  if (options.sharedDatabase && options.sharedDatabase.config.kind !== 'postgres') throw new Error('sharedDatabase needs TEST_DATABASE_URL (PostgreSQL).');
  const dataDir = mkdtempSync(join(tmpdir(), 'sc-test-'));
  const database: TestDatabase = options.sharedDatabase
    ? { config: options.sharedDatabase.config, drop: async () => undefined }
    : // An embeddedDataDir that exists already is opened as it is (a later app on the same data).
      await createMigratedTestDatabase(options.embeddedDataDir ?? join(dataDir, 'pglite'), { onDisk: Boolean(options.embeddedDataDir) }).catch((error: unknown) => {
        rmSync(dataDir, { recursive: true, force: true });
        throw error;
      });
  // The public URL must be the real address: SSO providers redirect back to it, links point at it.
  const port = await freePort();
  const env: Env = {
    SERVICE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    SERVICE_DATA_DIR: dataDir,
    SERVICE_SECRET_KEY: randomBytes(32).toString('base64'),
    SERVICE_SETUP_TOKEN: TEST_SETUP_TOKEN,
    SERVICE_LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
    SERVICE_AUTH_RATE_LIMIT: '1000',
    SERVICE_AUTH_FAILURE_LIMIT: '1000',
    // The identity providers of the tests are real servers on loopback: allow it, as an operator would for an internal IdP.
    SERVICE_SSO_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
    SERVICE_SSO_ALLOW_HTTP_HOSTS: '127.0.0.1,localhost',
    // One thread per parsing pool (the default is min(2, cpus)): a pool starts all its threads at its first job, and
    // each thread loads jsdom and Mermaid or the SQL parsers from sources, 1 to 3 CPU-seconds; a test file parses a few
    // small inputs. Specs that need a second thread set it.
    SERVICE_MERMAID_WORKERS: '1',
    SERVICE_SQL_PARSE_WORKERS: '1',
    ...(database.config.kind === 'postgres' ? { DATABASE_URL: database.config.url } : {}),
    ...options.env,
  };
  const config = loadAppConfig(env);
  config.database = database.config;
  config.adminDir = env['SERVICE_ADMIN_DIR'] ? config.adminDir : null;
  const clock = new ManualClock();

  // nestjs-pino keeps the first app's logger for logs outside a request: give each test app its own (log capture).
  __resetOutOfContextForTests();
  let builder = Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(APP_ENV)
    .useValue(env)
    .overrideProvider(AppConfig)
    .useValue(config)
    .overrideProvider(Clock)
    .useValue(clock);
  const logCapture = options.logLines ? [{ provide: LOG_DESTINATION, useValue: lineCollector(options.logLines) }] : [];
  for (const override of [...logCapture, ...(options.overrideProviders ?? [])]) {
    builder = builder.overrideProvider(override.provide).useValue(override.useValue);
  }
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication({ bodyParser: false, bufferLogs: true });
  configureApp(app);
  try {
    await app.listen(port, '127.0.0.1');
  } catch (error) {
    await app.close().catch(() => undefined);
    await database.drop();
    throw error;
  }
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    clock,
    dataSource: app.get(DataSource),
    config,
    database: options.sharedDatabase ?? database,
    close: async () => {
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * An object that gets the fields `seed` resolves to in a `beforeAll` registered here: the state a describe block sets
 * up once and its tests read, e.g. `const readers = useSeeded(() => seedReaders(t))`, then `readers.readToken`.
 * Hooks run in the order they are registered, so a `useSeeded` after `useTestApp` sees the started app.
 */
export function useSeeded<T extends object>(seed: () => Promise<T>): T {
  const seeded = {} as T;
  beforeAll(async () => {
    Object.assign(seeded, await seed());
  });
  return seeded;
}

/** Test app options, or a function giving them when the app starts (after the hooks registered before it). */
export type TestAppOptionsSource = TestAppOptions | (() => TestAppOptions);

/**
 * The test app of a describe block (or file), started in a `beforeAll` and closed in an `afterAll` registered here:
 * a spec says `const t = useTestApp(options)` instead of declaring, starting and closing it (see useSeeded). A
 * `beforeAll` registered before it can prepare what the options name (pass a function then); an `afterAll` registered
 * before it runs before the app closes. A spec that closes or restarts its app itself uses `createTestApp`.
 */
export function useTestApp(options: TestAppOptionsSource = {}): TestApp {
  let started: TestApp | undefined;
  const t = useSeeded(async () => (started = await createTestApp(typeof options === 'function' ? options() : options)));
  afterAll(() => started?.close());
  return t;
}
