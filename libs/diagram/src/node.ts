// Node-only entry point: Mermaid parsing with a DOM shim, and the one validation routine
// the CLI (before sending) and the server (re-validating) share.
export { parseMermaid, DEFAULT_MAX_DIAGRAM_BYTES, MERMAID_ENGINE_VERSION, type ParseMermaidOptions, type ParseMermaidResult } from './node/parse-mermaid';
export {
  validateDiagramWithContext,
  type ValidateDiagramOptions,
  type ValidateDiagramResult,
} from './node/validate';
export {
  MermaidWorkerPool,
  MermaidPoolError,
  MermaidPoolErrorCode,
  WorkerPool,
  createParserWorker,
  startWorkerThread,
  type WorkerPoolErrors,
  type WorkerPoolOptions,
} from './node/worker-pool';
export { serveWorkerJobs } from './node/worker-thread';
export { isSqlEngine, parseSqlSchema, type SqlEngine, type SqlSchemaResult } from './node/sql-schema';
export { loadPostgresParser, parsePostgresSchema, type PostgresSchemaResult } from './node/pg-schema';
