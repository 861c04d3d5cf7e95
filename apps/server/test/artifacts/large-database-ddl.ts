/**
 * The DDL of a large, realistic PostgreSQL database, to be run on a fresh database and dumped with the real
 * `pg_dump --schema-only` (large-pg-dump.postgres.spec.ts): two enum types and a domain, then per table a serial
 * key, a dozen columns of common types (varchar, numeric, arrays, jsonb, uuid, timestamptz, the enums and the domain),
 * NOT NULL and DEFAULT clauses, a unique column, a foreign key to the previous table and one to the first table,
 * three indexes (a plain, a partial and a GIN one), a comment on the table and on every column; every 100 tables a
 * view over the last one. Deterministic: the same count gives the same text, so the dump is the same every run.
 */
export interface LargeDatabaseDdl {
  /** Statements in batches of about 100 tables each (one simple-protocol query per batch). */
  batches: string[];
  tables: number;
  views: number;
}

/** The name of generated table `index` (`public.ledger_00042`). */
export function largeTableName(index: number): string {
  return `public.ledger_${String(index).padStart(5, '0')}`;
}

const TYPES = [
  "CREATE TYPE public.entry_status AS ENUM ('draft', 'posted', 'reversed');",
  "CREATE TYPE public.entry_side AS ENUM ('debit', 'credit');",
  "CREATE DOMAIN public.currency_code AS character(3) CHECK (VALUE ~ '^[A-Z]{3}$');",
].join('\n');

const COLUMNS: ReadonlyArray<{ name: string; definition: string; comment: string }> = [
  { name: 'id', definition: 'bigserial PRIMARY KEY', comment: 'Surrogate key.' },
  { name: 'code', definition: 'varchar(40) NOT NULL UNIQUE', comment: 'Business key, unique per table.' },
  { name: 'status', definition: "public.entry_status NOT NULL DEFAULT 'draft'", comment: 'Lifecycle of the entry.' },
  { name: 'side', definition: 'public.entry_side', comment: 'Debit or credit.' },
  { name: 'amount', definition: 'numeric(14,2) NOT NULL DEFAULT 0', comment: 'Amount in the currency, two decimals.' },
  { name: 'currency', definition: "public.currency_code NOT NULL DEFAULT 'EUR'", comment: 'ISO 4217 code.' },
  { name: 'tags', definition: "text[] DEFAULT '{}'::text[]", comment: 'Free labels.' },
  { name: 'attributes', definition: "jsonb NOT NULL DEFAULT '{}'::jsonb", comment: 'Extra attributes as JSON.' },
  { name: 'external_ref', definition: 'uuid', comment: 'Reference in the partner system.' },
  { name: 'booked_on', definition: 'date', comment: 'Booking date.' },
  { name: 'created_at', definition: 'timestamp with time zone NOT NULL DEFAULT now()', comment: 'When the row was written.' },
  { name: 'parent_id', definition: 'bigint', comment: 'The entry this one follows.' },
  { name: 'root_id', definition: 'bigint', comment: 'The first table of the chain.' },
];

export function largeDatabaseDdl(tableCount: number): LargeDatabaseDdl {
  const batches: string[] = [TYPES];
  let batch: string[] = [];
  let views = 0;
  for (let index = 0; index < tableCount; index += 1) {
    const table = largeTableName(index);
    const short = table.slice('public.'.length);
    const columns = COLUMNS.map((column) => `  ${column.name} ${column.definition}`).join(',\n');
    batch.push(`CREATE TABLE ${table} (\n${columns}\n);`);
    if (index > 0) {
      batch.push(`ALTER TABLE ${table} ADD CONSTRAINT ${short}_parent_fkey FOREIGN KEY (parent_id) REFERENCES ${largeTableName(index - 1)} (id) ON DELETE SET NULL;`);
      batch.push(`ALTER TABLE ${table} ADD CONSTRAINT ${short}_root_fkey FOREIGN KEY (root_id) REFERENCES ${largeTableName(0)} (id);`);
    }
    batch.push(`CREATE INDEX ${short}_created_idx ON ${table} (created_at);`);
    batch.push(`CREATE INDEX ${short}_open_idx ON ${table} (booked_on) WHERE status = 'draft';`);
    batch.push(`CREATE INDEX ${short}_attributes_idx ON ${table} USING gin (attributes);`);
    batch.push(`COMMENT ON TABLE ${table} IS 'Ledger partition ${index}: entries of one book, generated for the large-dump test.';`);
    for (const column of COLUMNS) batch.push(`COMMENT ON COLUMN ${table}.${column.name} IS '${column.comment}';`);
    if (index % 100 === 99) {
      views += 1;
      batch.push(`CREATE VIEW public.posted_${String(index).padStart(5, '0')} AS SELECT id, code, amount, currency FROM ${table} WHERE status = 'posted';`);
    }
    if (index % 100 === 99 || index === tableCount - 1) {
      batches.push(batch.join('\n'));
      batch = [];
    }
  }
  return { batches, tables: tableCount, views };
}
