// Runs in the server's SQL parser threads (apps/server sql-schema-worker.ts) and in service-cli diff.
import type { SqlColumn, SqlTable } from '@sc/contracts';

/**
 * Reads tables, views and columns out of a PostgreSQL schema with PostgreSQL's own parser: libpg-query is the
 * server's grammar (libpg_query, PostgreSQL 18) compiled to WebAssembly, so whatever `pg_dump --schema-only` writes
 * parses exactly as PostgreSQL parses it. pgsql-deparser prints the types and defaults back as SQL.
 *
 * Read: CREATE TABLE (columns, types, defaults, NOT NULL, identity and generated columns, primary, unique and
 * foreign keys, PARTITION OF a known parent), ALTER TABLE … ADD COLUMN / ADD CONSTRAINT / ALTER COLUMN … SET DEFAULT
 * / ADD GENERATED … AS IDENTITY (the forms pg_dump writes keys and serial defaults in), single-column unique indexes,
 * COMMENT ON TABLE / VIEW / COLUMN, CREATE VIEW and CREATE MATERIALIZED VIEW (named objects, columns by name).
 * Every other statement (functions, triggers, grants, policies, rules, types, sequences, extensions, SET, …) is
 * parsed and skipped. psql meta-commands pg_dump writes (`\restrict`, `\unrestrict`, `\connect`) are blanked first.
 */

type Node = Record<string, unknown>;
type SyntaxProblem = { ok: false; message: string; line?: number; column?: number };
export type PostgresSchemaResult = { ok: true; tables: SqlTable[] } | SyntaxProblem;

/**
 * libpg_query's time grows faster than the text (a 5 MB dump in one call: 9.6 s; in pieces of 4–200 KB: 0.9–2.5 s,
 * same process, load ≈ 20 on the shared 2-core machine), so the schema is parsed in windows of about this many
 * characters, each ending after a `;` at the end of a line.
 */
const WINDOW_CHARS = 16 * 1024;

type Parser = Pick<typeof import('libpg-query'), 'parseSync'> & Pick<typeof import('pgsql-deparser'), 'deparseSync'>;
let parser: Parser | undefined;

/**
 * The WebAssembly module loads once per thread (about 0.2 s). Both packages are loaded here, not at import, so
 * service-cli starts without them (only `diff` of a PostgreSQL schema needs them).
 */
export async function loadPostgresParser(): Promise<void> {
  if (parser) return;
  const [pgQuery, deparser] = await Promise.all([import('libpg-query'), import('pgsql-deparser')]);
  await pgQuery.loadModule();
  parser = { parseSync: pgQuery.parseSync, deparseSync: deparser.deparseSync };
}

function loadedParser(): Parser {
  if (!parser) throw new Error('parsePostgresSchema needs loadPostgresParser() first.');
  return parser;
}

/** Tables and views of a PostgreSQL schema; call (and await) loadPostgresParser() once before. */
export function parsePostgresSchema(sql: string): PostgresSchemaResult {
  const text = sql.replace(/^\\(?:restrict|unrestrict|connect|c)\b.*$/gm, (line) => ' '.repeat(line.length));
  const reader = new SchemaReader();
  for (let start = 0; start < text.length; ) {
    const parsed = parseWindow(text, start);
    if (!parsed.ok) return parsed;
    for (const { stmt } of parsed.stmts) reader.read(stmt);
    start = parsed.end;
  }
  return { ok: true, tables: reader.tables() };
}

type WindowResult = { ok: true; stmts: { stmt: Node }[]; end: number } | SyntaxProblem;

/**
 * Parses the text from `start` to the first `;` at a line end past WINDOW_CHARS. A window cut inside a string, a
 * comment, a function body or parentheses fails at its end ("unterminated …", "… at end of input"): it grows (to
 * twice its size) until the cut falls between statements. Any other error is the schema's own, at its place.
 */
function parseWindow(text: string, start: number): WindowResult {
  for (let size = WINDOW_CHARS; ; size *= 2) {
    const end = statementEndAfter(text, start + size);
    const window = text.slice(start, end);
    if (window.trim() === '') return { ok: true, stmts: [], end };
    try {
      return { ok: true, stmts: (loadedParser().parseSync(window) as { stmts?: { stmt: Node }[] }).stmts ?? [], end };
    } catch (error) {
      const details = (error as { sqlDetails?: { message?: string; cursorPosition?: number } }).sqlDetails;
      const message = details?.message ?? (error as Error).message;
      const cutShort = /^unterminated|at end of input/.test(message);
      if (cutShort && end < text.length) continue;
      return syntaxProblem(text, message, details?.cursorPosition === undefined ? undefined : start + details.cursorPosition);
    }
  }
}

/** Just past the first `;` that ends a line at or after `from`, or the end of the text. */
function statementEndAfter(text: string, from: number): number {
  if (from >= text.length) return text.length;
  const match = /;[ \t]*(?:\r?\n|$)/g;
  match.lastIndex = from;
  const found = match.exec(text);
  return found ? found.index + found[0].length : text.length;
}

