import { DataSource, type DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config';
import { pgWithCacheChanges } from './cache-changes';
import { MIGRATIONS } from './migrations';
import { openPglite } from './pglite';
import { createPgliteModule } from './pglite-pool';
import { StructuredQueryLogger } from './query-logger';

/**
 * TypeORM options for the configured database: PostgreSQL through `pg`, or embedded PGlite. Schema
 * changes come only from migrations, run at start (one transaction for all pending ones).
 */
export async function buildDataSourceOptions(database: DatabaseConfig): Promise<DataSourceOptions> {
  const common = {
    type: 'postgres' as const,
    synchronize: false,
    migrations: MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'all' as const,
    // Failed queries are logged without their parameters (see StructuredQueryLogger).
    logger: new StructuredQueryLogger(),
  };
  if (database.kind === 'postgres') {
    // Several instances may start at once on one database: openDataSource runs the migrations under a lock instead.
    // pgWithCacheChanges: every pooled connection LISTENs for cache changes (see CacheChanges).
    return { ...common, migrationsRun: false, url: database.url, poolSize: 10, connectTimeoutMS: 10_000, driver: pgWithCacheChanges };
  }
  const { db, release } = await openPglite(database.dataDir);
  return { ...common, driver: createPgliteModule(db, release), installExtensions: false };
}

/** Arbitrary constant naming the session-level advisory lock held while one instance runs the migrations. */
export const MIGRATION_LOCK_KEY = 7_352_410_915;

/**
 * Connects and, for PostgreSQL (`migrationsRun: false` above), runs the pending migrations while holding an advisory
 * lock. TypeORM reads the pending list before its migration transaction starts, so two instances starting together on
 * a fresh database would both create the same tables and one would fail (duplicate pg_type key); with the lock the
 * second waits, then finds nothing pending. Embedded PGlite is one process per data directory: TypeORM's own run.
 */
export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = await new DataSource(options).initialize();
  if (options.migrationsRun) return dataSource;
  const lock = dataSource.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await dataSource.runMigrations({ transaction: 'all' });
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } catch (error) {
    await lock.release();
    await dataSource.destroy();
    throw error;
  }
  await lock.release();
  return dataSource;
}
