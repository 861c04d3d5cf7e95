// Runs in the server's SQL parser threads (apps/server sql-schema-worker.ts) and in service-cli diff.
import { isPlainObject, type DatabaseEngine } from '@sc/contracts/core';
import type { SqlColumn, SqlTable } from '@sc/contracts';
import { loadPostgresParser, parsePostgresSchema } from './pg-schema';

/**
 * Reads tables and columns out of SQL DDL. PostgreSQL schemas go to PostgreSQL's own parser (pg-schema.ts,
 * libpg-query). MySQL and SQLite go to node-sql-parser (one grammar per engine): CREATE TABLE defines a table;
 * ALTER TABLE … ADD COLUMN / ADD CONSTRAINT amends it; other statements (indexes, views, …) are accepted and ignored.
 * A large schema takes seconds, so the server runs this in worker threads (SqlSchemaParseService); service-cli
 * diff runs it in its own process to compare schemas table by table.
 */

export type SqlEngine = Extract<DatabaseEngine, 'postgres' | 'mysql' | 'sqlite'>;

export type SqlSchemaResult =
  | { ok: true; tables: SqlTable[] }
  | { ok: false; message: string; line?: number; column?: number };

type SqlParserEngine = Exclude<SqlEngine, 'postgres'>;

type ParserModule = { Parser: new () => SqlParser };

/** Literal requires, so the CLI's bundler (apps/cli/scripts/pack.mjs) packs exactly these two grammars. */
const GRAMMAR: Record<SqlParserEngine, { load: () => ParserModule; database: string }> = {
  mysql: { load: () => require('node-sql-parser/build/mysql') as ParserModule, database: 'mysql' },
  sqlite: { load: () => require('node-sql-parser/build/sqlite') as ParserModule, database: 'sqlite' },
};

interface SqlParser {
  astify(sql: string, options: { database: string }): unknown;
  exprToSQL(expr: unknown, options: { database: string }): string;
}

// Each grammar is a large generated parser; load a dialect only when a schema of that engine arrives.
const parsers = new Map<SqlParserEngine, SqlParser>();

function parserFor(engine: SqlParserEngine): SqlParser {
  let parser = parsers.get(engine);
  if (!parser) {
    const { Parser } = GRAMMAR[engine].load();
    parser = new Parser();
    parsers.set(engine, parser);
  }
  return parser;
}

export function isSqlEngine(engine: DatabaseEngine): engine is SqlEngine {
  return engine === 'postgres' || engine in GRAMMAR;
}

type Node = Record<string, unknown>;

export async function parseSqlSchema(sql: string, engine: SqlEngine): Promise<SqlSchemaResult> {
  if (engine === 'postgres') {
    await loadPostgresParser();
    return parsePostgresSchema(sql);
  }
  return parseWithSqlParser(sql, engine);
}

function parseWithSqlParser(sql: string, engine: SqlParserEngine): SqlSchemaResult {
  const parser = parserFor(engine);
  const options = { database: GRAMMAR[engine].database };
  let ast: unknown;
  try {
    ast = parser.astify(sql, options);
  } catch (error) {
    return syntaxProblem(error, engine);
  }
  const tables = new Map<string, SqlTable>();
  const tableFor = (ref: unknown): SqlTable => {
    const name = tableName(ref);
    let table = tables.get(name);
    if (!table) {
      table = { name, columns: [], primaryKey: [] };
      tables.set(name, table);
    }
    return table;
  };
  const toSql = (expr: unknown) => parser.exprToSQL(expr, options);

  for (const statement of (Array.isArray(ast) ? ast : [ast]) as Node[]) {
    const targets = statement['table'];
    if (statement['keyword'] !== 'table' || !Array.isArray(targets) || targets.length === 0) continue;
    if (statement['type'] === 'create') {
      const table = tableFor(targets[0]);
      for (const definition of (statement['create_definitions'] ?? []) as Node[]) applyDefinition(table, definition, toSql);
    } else if (statement['type'] === 'alter') {
      const table = tableFor(targets[0]);
      for (const action of (statement['expr'] ?? []) as Node[]) {
        if (action['action'] !== 'add') continue;
        if (action['resource'] === 'column') applyDefinition(table, action, toSql);
        else if (isPlainObject(action['create_definitions'])) applyDefinition(table, action['create_definitions'], toSql);
      }
    }
  }
  return { ok: true, tables: [...tables.values()] };
}

