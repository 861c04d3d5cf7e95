import { QueryFailedError } from 'typeorm';

/** True for PostgreSQL's unique_violation (23505), on pg and PGlite alike. */
export function isUniqueViolation(error: unknown): boolean {
  const driverError = error instanceof QueryFailedError ? (error.driverError as { code?: unknown }) : (error as { code?: unknown } | null);
  return driverError?.code === '23505';
}
