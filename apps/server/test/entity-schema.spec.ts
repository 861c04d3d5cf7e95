import { useTestApp } from './support';

/** information_schema's name (udt_name) of each column type the entities declare. */
const UDT_OF: Record<string, string> = {
  uuid: 'uuid',
  timestamptz: 'timestamptz',
  char: 'bpchar',
  varchar: 'varchar',
  text: 'text',
  integer: 'int4',
  bigint: 'int8',
  boolean: 'bool',
  json: 'json',
  jsonb: 'jsonb',
};

interface TableColumn {
  table_name: string;
  column_name: string;
  udt_name: string;
  character_maximum_length: number | null;
  is_nullable: 'YES' | 'NO';
  primary_key: boolean;
}

/**
 * The entities describe the tables the migrations create (synchronize is off, so nothing else keeps them in step):
 * every column an entity maps, through the shared bases and column decorators of database/columns.ts, is a column of
 * its table with the same type, length, nullability and key. Runs on the app's own migrated database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL).
 */
describe('entities and the migrated schema', () => {
  const t = useTestApp();

  it('every entity column is a column of its table with the same type, length, nullability and key', async () => {
    const rows: TableColumn[] = await t.dataSource.query(
      `SELECT c.table_name, c.column_name, c.udt_name, c.character_maximum_length, c.is_nullable,
              EXISTS (SELECT 1 FROM information_schema.table_constraints k JOIN information_schema.key_column_usage u
                        ON u.constraint_name = k.constraint_name AND u.table_schema = k.table_schema AND u.table_name = k.table_name
                       WHERE k.constraint_type = 'PRIMARY KEY' AND k.table_schema = c.table_schema AND k.table_name = c.table_name
                         AND u.column_name = c.column_name) AS primary_key
         FROM information_schema.columns c WHERE c.table_schema = 'public'`,
    );
    const inDatabase = new Map(rows.map((row) => [`${row.table_name}.${row.column_name}`, row]));
    const described = t.dataSource.entityMetadatas.flatMap((entity) =>
      entity.columns.map((column) => ({
        column: `${entity.tableName}.${column.databaseName}`,
        type: UDT_OF[String(column.type)] ?? `unmapped ${String(column.type)}`,
        length: column.length || null,
        nullable: column.isNullable,
        primary: column.isPrimary,
      })),
    );
    // Not vacuous: every module's tables, and the columns the shared bases add.
    expect(t.dataSource.entityMetadatas.length).toBeGreaterThan(20);
    expect(described.map((column) => column.column)).toEqual(expect.arrayContaining(['api_tokens.token_hash', 'scim_tokens.revoked_at', 'embed_links.last_used_at', 'diagram_drafts.updated_by_token_id', 'diagram_arrangements.updated_at']));

    const migrated = described.map(({ column }) => {
      const row = inDatabase.get(column);
      if (!row) return { column, type: 'no such column' };
      return { column, type: row.udt_name, length: row.character_maximum_length === null ? null : String(row.character_maximum_length), nullable: row.is_nullable === 'YES', primary: row.primary_key };
    });
    expect(migrated).toEqual(described);
  });
});
