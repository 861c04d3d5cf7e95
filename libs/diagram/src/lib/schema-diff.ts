import type { SqlColumn, SqlTable } from '@sc/contracts';
import { deepEqual, diffKeyed } from './graph-diff';

/** A column that differs between two schemas: the fields that differ (type, nullable, default …) and both sides. */
export interface SchemaColumnChange {
  name: string;
  fields: Array<keyof SqlColumn>;
  before: SqlColumn;
  after: SqlColumn;
}

export interface SchemaTableChange {
  /** Schema-qualified when the DDL qualifies it (`public.orders`). */
  name: string;
  status: 'added' | 'removed' | 'changed';
  /** `view` for a view or materialized view (of the new side, else the old). */
  kind?: 'view';
  /** Added: every column of the new table; removed: every column of the old one. */
  columns: { added: SqlColumn[]; removed: SqlColumn[]; changed: SchemaColumnChange[] };
  /** Present when the primary key differs (a changed table only). */
  primaryKey?: { before: string[]; after: string[] };
  /** Present when the table's comment differs (a changed table only). */
  comment?: { before: string | null; after: string | null };
  /** Present when a table became a view or the reverse. */
  kindChanged?: boolean;
}

export interface SchemaDiff {
  changed: boolean;
  /** Only the tables that differ, by name. */
  tables: SchemaTableChange[];
}

/**
 * Compares two schemas' table models (what the server's and the CLI's SQL parsers read): tables matched by name,
 * columns by name within a table. Column order is not compared (a reader of the schema page sees the same table).
 */
export function diffSqlTables(before: readonly SqlTable[], after: readonly SqlTable[]): SchemaDiff {
  const byName = (tables: readonly SqlTable[]) => new Map(tables.map((table) => [table.name, table]));
  const diff = diffKeyed(byName(before), byName(after));
  const tables: SchemaTableChange[] = [
    ...diff.added.map((table): SchemaTableChange => ({ name: table.name, status: 'added', ...viewKind(table), columns: { added: table.columns, removed: [], changed: [] } })),
    ...diff.removed.map((table): SchemaTableChange => ({ name: table.name, status: 'removed', ...viewKind(table), columns: { added: [], removed: table.columns, changed: [] } })),
    ...diff.changed.map(({ before: old, after: current }) => tableChange(old, current)),
  ].filter((table): table is SchemaTableChange => table !== undefined);
  tables.sort((a, b) => a.name.localeCompare(b.name));
  return { changed: tables.length > 0, tables };
}

/** Undefined when only the columns' order differs. */
function tableChange(before: SqlTable, after: SqlTable): SchemaTableChange | undefined {
  const byName = (columns: readonly SqlColumn[]) => new Map(columns.map((column) => [column.name, column]));
  const columns = diffKeyed(byName(before.columns), byName(after.columns));
  const change: SchemaTableChange = {
    name: after.name,
    status: 'changed',
    ...viewKind(after),
    columns: {
      added: columns.added,
      removed: columns.removed,
      changed: columns.changed.map((column) => ({ name: column.after.name, fields: column.fields as Array<keyof SqlColumn>, before: column.before, after: column.after })),
    },
    ...(deepEqual(before.primaryKey, after.primaryKey) ? {} : { primaryKey: { before: before.primaryKey, after: after.primaryKey } }),
    ...(before.comment === after.comment ? {} : { comment: { before: before.comment ?? null, after: after.comment ?? null } }),
    ...(before.kind === after.kind ? {} : { kindChanged: true }),
  };
  const differs = columns.added.length + columns.removed.length + columns.changed.length > 0 || change.primaryKey || change.comment || change.kindChanged;
  return differs ? change : undefined;
}

function viewKind(table: SqlTable): { kind?: 'view' } {
  return table.kind === 'view' ? { kind: 'view' } : {};
}
