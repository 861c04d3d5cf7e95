import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DatabaseConfig } from '../../src/config/app-config';

export interface TestDatabase {
  config: DatabaseConfig;
  drop(): Promise<void>;
}

/**
 * A fresh empty database: in-memory PGlite by default; with TEST_DATABASE_URL (e.g.
 * postgres://postgres@127.0.0.1:5432/postgres) a new `sc_test_<random>` database on that server (a copy of
 * `template` when given), dropped again by `drop()`. Nothing depends on state left by other tests.
 * Test apps start from a migrated copy instead (createMigratedTestDatabase).
 */
export async function createTestDatabase(adminUrl = process.env['TEST_DATABASE_URL'], template?: string): Promise<TestDatabase> {
  if (!adminUrl) return { config: { kind: 'pglite', dataDir: null }, drop: async () => undefined };
  const name = `sc_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    config: { kind: 'postgres', url: url.toString() },
    drop: () => withAdminClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** Runs `work` on a connection to `url` (e.g. the server's maintenance database), closed afterwards. */
export async function withAdminClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
