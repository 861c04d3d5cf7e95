import type { SqlTable } from '@sc/contracts';
import { loadPostgresParser, parsePostgresSchema } from '@sc/diagram/node';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Real `pg_dump --schema-only` output (PostgreSQL 15.20) of the database pg-dump-fixture.sql builds: every object kind. */
const DUMP = readFileSync(join(__dirname, '../../../test/artifacts/fixtures/pg-dump-schema-only.sql'), 'utf8');
/**
 * Real `pg_dump --schema-only --no-owner` output (PostgreSQL 15.20) of this service's own database after its
 * migrations, written by test/artifacts/service-schema-dump.ts; service-schema-dump.postgres.spec.ts checks it against
 * a fresh dump and the catalog (CI's PostgreSQL step).
 */
const SERVICE_DUMP = readFileSync(join(__dirname, '../../../test/artifacts/fixtures/pg-dump-service-schema.sql'), 'utf8');

function tablesOf(sql: string): SqlTable[] {
  const result = parsePostgresSchema(sql);
  if (!result.ok) throw new Error(result.message);
  return result.tables;
}

const column = (name: string, type: string, extra: Partial<SqlTable['columns'][number]> = {}) => ({ name, type, nullable: true, primaryKey: false, unique: false, default: null, references: null, ...extra });

