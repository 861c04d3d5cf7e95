import { parseSqlSchema } from './sql-schema';

describe('parseSqlSchema', () => {
  it('reads PostgreSQL tables, columns, keys, defaults and references with PostgreSQL\'s parser, including pg_dump-style ALTERs', async () => {
    const result = await parseSqlSchema(
      `-- users and orders
CREATE EXTENSION IF NOT EXISTS pgcrypto;
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL UNIQUE,
  amount numeric(10,2),
  tags text[]
);
CREATE TABLE public.orders (id serial, user_id uuid NOT NULL, PRIMARY KEY (id),
  CONSTRAINT orders_user FOREIGN KEY (user_id) REFERENCES users(id));
CREATE INDEX orders_user_idx ON public.orders (user_id);
ALTER TABLE public.orders ADD COLUMN note text;
ALTER TABLE ONLY users ADD CONSTRAINT users_email_key UNIQUE (email);`,
      'postgres',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.tables.map((table) => table.name)).toEqual(['users', 'public.orders']);
    const [users, orders] = result.tables;
    expect(users.primaryKey).toEqual(['id']);
    expect(users.columns).toEqual([
      { name: 'id', type: 'uuid', nullable: false, primaryKey: true, unique: false, default: 'gen_random_uuid()', references: null },
      { name: 'email', type: 'text', nullable: false, primaryKey: false, unique: true, default: null, references: null },
      { name: 'amount', type: 'numeric(10, 2)', nullable: true, primaryKey: false, unique: false, default: null, references: null },
      { name: 'tags', type: 'text[]', nullable: true, primaryKey: false, unique: false, default: null, references: null },
    ]);
    expect(orders.primaryKey).toEqual(['id']);
    expect(orders.columns.map((column) => [column.name, column.type, column.primaryKey, column.nullable, column.references])).toEqual([
      ['id', 'serial', true, false, null],
      ['user_id', 'uuid', false, false, 'users.id'],
      ['note', 'text', false, true, null],
    ]);
  });

  it('reads MySQL backtick DDL with table-level keys, enums and unsigned decimals', async () => {
    const result = await parseSqlSchema(
      "CREATE TABLE `accounts` (`id` int NOT NULL AUTO_INCREMENT, `state` enum('open','closed') NOT NULL DEFAULT 'open', `org_id` int, `balance` decimal(12,2) unsigned, PRIMARY KEY (`id`), CONSTRAINT fk_org FOREIGN KEY (`org_id`) REFERENCES orgs (`id`)) ENGINE=InnoDB;",
      'mysql',
    );
    expect(result).toEqual({
      ok: true,
      tables: [
        {
          name: 'accounts',
          primaryKey: ['id'],
          columns: [
            { name: 'id', type: 'INT', nullable: false, primaryKey: true, unique: false, default: null, references: null },
            { name: 'state', type: "ENUM('open','closed')", nullable: false, primaryKey: false, unique: false, default: "'open'", references: null },
            { name: 'org_id', type: 'INT', nullable: true, primaryKey: false, unique: false, default: null, references: 'orgs.id' },
            { name: 'balance', type: 'DECIMAL(12,2) UNSIGNED', nullable: true, primaryKey: false, unique: false, default: null, references: null },
          ],
        },
      ],
    });
  });

  it('reads SQLite DDL', async () => {
    const result = await parseSqlSchema(
      'CREATE TABLE jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, run_at DATETIME DEFAULT CURRENT_TIMESTAMP);\nCREATE UNIQUE INDEX jobs_name ON jobs(name);',
      'sqlite',
    );
    expect(result.ok && result.tables).toEqual([
      {
        name: 'jobs',
        primaryKey: ['id'],
        columns: [
          { name: 'id', type: 'INTEGER', nullable: false, primaryKey: true, unique: false, default: null, references: null },
          { name: 'name', type: 'TEXT', nullable: false, primaryKey: false, unique: false, default: null, references: null },
          { name: 'run_at', type: 'DATETIME', nullable: true, primaryKey: false, unique: false, default: 'CURRENT_TIMESTAMP', references: null },
        ],
      },
    ]);
  });

  it.each(['postgres', 'mysql', 'sqlite'] as const)('reports a %s syntax error with its line and column', async (engine) => {
    const result = await parseSqlSchema('CREATE TABLE ok (id int);\nCREATE TABLE broken (id int,, name text);', engine);
    expect(result).toMatchObject({ ok: false, line: 2, column: 29 });
    expect(!result.ok && result.message).toMatch(new RegExp(`^The ${engine} schema does not parse at line 2, column 29`));
  });
});
