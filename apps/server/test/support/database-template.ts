import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { buildDataSourceOptions, openDataSource } from '../../src/database/data-source-options';
import type { DatabaseConfig } from '../../src/config/app-config';
import { createTestDatabase, withAdminClient, type TestDatabase } from './test-database';

/**
 * One migrated database per run, copied for each test app and service spec file: creating an embedded database
 * (PGlite's initdb in WebAssembly) costs seconds of CPU per app on the 2-core CI machine, many times what copying its
 * files costs, and every migration ran again each time. The global setups of the integration and the unit project
 * (test/template-database.cjs) build the template once and name it in these variables; without them (a spec run by
 * another config) every app starts from scratch.
 */
export const PGLITE_TEMPLATE_ENV = 'SC_TEST_PGLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_ENV = 'SC_TEST_POSTGRES_TEMPLATE';

/**
 * PostgreSQL's shared memory for the test databases (ALTER SYSTEM in the PGlite template, so every copy starts with it).
 * At every start PGlite zeroes all of it in WebAssembly (memset in its mmap): with the default 128MB that was two thirds of
 * the database's start (0.6 of 0.9 CPU-seconds) and 128MB more memory per app. The test databases hold a few MB, so
 * the smaller cache changes nothing the tests see. Production keeps PostgreSQL's default.
 */
const TEST_PGLITE_SHARED_BUFFERS = '16MB';

/** Migrates an embedded database in `dir` (created), sets its test settings and closes it again: the PGlite template. */
export async function buildPgliteTemplate(dir: string): Promise<void> {
  await migrateAndClose({ kind: 'pglite', dataDir: dir }, (dataSource) => dataSource.query(`ALTER SYSTEM SET shared_buffers = '${TEST_PGLITE_SHARED_BUFFERS}'`));
}

/** Creates and migrates `sc_template_<random>` on the server of `adminUrl`; answers its name. */
export async function buildPostgresTemplate(adminUrl: string): Promise<string> {
  const name = `sc_template_${randomBytes(6).toString('hex')}`;
  await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrateAndClose({ kind: 'postgres', url: url.toString() });
  return name;
}

/**
 * A migrated database of its own for one test app: a copy of the run's template when there is one (PGlite in
 * `pgliteDir`, on disk; PostgreSQL `CREATE DATABASE … TEMPLATE`), else an empty one the app migrates at start (in
 * memory, or in `pgliteDir` with `onDisk`). A `pgliteDir` that exists already is left as it is.
 */
export async function createMigratedTestDatabase(pgliteDir: string, { onDisk = false } = {}, adminUrl = process.env['TEST_DATABASE_URL']): Promise<TestDatabase> {
  if (adminUrl) return createTestDatabase(adminUrl, postgresTemplate());
  if (copyPgliteTemplate(pgliteDir) || onDisk) return { config: { kind: 'pglite', dataDir: pgliteDir }, drop: async () => undefined };
  return createTestDatabase(adminUrl);
}

/**
 * Copies the run's PGlite template to `dir` when there is one and `dir` does not exist yet; answers whether it did.
 * Each copy is the test app's own: nothing one file writes reaches another.
 */
export function copyPgliteTemplate(dir: string): boolean {
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (!template || !existsSync(template) || existsSync(dir)) return false;
  cpSync(template, dir, { recursive: true });
  return true;
}

/**
 * A temporary directory with a copy of the run's PGlite template in it: `dataDir` is the copy, or null without a
 * template (then an in-memory database, created and migrated at start). `remove()` deletes the directory.
 */
export function temporaryPgliteCopy(prefix: string): { dataDir: string | null; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const pgliteDir = join(dir, 'pglite');
  return { dataDir: copyPgliteTemplate(pgliteDir) ? pgliteDir : null, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The run's PostgreSQL template database, when the global setup made one. */
export function postgresTemplate(): string | undefined {
  return process.env[POSTGRES_TEMPLATE_ENV] || undefined;
}

async function migrateAndClose(database: DatabaseConfig, prepare?: (dataSource: DataSource) => Promise<unknown>): Promise<void> {
  // TypeORM's silent logger: the server's query logger would print every statement outside Nest.
  const dataSource = await openDataSource({ ...(await buildDataSourceOptions(database)), logger: undefined, logging: false });
  try {
    await prepare?.(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * `node -r ts-node/register/transpile-only -r tsconfig-paths/register database-template.ts <pglite-dir> [postgres-admin-url]`:
 * what the global setup runs (outside Jest, so the migrations load as in the server). Prints `{"postgres": name}`.
 */
async function main(): Promise<void> {
  const [pgliteDir, adminUrl] = process.argv.slice(2);
  if (!pgliteDir) throw new Error('usage: database-template.ts <pglite-dir> [postgres-admin-url]');
  const [, postgres] = await Promise.all([buildPgliteTemplate(pgliteDir), adminUrl ? buildPostgresTemplate(adminUrl) : undefined]);
  process.stdout.write(`${JSON.stringify({ postgres: postgres ?? null })}\n`);
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