describe('parsePostgresSchema (libpg-query)', () => {
  beforeAll(() => loadPostgresParser());

  it('reads every statement of a real pg_dump --schema-only without error: tables, keys, partitions, views, comments; skips the rest', () => {
    expect(DUMP).toContain('\\restrict ');
    for (const skipped of ['CREATE FUNCTION', 'BEGIN ATOMIC', 'CREATE TRIGGER', 'GRANT SELECT', 'CREATE POLICY', 'CREATE RULE', 'CREATE TYPE', 'CREATE DOMAIN', 'CREATE SEQUENCE', 'ATTACH PARTITION']) {
      expect({ skipped, inDump: DUMP.includes(skipped) }).toEqual({ skipped, inDump: true });
    }
    const tables = tablesOf(DUMP);
    expect(tables.map((table) => [table.name, table.kind ?? 'table']).sort()).toEqual([
      ['billing.invoices', 'table'],
      ['billing.invoices_2026', 'table'],
      ['public.audit_events', 'table'],
      ['public.customer_totals', 'view'],
      ['public.customers', 'table'],
      ['public.open_orders', 'view'],
      ['public.order_lines', 'table'],
      ['public.orders', 'table'],
      ['public.shipments', 'table'],
    ]);
    const byName = new Map(tables.map((table) => [table.name, table]));
    expect(byName.get('public.customers')).toEqual({
      name: 'public.customers',
      primaryKey: ['id'],
      comment: 'People who order; "quoted" and ; semicolons inside',
      columns: [
        // bigserial: pg_dump writes the column, its sequence and an ALTER … SET DEFAULT nextval(…).
        column('id', 'bigint', { nullable: false, primaryKey: true, default: "nextval(CAST('public.customers_id_seq' AS regclass))" }),
        column('email', 'public.email', { nullable: false, unique: true, comment: 'Unique per customer' }),
        column('name', 'varchar(200)', { nullable: false, default: "'anonymous'::varchar" }),
        column('tags', 'text[]', { default: "CAST('{}' AS text[])" }),
        column('created_at', 'timestamp with time zone', { nullable: false, default: 'now()' }),
      ],
    });
    expect(byName.get('public.orders')?.columns.map((c) => [c.name, c.type, c.nullable, c.default, c.references])).toEqual([
      ['id', 'uuid', false, 'gen_random_uuid()', null],
      ['customer_id', 'bigint', false, null, 'public.customers.id'],
      ['status', 'public.order_status', false, "CAST('new' AS public.order_status)", null],
      ['total', 'numeric(10, 2)', false, null, null],
      ['placed_at', 'timestamp with time zone', true, null, null],
      ['note', 'text', true, null, null],
    ]);
    expect(byName.get('public.order_lines')).toMatchObject({ primaryKey: ['order_id', 'line_no'], columns: [{ name: 'order_id', references: 'public.orders.id' }, {}, {}, { name: 'quantity', default: '1' }] });
    // A unique index on one column marks it unique; the two-column one does not.
    expect(byName.get('public.shipments')?.columns[1]).toMatchObject({ name: 'tracking_code', unique: true });
    expect(byName.get('public.order_lines')?.columns.find((c) => c.name === 'sku')?.unique).toBe(false);
    expect(byName.get('billing.invoices')).toMatchObject({ primaryKey: ['number', 'issued_on'], columns: [{ name: 'number', default: "nextval(CAST('public.invoice_number_seq' AS regclass))" }, { name: 'order_id', references: 'public.orders.id' }, {}, { name: 'amount', type: 'public.money_amount' }] });
    expect(byName.get('billing.invoices_2026')?.primaryKey).toEqual(['number', 'issued_on']);
    expect(byName.get('public.audit_events')?.columns.map((c) => c.default)).toEqual(['GENERATED ALWAYS AS IDENTITY', null, "GENERATED ALWAYS AS (CAST(payload ->> 'cents'::text AS bigint)) STORED"]);
    expect(byName.get('public.open_orders')).toEqual({ name: 'public.open_orders', kind: 'view', primaryKey: [], columns: [column('id', ''), column('customer_id', ''), column('total', '')] });
    expect(byName.get('public.customer_totals')?.columns.map((c) => c.name)).toEqual(['customer_id', 'total']);
  });

  it('reads every table of the real pg_dump of the service\'s own database, with its keys', () => {
    expect(SERVICE_DUMP).toContain('-- Dumped by pg_dump version');
    const tables = tablesOf(SERVICE_DUMP);
    expect(tables.map((table) => table.name).sort()).toEqual([
      'public.api_tokens',
      'public.artifact_blobs',
      'public.artifact_versions',
      'public.audit_events',
      'public.diagram_arrangements',
      'public.diagram_drafts',
      'public.diagram_layouts',
      'public.embed_links',
      'public.memberships',
      'public.migrations',
      'public.oauth_states',
      'public.organizations',
      'public.preview_artifacts',
      'public.revision_artifacts',
      'public.saml_assertions',
      'public.scim_groups',
      'public.scim_tokens',
      'public.scim_users',
      'public.search_entries',
      'public.service_previews',
      'public.service_revisions',
      'public.services',
      'public.sessions',
      'public.sign_in_links',
      'public.sso_audit_events',
      'public.sso_identities',
      'public.sso_providers',
      'public.users',
      'public.verified_domains',
    ]);
    const byName = new Map(tables.map((table) => [table.name, table]));
    expect(byName.get('public.revision_artifacts')?.primaryKey).toEqual(['revision_id', 'kind', 'name']);
    expect(byName.get('public.revision_artifacts')?.columns.map((c) => [c.name, c.type, c.nullable, c.references])).toEqual([
      ['revision_id', 'uuid', false, 'public.service_revisions.id'],
      ['kind', 'varchar(32)', false, null],
      ['name', 'varchar(100)', false, null],
      ['version_id', 'uuid', false, 'public.artifact_versions.id'],
    ]);
    expect(byName.get('public.users')?.columns.find((c) => c.name === 'email')).toMatchObject({ unique: true, nullable: false });
  });

  it('gives a PARTITION OF table its parent\'s columns', () => {
    const tables = tablesOf(`CREATE TABLE m (id int PRIMARY KEY, at date NOT NULL) PARTITION BY RANGE (at);
CREATE TABLE m_2026 PARTITION OF m FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');`);
    expect(tables[1]).toMatchObject({ name: 'm_2026', columns: [{ name: 'id', type: 'int' }, { name: 'at', type: 'date', nullable: false }] });
  });

  it('parses in windows: a cut inside a function body, a string or a comment grows the window; an error is placed in the whole text', () => {
    const filler = Array.from({ length: 700 }, (_, i) => `CREATE TABLE f${i} (id int);\n`).join('');
    expect(filler.length).toBeGreaterThan(16 * 1024);
    const body = `CREATE FUNCTION g() RETURNS int LANGUAGE plpgsql AS $$\nBEGIN\n${'  PERFORM 1;\n'.repeat(2000)}  RETURN 1;\nEND;\n$$;\n`;
    const literal = `COMMENT ON TABLE f0 IS '${'a;\n'.repeat(9000)}';\n/* ${'b;\n'.repeat(9000)} */\n`;
    const tables = tablesOf(`${filler}${body}${literal}CREATE TABLE last (id int);\n`);
    expect(tables.map((table) => table.name)).toEqual([...Array.from({ length: 700 }, (_, i) => `f${i}`), 'last']);
    expect(tables[0].comment).toBe('a;\n'.repeat(9000));

    const broken = parsePostgresSchema(`${filler}${filler}CREATE TABLE broken (id int,, name text);\n${filler}`);
    expect(broken).toMatchObject({ ok: false, line: 1401, column: 29 });
  });

  it('blanks the psql meta-commands pg_dump writes and reports other backslashes as errors', () => {
    expect(tablesOf('\\restrict abc\nCREATE TABLE t (id int);\n\\unrestrict abc\n').map((table) => table.name)).toEqual(['t']);
    expect(parsePostgresSchema('CREATE TABLE t (id int);\n\\dt\n')).toMatchObject({ ok: false, line: 2, column: 1 });
  });
});
