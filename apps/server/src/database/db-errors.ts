import { QueryFailedError } from 'typeorm';

/** True for PostgreSQL's unique_violation (23505), on pg and PGlite alike. */
export function isUniqueViolation(error: unknown): boolean {
  const driverError = error instanceof QueryFailedError ? (error.driverError as { code?: unknown }) : (error as { code?: unknown } | null);
  return driverError?.code === '23505';
}

/** What may be logged about a failed query: never its parameters, PostgreSQL's `detail` (it repeats key values) or values quoted in the message. */
export interface LoggableDatabaseError {
  /** SQLSTATE, e.g. 23505. */
  code?: string;
  message: string;
  constraint?: string;
  table?: string;
  column?: string;
}

type DriverError = { code?: unknown; message?: unknown; constraint?: unknown; table?: unknown; column?: unknown; schema?: unknown; dataType?: unknown };

/**
 * Describes a database error without the values it carries. pg and PGlite errors (and TypeORM's
 * QueryFailedError around them) hold the parameters, the `detail` ("Key (email)=(a@b.c) already exists")
 * and the query; data exceptions also quote the offending value in the message
 * (`invalid input syntax for type uuid: "…"`). Only the SQLSTATE, the schema names PostgreSQL reports
 * (constraint, table, column) and the message with every other quoted string replaced are kept.
 * Syntax and access-rule errors (class 42) quote the query text, which holds no values, so they stay whole.
 */
export function describeDatabaseError(error: unknown): LoggableDatabaseError {
  const driver = (error instanceof QueryFailedError ? error.driverError : error) as DriverError | string | null | undefined;
  if (typeof driver !== 'object' || driver === null) return { message: '[database error without details]' };
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const code = text(driver.code);
  const names = new Set([driver.constraint, driver.table, driver.column, driver.schema, driver.dataType].filter((value): value is string => typeof value === 'string'));
  const rawMessage = text(driver.message) ?? '';
  const message = code?.startsWith('42') ? rawMessage : rawMessage.replace(/"(?:[^"]|"")*"/g, (quoted) => (names.has(quoted.slice(1, -1).replace(/""/g, '"')) ? quoted : '"[REDACTED]"'));
  return { code, message, constraint: text(driver.constraint), table: text(driver.table), column: text(driver.column) };
}
