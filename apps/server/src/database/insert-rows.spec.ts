import { insertRows } from './insert-rows';

describe('insertRows', () => {
  it('writes at most perStatement rows per statement, numbering each statement\'s parameters from $1', async () => {
    const statements: Array<{ values: string; parameters: unknown[] }> = [];
    const rows = Array.from({ length: 5 }, (_, index) => ({ id: index, name: `n${index}` }));
    await insertRows(rows, (row) => [row.id, row.name], async (values, parameters) => void statements.push({ values, parameters }), { perStatement: 2 });
    expect(statements).toEqual([
      { values: '($1, $2), ($3, $4)', parameters: [0, 'n0', 1, 'n1'] },
      { values: '($1, $2), ($3, $4)', parameters: [2, 'n2', 3, 'n3'] },
      { values: '($1, $2)', parameters: [4, 'n4'] },
    ]);
  });

  it('adds a column\'s cast to its placeholders', async () => {
    const statements: string[] = [];
    await insertRows([{ a: 1, b: '{}' }, { a: 2, b: '[]' }], (row) => [row.a, row.b], async (values) => void statements.push(values), { casts: { 1: '::jsonb' } });
    expect(statements).toEqual(['($1, $2::jsonb), ($3, $4::jsonb)']);
  });

  it('writes nothing for no rows', async () => {
    let calls = 0;
    await insertRows([], () => [], async () => void calls++);
    expect(calls).toBe(0);
  });
});
