/**
 * Worker thread entry of SqlSchemaParseService: parses SQL schemas off the server's event loop. The service names
 * this file; the server's build emits it next to the service as sql-schema-worker.js.
 */
import { parseSqlSchema, serveWorkerJobs, type SqlEngine } from '@sc/diagram/node';

/** Service → thread. */
export interface SqlParseRequest {
  sql: string;
  engine: SqlEngine;
}

serveWorkerJobs((request: SqlParseRequest) => parseSqlSchema(request.sql, request.engine));
