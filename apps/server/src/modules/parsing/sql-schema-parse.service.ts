import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ArtifactsErrorCode } from '@sc/contracts';
import type { WorkerPool, SqlEngine, SqlSchemaResult } from '@sc/diagram/node';
import { DomainError } from '../../common/errors/domain-error';
import { ParsingConfig } from './parsing.config';
import { serverWorkerPool } from './server-worker-pool';
import { errorFactoryFor } from '../../common/errors/error-status';
import type { SqlParseRequest } from './sql-schema-worker';

// The SQL parser's codes are artifact problems on the wire (ArtifactsErrorCode in @sc/contracts).
const sqlParseError = errorFactoryFor<ArtifactsErrorCode>();

/** A parse that ran out of time: a problem of that schema, reported with the others of the sync (422). */
export interface SqlParseTimedOut {
  ok: false;
  code: ArtifactsErrorCode.SqlParseTimeout;
  message: string;
}

/**
 * Parses SQL schemas (parseSqlSchema) in SERVICE_SQL_PARSE_WORKERS worker threads: node-sql-parser needs seconds
 * for a large schema (8.6 s for 1 MB), which on the request thread stalled every other request. Results are the
 * function's own, copied from the thread. A parse longer than SERVICE_SQL_PARSE_TIMEOUT is stopped (its thread
 * replaced) and answered as SqlParseTimedOut; a dead pool throws sql_parser_unavailable (503, the CLI retries).
 */
@Injectable()
export class SqlSchemaParseService implements OnApplicationShutdown {
  private readonly pool: WorkerPool<SqlParseRequest, SqlSchemaResult>;

  constructor(config: ParsingConfig) {
    this.pool = serverWorkerPool('sql-schema-worker', config.sqlParse, {
      timeout: (timeoutMs) =>
        sqlParseError(ArtifactsErrorCode.SqlParseTimeout, `Parsing the schema took longer than ${timeoutMs} ms and was stopped (SERVICE_SQL_PARSE_TIMEOUT); split it into smaller files or simplify it.`),
      unavailable: (reason) => sqlParseError(ArtifactsErrorCode.SqlParserUnavailable, `The SQL schema parser is unavailable (${reason}); try again.`),
    });
  }

  /** `timeoutMs` overrides SERVICE_SQL_PARSE_TIMEOUT for this parse. */
  async parse(sql: string, engine: SqlEngine, timeoutMs?: number): Promise<SqlSchemaResult | SqlParseTimedOut> {
    try {
      return await this.pool.run({ sql, engine }, timeoutMs);
    } catch (error) {
      if (error instanceof DomainError && error.code === ArtifactsErrorCode.SqlParseTimeout) {
        return { ok: false, code: ArtifactsErrorCode.SqlParseTimeout, message: error.message };
      }
      throw error;
    }
  }

  /** At application shutdown, after in-flight syncs drained (ShutdownService), not at module destroy before it. */
  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
