import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Client } from 'pg';
import type { SqlTable } from '@sc/contracts';
import { buildDataSourceOptions, openDataSource } from '../../src/database/data-source-options';
import { createTestDatabase, withAdminClient } from '../support/test-database';

/**
 * The service's own database schema as PostgreSQL's `pg_dump --schema-only` writes it: a fresh database on the
 * PostgreSQL at TEST_DATABASE_URL, the migrations run on it as the server runs them at start (openDataSource), the
 * real pg_dump binary, and what the catalog says the schema holds, to compare with what the parser reads.
 * pg-dump-service-schema.sql is this dump, checked in so that pg-schema.spec.ts parses a real one without PostgreSQL;
 * service-schema-dump.postgres.spec.ts checks it is still current.
 */
export const SERVICE_SCHEMA_FIXTURE = join(__dirname, 'fixtures/pg-dump-service-schema.sql');

export const REGENERATE_SERVICE_SCHEMA_FIXTURE =
  'Regenerate apps/server/test/artifacts/fixtures/pg-dump-service-schema.sql: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres TS_NODE_PROJECT=apps/server/tsconfig.spec.json node -r ts-node/register/transpile-only -r tsconfig-paths/register apps/server/test/artifacts/service-schema-dump.ts';

/** A table or view as the catalog of the dumped database describes it (the fields the parser also reads). */
export interface CatalogTable {
  name: string;
  kind: 'table' | 'view';
  primaryKey: string[];
  columns: { name: string; nullable: boolean; references: string | null }[];
}

export interface ServiceSchemaDump {
  sql: string;
  /** Every table and view outside the system schemas, by `schema.name`. */
  catalog: CatalogTable[];
}

/** pg_dump of a few MB at most; a stuck connection must not hang the test run. */
const PG_DUMP_TIMEOUT_MS = 120_000;

/** The real `pg_dump --schema-only --no-owner` of the database at `url`, and what its catalog holds. */
export async function dumpSchemaAndCatalog(url: string): Promise<ServiceSchemaDump> {
  const { stdout } = await promisify(execFile)('pg_dump', ['--schema-only', '--no-owner', `--dbname=${url}`], { timeout: PG_DUMP_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
  return { sql: stdout, catalog: await withAdminClient(url, readCatalog) };
}

/** The parser's tables in the catalog's terms (the fields both describe), to compare with readCatalog's. */
export function asCatalog(tables: readonly SqlTable[]): CatalogTable[] {
  return tables
    .map((table) => ({
      name: table.name,
      kind: table.kind ?? ('table' as const),
      primaryKey: table.primaryKey,
      columns: table.columns.map((column) => ({ name: column.name, nullable: column.nullable, references: column.references })),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export async function dumpServiceSchema(adminUrl: string): Promise<ServiceSchemaDump> {
  const database = await createTestDatabase(adminUrl);
  try {
    if (database.config.kind !== 'postgres') throw new Error('dumpServiceSchema needs a PostgreSQL URL');
    const url = database.config.url;
    // TypeORM's own silent logger instead of the server's query logger (which logs every statement outside Nest).
    const dataSource = await openDataSource({ ...(await buildDataSourceOptions(database.config)), logger: undefined, logging: false });
    await dataSource.destroy();
    return await dumpSchemaAndCatalog(url);
  } finally {
    await database.drop();
  }
}

const USER_SCHEMAS = "table_schema NOT IN ('pg_catalog', 'information_schema')";

async function readCatalog(client: Client): Promise<CatalogTable[]> {
  const tables = await client.query<{ name: string; type: string }>(`SELECT table_schema || '.' || table_name AS name, table_type AS type FROM information_schema.tables WHERE ${USER_SCHEMAS} ORDER BY 1`);
  const columns = await client.query<{ table: string; name: string; nullable: string }>(
    `SELECT table_schema || '.' || table_name AS table, column_name AS name, is_nullable AS nullable FROM information_schema.columns WHERE ${USER_SCHEMAS} ORDER BY table_schema, table_name, ordinal_position`,
  );
  const keys = await client.query<{ table: string; name: string }>(
    `SELECT k.table_schema || '.' || k.table_name AS table, k.column_name AS name
       FROM information_schema.table_constraints c
       JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name)
      WHERE c.constraint_type = 'PRIMARY KEY' AND c.${USER_SCHEMAS}
      ORDER BY k.table_schema, k.table_name, k.ordinal_position`,
  );
  // One row per referencing column, with the column it references (multi-column keys pair up by position).
  const references = await client.query<{ table: string; name: string; target: string }>(
    `SELECT src_ns.nspname || '.' || src.relname AS table, src_col.attname AS name,
            dst_ns.nspname || '.' || dst.relname || '.' || dst_col.attname AS target
       FROM pg_constraint con
       CROSS JOIN LATERAL unnest(con.conkey, con.confkey) AS pair(src_attnum, dst_attnum)
       JOIN pg_class src ON src.oid = con.conrelid JOIN pg_namespace src_ns ON src_ns.oid = src.relnamespace
       JOIN pg_class dst ON dst.oid = con.confrelid JOIN pg_namespace dst_ns ON dst_ns.oid = dst.relnamespace
       JOIN pg_attribute src_col ON src_col.attrelid = con.conrelid AND src_col.attnum = pair.src_attnum
       JOIN pg_attribute dst_col ON dst_col.attrelid = con.confrelid AND dst_col.attnum = pair.dst_attnum
      WHERE con.contype = 'f'`,
  );
  const target = new Map(references.rows.map((row) => [`${row.table}.${row.name}`, row.target]));
  if (target.size !== references.rows.length) throw new Error('a column is in two foreign keys: compare them another way');
  return tables.rows
    .map(({ name, type }) => ({
      name,
      kind: type === 'VIEW' ? ('view' as const) : ('table' as const),
      primaryKey: keys.rows.filter((row) => row.table === name).map((row) => row.name),
      columns: columns.rows.filter((row) => row.table === name).map((row) => ({ name: row.name, nullable: row.nullable === 'YES', references: target.get(`${name}.${row.name}`) ?? null })),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

// Run directly: writes the fixture (see REGENERATE_SERVICE_SCHEMA_FIXTURE).
if (require.main === module) {
  const adminUrl = process.env['TEST_DATABASE_URL'];
  if (!adminUrl) throw new Error('set TEST_DATABASE_URL to a PostgreSQL server (a database is created and dropped on it)');
  dumpServiceSchema(adminUrl).then(
    (dump) => writeFileSync(SERVICE_SCHEMA_FIXTURE, dump.sql),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
