import { QueryFailedError } from 'typeorm';

/** True for PostgreSQL's unique_violation (23505), on pg and PGlite alike. */
export function isUniqueViolation(error: unknown): boolean {
  const driverError = error instanceof QueryFailedError ? (error.driverError as { code?: unknown }) : (error as { code?: unknown } | null);
  return driverError?.code === '23505';
}

/** What may be logged about a failed query: never its parameters, PostgreSQL's `detail` (it repeats key values) or parameter values quoted in the message. */
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
 * (`invalid input syntax for type uuid: "…"`). Kept: the SQLSTATE, the schema names PostgreSQL reports
 * (constraint, table, column) and the message with each quoted parameter value replaced by "[REDACTED]".
 * PostgreSQL's own words stay (`invalid byte sequence for encoding "UTF8": 0x00`): a quoted string is a value
 * when it overlaps a parameter's text (either holds the other). Without the parameters (an error that does not
 * carry them) every quoted string but the reported names is replaced, since nothing tells a value apart.
 * Syntax and access-rule errors (class 42) quote the query text, which holds no values, so they stay whole.
 */
export function describeDatabaseError(error: unknown, parameters?: readonly unknown[]): LoggableDatabaseError {
  const driver = (error instanceof QueryFailedError ? error.driverError : error) as DriverError | string | null | undefined;
  if (typeof driver !== 'object' || driver === null) return { message: '[database error without details]' };
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const code = text(driver.code);
  const names = new Set([driver.constraint, driver.table, driver.column, driver.schema, driver.dataType].filter((value): value is string => typeof value === 'string'));
  const values = parameterTexts(error instanceof QueryFailedError && Array.isArray(error.parameters) ? error.parameters : parameters);
  const isValue = (quoted: string) =>
    values === undefined ? !names.has(quoted) : values.some((value) => value.includes(quoted) || (value.length >= MIN_EMBEDDED_VALUE && quoted.includes(value)));
  const rawMessage = text(driver.message) ?? '';
  const message = code?.startsWith('42') ? rawMessage : rawMessage.replace(/"(?:[^"]|"")*"/g, (quoted) => (isValue(quoted.slice(1, -1).replace(/""/g, '"')) ? '"[REDACTED]"' : quoted));
  return { code, message, constraint: text(driver.constraint), table: text(driver.table), column: text(driver.column) };
}

/**
 * A quoted string that holds a whole parameter is a value too (an array or row literal around it); below this
 * length a parameter (a limit of 8, a flag) would match PostgreSQL's own words ("UTF8") by accident.
 */
const MIN_EMBEDDED_VALUE = 3;

/** The parameters as PostgreSQL prints them (arrays and JSON element by element too), or undefined when unknown. */
function parameterTexts(parameters: readonly unknown[] | undefined): string[] | undefined {
  if (parameters === undefined) return undefined;
  const texts: string[] = [];
  const add = (value: unknown): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) return value.forEach(add);
    if (value instanceof Date) return void texts.push(value.toISOString());
    if (Buffer.isBuffer(value)) return void texts.push(value.toString('utf8'), value.toString('hex'));
    texts.push(typeof value === 'object' ? JSON.stringify(value) : String(value));
  };
  parameters.forEach(add);
  return texts;
}
