import { readFileSync } from 'node:fs';
import { loadPostgresParser, parsePostgresSchema } from '@sc/diagram/node';
import { asCatalog, dumpServiceSchema, REGENERATE_SERVICE_SCHEMA_FIXTURE, SERVICE_SCHEMA_FIXTURE, type ServiceSchemaDump } from './service-schema-dump';

/**
 * Issue 28 §1: real `pg_dump --schema-only` output of the project's own database, parsed with PostgreSQL's parser.
 * A fresh database gets today's migrations (as the server runs them), the pg_dump binary dumps it, and what the parser
 * reads must be what the catalog holds. Needs a PostgreSQL server and pg_dump: jest.integration.cjs registers
 * *.postgres.spec.ts only with TEST_DATABASE_URL (.ci/run's PostgreSQL step); pg-schema.spec.ts parses the checked-in
 * copy of this dump without PostgreSQL.
 */
describe('pg_dump --schema-only of the service database', () => {
  let dump: ServiceSchemaDump;

  beforeAll(async () => {
    await loadPostgresParser();
    dump = await dumpServiceSchema(process.env['TEST_DATABASE_URL'] ?? '');
  });

  it('parses without a problem, and every table, column, primary key and foreign key the migrations create is read', () => {
    const parsed = parsePostgresSchema(dump.sql);
    if (!parsed.ok) throw new Error(`the dump does not parse: ${parsed.message} (line ${parsed.line}, column ${parsed.column})`);
    // Not vacuous: the catalog holds the tables of every module, keys of several columns and foreign keys.
    expect(dump.catalog.map((table) => table.name)).toEqual(expect.arrayContaining(['public.organizations', 'public.revision_artifacts', 'public.diagram_arrangements', 'public.migrations']));
    expect(dump.catalog.filter((table) => table.primaryKey.length > 1).length).toBeGreaterThan(2);
    expect(dump.catalog.flatMap((table) => table.columns).filter((column) => column.references).length).toBeGreaterThan(20);

    expect(asCatalog(parsed.tables)).toEqual(dump.catalog);
    // The columns flagged primaryKey are the table's key.
    for (const table of parsed.tables) {
      const flagged = table.columns.filter((column) => column.primaryKey).map((column) => column.name);
      expect({ table: table.name, flagged }).toEqual({ table: table.name, flagged: table.columns.map((column) => column.name).filter((name) => table.primaryKey.includes(name)) });
    }
  });

  it('the checked-in dump (pg-schema.spec.ts) has the tables of today\'s migrations', () => {
    const fixture = parsePostgresSchema(readFileSync(SERVICE_SCHEMA_FIXTURE, 'utf8'));
    if (!fixture.ok) throw new Error(fixture.message);
    const inFixture = fixture.tables.map((table) => table.name).sort();
    const created = dump.catalog.map((table) => table.name).sort();
    const missing = created.filter((name) => !inFixture.includes(name));
    const gone = inFixture.filter((name) => !created.includes(name));
    if (missing.length + gone.length > 0) throw new Error(`pg-dump-service-schema.sql is out of date (missing: ${missing.join(', ') || '-'}; no longer created: ${gone.join(', ') || '-'}). ${REGENERATE_SERVICE_SCHEMA_FIXTURE}`);
    expect(inFixture).toEqual(created);
  });
});