function syntaxProblem(text: string, message: string, offset: number | undefined): SyntaxProblem {
  if (offset === undefined) return { ok: false, message: `The postgres schema does not parse: ${message}.` };
  // Lines counted here: this module runs in the parser threads, which load no more than they parse with.
  const before = text.slice(0, Math.min(offset, text.length));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return { ok: false, message: `The postgres schema does not parse at line ${line}, column ${column}: ${message}.`, line, column };
}

/** Collects tables and views statement by statement, in the order the schema defines them. */
class SchemaReader {
  private readonly byName = new Map<string, SqlTable>();

  tables(): SqlTable[] {
    return [...this.byName.values()];
  }

  read(statement: Node): void {
    const [kind, body] = Object.entries(statement)[0] ?? [];
    if (!isNode(body)) return;
    switch (kind) {
      case 'CreateStmt':
        return this.createTable(body);
      case 'AlterTableStmt':
        return this.alterTable(body);
      case 'IndexStmt':
        return this.index(body);
      case 'ViewStmt':
        return this.view(relationName(body['view']), body['query'], names(body['aliases']));
      case 'CreateTableAsStmt': {
        const into = node(body['into']);
        if (body['objtype'] === 'OBJECT_MATVIEW') this.view(relationName(into['rel']), body['query'], names(into['colNames']));
        return;
      }
      case 'CommentStmt':
        return this.comment(body);
      default:
        // Functions, triggers, grants, policies, rules, types, sequences, extensions, SET, …: parsed, not shown.
        return;
    }
  }

  private table(name: string): SqlTable {
    let table = this.byName.get(name);
    if (!table) {
      table = { name, columns: [], primaryKey: [] };
      this.byName.set(name, table);
    }
    return table;
  }

  private createTable(body: Node): void {
    const table = this.table(relationName(body['relation']));
    const elements = list(body['tableElts']);
    const parent = body['partbound'] ? this.byName.get(relationName(list(body['inhRelations'])[0]?.['RangeVar'])) : undefined;
    // PARTITION OF without its own column list has the parent's columns (pg_dump writes them out instead).
    if (parent && !elements.some((element) => element['ColumnDef'])) table.columns = parent.columns.map((column) => ({ ...column }));
    for (const element of elements) {
      if (isNode(element['ColumnDef'])) addColumn(table, element['ColumnDef']);
      else if (isNode(element['Constraint'])) applyConstraint(table, element['Constraint']);
    }
  }

  /** Only adding a column or constraint names a table: pg_dump also writes `ALTER TABLE <sequence> OWNER TO …`. */
  private alterTable(body: Node): void {
    if (body['objtype'] !== 'OBJECT_TABLE') return;
    const name = relationName(body['relation']);
    for (const item of list(body['cmds'])) {
      const command = node(item['AlterTableCmd']);
      const definition = node(command['def']);
      const column = this.byName.get(name)?.columns.find((candidate) => candidate.name === command['name']);
      switch (command['subtype']) {
        case 'AT_AddColumn':
          if (isNode(definition['ColumnDef'])) addColumn(this.table(name), definition['ColumnDef']);
          break;
        case 'AT_AddConstraint':
          if (isNode(definition['Constraint'])) applyConstraint(this.table(name), definition['Constraint']);
          break;
        case 'AT_ColumnDefault':
          if (column) column.default = Object.keys(definition).length > 0 ? sqlText(definition) : null;
          break;
        case 'AT_AddIdentity':
          if (column && isNode(definition['Constraint'])) column.default = identityText(definition['Constraint']);
          break;
        default:
          break;
      }
    }
  }

  /** A unique index on one plain column makes that column unique; other indexes are not shown. */
  private index(body: Node): void {
    const params = list(body['indexParams']).map((param) => node(param['IndexElem']));
    if (!body['unique'] || body['whereClause'] || params.length !== 1 || typeof params[0]['name'] !== 'string') return;
    const column = this.byName.get(relationName(body['relation']))?.columns.find((candidate) => candidate.name === params[0]['name']);
    if (column) column.unique = true;
  }

  private view(name: string, query: unknown, aliases: string[]): void {
    const targets = list(node(node(query)['SelectStmt'])['targetList']).map((target) => node(target['ResTarget']));
    const columnNames = targets.map((target, index) => aliases[index] ?? (typeof target['name'] === 'string' ? target['name'] : lastField(target['val']))).filter((columnName) => columnName !== '');
    this.byName.set(name, {
      name,
      kind: 'view',
      primaryKey: [],
      columns: columnNames.map((columnName) => ({ name: columnName, type: '', nullable: true, primaryKey: false, unique: false, default: null, references: null })),
    });
  }

