/**
 * Worker thread entry of SqlSchemaParseService: parses SQL schemas off the server's event loop. The service names
 * this file; the server's build emits it next to the service as sql-schema-worker.js.
 */
import { loadPostgresParser, parseSqlSchema, serveWorkerJobs, type SqlEngine } from '@sc/diagram/node';

/** Service → thread. */
export interface SqlParseRequest {
  sql: string;
  engine: SqlEngine;
}

// PostgreSQL's parser (WebAssembly) loads when the thread starts, as the pool warms up with the server; the thread tells
// the pool it is ready only once it has loaded, so the load never counts against a parse's SERVICE_SQL_PARSE_TIMEOUT
// (the CLI loads it only for a PostgreSQL schema).
// A failed load is reported by the parse that needs it (parseSqlSchema loads again and throws).
const postgresParser = loadPostgresParser().catch(() => undefined);

serveWorkerJobs(
  async (request: SqlParseRequest) => {
    if (request.engine === 'postgres') await postgresParser;
    return parseSqlSchema(request.sql, request.engine);
  },
  { ready: postgresParser },
);
