/**
 * Rows per multi-row INSERT by default: with the widest row of the schema (17 parameters) a statement stays far below
 * PostgreSQL's 65535 bind parameters, and each statement stays small enough for PGlite.
 */
export const INSERT_ROWS_PER_STATEMENT = 200;

/**
 * Inserts `rows` with multi-row INSERT statements of at most `perStatement` rows: `insert` receives the VALUES
 * list (`($1, $2), ($3, $4)`) and its parameters, and writes the statement around it (table, columns, ON
 * CONFLICT). `casts` adds a cast to a column's placeholders by its index (`{ 14: '::json' }`).
 */
export async function insertRows<T>(
  rows: readonly T[],
  values: (row: T) => unknown[],
  insert: (valuesList: string, parameters: unknown[]) => Promise<unknown>,
  { perStatement = INSERT_ROWS_PER_STATEMENT, casts = {} }: { perStatement?: number; casts?: Readonly<Record<number, string>> } = {},
): Promise<void> {
  for (let start = 0; start < rows.length; start += perStatement) {
    const parameters: unknown[] = [];
    const tuples = rows.slice(start, start + perStatement).map((row) => {
      const first = parameters.length;
      const columns = values(row);
      parameters.push(...columns);
      return `(${columns.map((_, index) => `$${first + index + 1}${casts[index] ?? ''}`).join(', ')})`;
    });
    await insert(tuples.join(', '), parameters);
  }
}
