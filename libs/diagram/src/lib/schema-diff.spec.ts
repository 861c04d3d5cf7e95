import type { SqlColumn, SqlTable } from '@sc/contracts';
import { diffSqlTables } from './schema-diff';

const column = (name: string, type: string, extra: Partial<SqlColumn> = {}): SqlColumn => ({ name, type, nullable: true, primaryKey: false, unique: false, default: null, references: null, ...extra });
const table = (name: string, columns: SqlColumn[], extra: Partial<SqlTable> = {}): SqlTable => ({ name, columns, primaryKey: columns.filter((c) => c.primaryKey).map((c) => c.name), ...extra });

describe('diffSqlTables', () => {
  const orders = table('public.orders', [column('id', 'integer', { primaryKey: true, nullable: false }), column('amount', 'numeric(10, 2)'), column('note', 'text')]);

  it('reports nothing for the same tables, nor for columns only reordered', () => {
    expect(diffSqlTables([orders], [structuredClone(orders)])).toEqual({ changed: false, tables: [] });
    const reordered = { ...orders, columns: [...orders.columns].reverse() };
    expect(diffSqlTables([orders], [reordered])).toEqual({ changed: false, tables: [] });
  });

  it('lists tables added and removed with their columns, sorted by name', () => {
    const refunds = table('public.refunds', [column('id', 'bigint')]);
    const legacy = table('public.legacy', [column('x', 'text')], { kind: 'view' });
    const diff = diffSqlTables([orders, legacy], [refunds, orders]);
    expect(diff.changed).toBe(true);
    expect(diff.tables).toEqual([
      { name: 'public.legacy', status: 'removed', kind: 'view', columns: { added: [], removed: legacy.columns, changed: [] } },
      { name: 'public.refunds', status: 'added', columns: { added: refunds.columns, removed: [], changed: [] } },
    ]);
  });

  it('lists columns added, removed and changed (type, nullability, default, reference) and key and comment changes', () => {
    const after = table(
      'public.orders',
      [column('id', 'integer', { primaryKey: true, nullable: false }), column('tenant', 'uuid', { primaryKey: true, nullable: false }), column('amount', 'numeric(12, 2)', { nullable: false, default: '0' })],
      { primaryKey: ['id', 'tenant'], comment: 'Orders' },
    );
    const [change] = diffSqlTables([orders], [after]).tables;
    expect(change).toMatchObject({
      name: 'public.orders',
      status: 'changed',
      columns: {
        added: [expect.objectContaining({ name: 'tenant', type: 'uuid' })],
        removed: [expect.objectContaining({ name: 'note' })],
        changed: [{ name: 'amount', fields: ['default', 'nullable', 'type'], before: expect.objectContaining({ type: 'numeric(10, 2)', nullable: true }), after: expect.objectContaining({ type: 'numeric(12, 2)', nullable: false }) }],
      },
      primaryKey: { before: ['id'], after: ['id', 'tenant'] },
      comment: { before: null, after: 'Orders' },
    });
    expect(change?.kindChanged).toBeUndefined();
  });
});
