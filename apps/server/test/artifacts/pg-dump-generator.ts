/**
 * A `pg_dump --schema-only` of a large database, generated: per table the statements pg_dump writes for it (CREATE
 * TABLE, OWNER, a serial's sequence and its DEFAULT, the primary key and a foreign key as ALTER TABLE, an index, a
 * comment, a grant), and every 50 tables a PL/pgSQL trigger function whose body holds `;` line ends, with its trigger.
 * Used by the large-schema integration spec and by `npm run bench:sql-schema`.
 */
export interface GeneratedDump {
  sql: string;
  tables: number;
}

/** The name of table `index` in the generated dump (`public.table_00042`). */
export function generatedTableName(index: number): string {
  return `public.table_${String(index).padStart(5, '0')}`;
}

export function generatePgDump(targetBytes: number): GeneratedDump {
  const parts = [
    '--\n-- PostgreSQL database dump\n--\n\n\\restrict GeneratedRestrictKey\n\n',
    "SET statement_timeout = 0;\nSET client_encoding = 'UTF8';\nSELECT pg_catalog.set_config('search_path', '', false);\n\n",
  ];
  let bytes = parts.join('').length;
  let tables = 0;
  while (bytes < targetBytes) {
    const table = generatedTableName(tables);
    const short = table.slice('public.'.length);
    const parent = tables > 0 ? generatedTableName(tables - 1) : null;
    const statements = [
      `CREATE TABLE ${table} (\n    id bigint NOT NULL,\n    name character varying(200) DEFAULT 'unnamed'::character varying NOT NULL,\n    amount numeric(12,2),\n    tags text[] DEFAULT '{}'::text[],\n    created_at timestamp with time zone DEFAULT now() NOT NULL${parent ? ',\n    parent_id bigint' : ''}\n);\n`,
      `ALTER TABLE ${table} OWNER TO app;\n`,
      `CREATE SEQUENCE ${table}_id_seq\n    START WITH 1\n    INCREMENT BY 1\n    NO MINVALUE\n    NO MAXVALUE\n    CACHE 1;\n`,
      `ALTER SEQUENCE ${table}_id_seq OWNED BY ${table}.id;\n`,
      `ALTER TABLE ONLY ${table} ALTER COLUMN id SET DEFAULT nextval('${table}_id_seq'::regclass);\n`,
      `ALTER TABLE ONLY ${table}\n    ADD CONSTRAINT ${short}_pkey PRIMARY KEY (id);\n`,
      `CREATE INDEX ${short}_name_idx ON ${table} USING btree (name);\n`,
      `COMMENT ON TABLE ${table} IS 'Generated table ${tables}; one of many.';\n`,
      `GRANT SELECT ON TABLE ${table} TO reader;\n`,
    ];
    if (parent) statements.push(`ALTER TABLE ONLY ${table}\n    ADD CONSTRAINT ${short}_parent_fkey FOREIGN KEY (parent_id) REFERENCES ${parent}(id);\n`);
    if (tables % 50 === 0) {
      statements.push(
        `CREATE FUNCTION public.touch_${short}() RETURNS trigger\n    LANGUAGE plpgsql\n    AS $$\nBEGIN\n  NEW.created_at := now();\n  RETURN NEW;\nEND;\n$$;\n`,
        `CREATE TRIGGER ${short}_touch BEFORE UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION public.touch_${short}();\n`,
      );
    }
    const block = statements.map((statement) => `--\n-- Name: ${short}; Type: TABLE; Schema: public; Owner: app\n--\n\n${statement}\n`).join('');
    parts.push(block);
    bytes += block.length;
    tables += 1;
  }
  parts.push('\\unrestrict GeneratedRestrictKey\n');
  return { sql: parts.join(''), tables };
}
