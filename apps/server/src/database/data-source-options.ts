import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config';
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
    return { ...common, url: database.url, poolSize: 10, connectTimeoutMS: 10_000 };
  }
  const { db, release } = await openPglite(database.dataDir);
  return { ...common, driver: createPgliteModule(db, release), installExtensions: false };
}