function applyDefinition(table: SqlTable, definition: Node, toSql: (expr: unknown) => string): void {
  if (definition['resource'] === 'column') {
    const column = readColumn(definition, toSql);
    table.columns = table.columns.filter((existing) => existing.name !== column.name).concat(column);
    if (column.primaryKey && !table.primaryKey.includes(column.name)) table.primaryKey.push(column.name);
    return;
  }
  if (definition['resource'] !== 'constraint') return;
  const columns = ((definition['definition'] ?? []) as unknown[]).map(columnName);
  const type = String(definition['constraint_type'] ?? '').toLowerCase();
  if (type === 'primary key') {
    table.primaryKey = columns;
    for (const column of table.columns) {
      if (columns.includes(column.name)) Object.assign(column, { primaryKey: true, nullable: false });
    }
  } else if (type.startsWith('unique') && columns.length === 1) {
    const column = table.columns.find((candidate) => candidate.name === columns[0]);
    if (column) column.unique = true;
  } else if (type === 'foreign key') {
    const target = referenceTarget(definition['reference_definition']);
    columns.forEach((name, index) => {
      const column = table.columns.find((candidate) => candidate.name === name);
      if (column && target) column.references = `${target.table}.${target.columns[index] ?? target.columns[0] ?? ''}`;
    });
  }
}

function readColumn(definition: Node, toSql: (expr: unknown) => string): SqlColumn {
  const name = columnName(definition['column']);
  const nullable = definition['nullable'] as Node | null | undefined;
  const defaultValue = definition['default_val'] as Node | null | undefined;
  const target = referenceTarget(definition['reference_definition']);
  const primaryKey = Boolean(definition['primary_key'] ?? definition['primary']);
  return {
    name,
    type: dataTypeText(definition['definition'] as Node | undefined),
    // A primary key column is NOT NULL whether or not the DDL says so.
    nullable: !primaryKey && String(nullable?.['type'] ?? '').toLowerCase() !== 'not null',
    primaryKey,
    unique: Boolean(definition['unique']),
    default: defaultValue ? safeSql(() => toSql(defaultValue['value'])) : null,
    references: target ? `${target.table}.${target.columns[0] ?? ''}` : null,
  };
}

function dataTypeText(definition: Node | undefined): string {
  if (!definition) return '';
  let text = String(definition['dataType'] ?? '');
  if (typeof definition['length'] === 'number') {
    text += typeof definition['scale'] === 'number' ? `(${definition['length']},${definition['scale']})` : `(${definition['length']})`;
  }
  const values = (definition['expr'] as Node | undefined)?.['value'];
  if (Array.isArray(values)) text += `(${values.map((value) => `'${String((value as Node)['value'])}'`).join(',')})`;
  const suffix = definition['suffix'];
  if (Array.isArray(suffix) && suffix.length > 0) text += ` ${suffix.filter((part) => typeof part === 'string').join(' ')}`;
  return text.trim();
}

function referenceTarget(reference: unknown): { table: string; columns: string[] } | undefined {
  if (!isPlainObject(reference) || !Array.isArray(reference['table']) || reference['table'].length === 0) return undefined;
  return {
    table: tableName(reference['table'][0]),
    columns: ((reference['definition'] ?? []) as unknown[]).map(columnName),
  };
}

/** Column references come as a plain string or `{expr:{value}}`. */
function columnName(ref: unknown): string {
  if (typeof ref === 'string') return ref;
  if (!isPlainObject(ref)) return '';
  const column = ref['column'] ?? ref['expr'] ?? ref['value'];
  return column === ref ? '' : columnName(column);
}

function tableName(ref: unknown): string {
  if (!isPlainObject(ref)) return '';
  const schema = ref['db'] ?? ref['schema'];
  return typeof schema === 'string' && schema !== '' ? `${schema}.${String(ref['table'])}` : String(ref['table']);
}

function syntaxProblem(error: unknown, engine: SqlParserEngine): SqlSchemaResult {
  const location = isPlainObject(error) && isPlainObject(error['location']) ? (error['location']['start'] as Node | undefined) : undefined;
  const found = error instanceof Error ? error.message.replace(/^Expected .* but (.*) found\.$/s, 'unexpected $1') : String(error);
  const where = location ? ` at line ${String(location['line'])}, column ${String(location['column'])}` : '';
  return {
    ok: false,
    message: `The ${engine} schema does not parse${where}: ${found}.`,
    ...(typeof location?.['line'] === 'number' ? { line: location['line'] } : {}),
    ...(typeof location?.['column'] === 'number' ? { column: location['column'] } : {}),
  };
}

function safeSql(render: () => string): string | null {
  try {
    return render();
  } catch {
    // A default the printer cannot render is still stored in the schema text; the column just shows none.
    return null;
  }
}