  private comment(body: Node): void {
    const text = typeof body['comment'] === 'string' ? body['comment'] : undefined;
    const path = names(node(node(body['object'])['List'])['items']);
    if (body['objtype'] === 'OBJECT_COLUMN' && path.length >= 2) {
      const column = this.byName.get(path.slice(0, -1).join('.'))?.columns.find((candidate) => candidate.name === path[path.length - 1]);
      if (column) setComment(column, text);
    } else if (['OBJECT_TABLE', 'OBJECT_VIEW', 'OBJECT_MATVIEW'].includes(String(body['objtype']))) {
      const table = this.byName.get(path.join('.'));
      if (table) setComment(table, text);
    }
  }
}

function addColumn(table: SqlTable, definition: Node): void {
  const name = String(definition['colname'] ?? '');
  const column: SqlColumn = { name, type: typeText(definition['typeName']), nullable: true, primaryKey: false, unique: false, default: null, references: null };
  table.columns = table.columns.filter((existing) => existing.name !== name).concat(column);
  for (const item of list(definition['constraints'])) {
    const constraint = node(item['Constraint']);
    switch (constraint['contype']) {
      case 'CONSTR_NOTNULL':
        column.nullable = false;
        break;
      case 'CONSTR_DEFAULT':
        column.default = sqlText(node(constraint['raw_expr']));
        break;
      case 'CONSTR_IDENTITY':
        column.default = identityText(constraint);
        column.nullable = false;
        break;
      case 'CONSTR_GENERATED':
        column.default = `GENERATED ALWAYS AS (${sqlText(node(constraint['raw_expr'])) ?? ''}) STORED`;
        break;
      case 'CONSTR_PRIMARY':
        setPrimaryKey(table, [name]);
        break;
      case 'CONSTR_UNIQUE':
        column.unique = true;
        break;
      case 'CONSTR_FOREIGN':
        column.references = referenceOf(constraint, 0);
        break;
      default:
        break;
    }
  }
}

/** A table-level constraint (in CREATE TABLE or ALTER TABLE … ADD CONSTRAINT). */
function applyConstraint(table: SqlTable, constraint: Node): void {
  const keys = names(constraint['keys']);
  if (constraint['contype'] === 'CONSTR_PRIMARY') setPrimaryKey(table, keys);
  else if (constraint['contype'] === 'CONSTR_UNIQUE' && keys.length === 1) {
    const column = table.columns.find((candidate) => candidate.name === keys[0]);
    if (column) column.unique = true;
  } else if (constraint['contype'] === 'CONSTR_FOREIGN') {
    names(constraint['fk_attrs']).forEach((name, index) => {
      const column = table.columns.find((candidate) => candidate.name === name);
      if (column) column.references = referenceOf(constraint, index);
    });
  }
}

function setPrimaryKey(table: SqlTable, keys: string[]): void {
  table.primaryKey = keys;
  // A primary key column is NOT NULL whether or not the DDL says so.
  for (const column of table.columns) if (keys.includes(column.name)) Object.assign(column, { primaryKey: true, nullable: false });
}

function referenceOf(constraint: Node, index: number): string {
  const columns = names(constraint['pk_attrs']);
  return `${relationName(constraint['pktable'])}.${columns[index] ?? columns[0] ?? ''}`;
}

function identityText(constraint: Node): string {
  return `GENERATED ${constraint['generated_when'] === 'a' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`;
}

function setComment(target: { comment?: string }, text: string | undefined): void {
  if (text === undefined) delete target.comment;
  else target.comment = text;
}

/** `schema.name` as the DDL wrote it (pg_dump always qualifies), or `name`. */
function relationName(value: unknown): string {
  const relation = node(value);
  const name = String(relation['relname'] ?? '');
  return typeof relation['schemaname'] === 'string' && relation['schemaname'] !== '' ? `${relation['schemaname']}.${name}` : name;
}

/** The strings of a list of `{String: {sval}}` nodes (key and name lists). */
function names(value: unknown): string[] {
  return list(value).map((item) => String(node(item['String'])['sval'] ?? ''));
}

/** The column name a view's select-list entry gets when it has no alias: the last field of a column reference. */
function lastField(value: unknown): string {
  const fields = names(node(node(value)['ColumnRef'])['fields']);
  return fields[fields.length - 1] ?? '';
}

function typeText(typeName: unknown): string {
  return sqlText({ TypeName: typeName }) ?? '';
}

/**
 * Printed types and defaults by their tree without source positions: a dump repeats a few types and defaults
 * thousands of times, and printing costs more than the key. Bounded: past the limit the map starts over.
 */
const printed = new Map<string, string | null>();
const MAX_PRINTED = 10_000;

function sqlText(expression: Node): string | null {
  const key = JSON.stringify(expression, (name, value: unknown) => (name === 'location' ? undefined : value));
  let text = printed.get(key);
  if (text === undefined) {
    try {
      text = loadedParser().deparseSync([expression as never]);
    } catch {
      // An expression the printer cannot render is still in the schema text; the column just shows none.
      text = null;
    }
    if (printed.size >= MAX_PRINTED) printed.clear();
    printed.set(key, text);
  }
  return text;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function node(value: unknown): Node {
  return isNode(value) ? value : {};
}

function list(value: unknown): Node[] {
  return Array.isArray(value) ? value.filter(isNode) : [];
}
