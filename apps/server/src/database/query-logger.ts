import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';
import { describeDatabaseError } from './db-errors';

/** Long generated statements are cut: the start names the table and the operation. */
const MAX_QUERY_CHARS = 2000;

/**
 * TypeORM's logging through the application's structured logger (pino), so it obeys the log level and format.
 * TypeORM's own loggers print failed queries with every parameter (emails, token hashes, sealed secrets); this
 * one never logs a parameter: the query text (placeholders only), the SQLSTATE and PostgreSQL's message with the
 * parameter values it quotes replaced.
 */
export class StructuredQueryLogger implements TypeOrmLogger {
  private readonly logger = new Logger('Database');

  logQuery(query: string): void {
    this.logger.verbose({ query: shorten(query) }, 'Query');
  }

  logQueryError(error: string | Error, query: string, parameters?: unknown[]): void {
    this.logger.error({ query: shorten(query), ...describeDatabaseError(error, parameters ?? []) }, 'A database query failed');
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ query: shorten(query), durationMs: time }, 'A database query was slow');
  }

  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    if (level === 'warn') this.logger.warn(text);
    else this.logger.log(text);
  }
}

function shorten(query: string): string {
  return query.length > MAX_QUERY_CHARS ? `${query.slice(0, MAX_QUERY_CHARS)}…` : query;
}
