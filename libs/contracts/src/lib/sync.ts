/**
 * The bundle `service-cli sync` posts to POST /api/v1/gateway/sync (Authorization: Bearer <token with the
 * sync scope>; the body may be gzip-encoded). The server re-validates everything; the CLI validating first
 * only makes CI fail faster.
 */
export const SYNC_BUNDLE_VERSION = 1 as const;

/** Runtime lists of the unions below, so both sides validate against one source. */
export const ARTIFACT_KINDS = [
  'architecture-diagram',
  'flow',
  'database-schema',
  'job-notes',
  'job-dependencies',
  'service-summary',
  'doc',
  'api-spec',
] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** Kinds whose main file is Mermaid source that both sides parse. */
export const MERMAID_ARTIFACT_KINDS: readonly ArtifactKind[] = ['architecture-diagram', 'flow', 'job-dependencies'];

export const DATABASE_ENGINES = ['postgres', 'mysql', 'sqlite', 'dynamodb', 'mongodb'] as const;
export type DatabaseEngine = (typeof DATABASE_ENGINES)[number];
/** Engines whose schema file is SQL DDL (`.sql`); the others are JSON (`.json`). */
export const SQL_DATABASE_ENGINES: readonly DatabaseEngine[] = ['postgres', 'mysql', 'sqlite'];

export const API_SPEC_FORMATS = ['openapi', 'asyncapi', 'graphql', 'protobuf'] as const;
export type ApiSpecFormat = (typeof API_SPEC_FORMATS)[number];

/**
 * One file as sent: its path relative to the directory holding .service.yaml (normalized, forward slashes,
 * never absolute, never `..`; see isNormalizedRepositoryPath), its text and the SHA-256 (lowercase hex) of
 * its UTF-8 bytes.
 */
export interface SyncFile {
  path: string;
  content: string;
  sha256: string;
}

/**
 * One artifact. `name` is unique per kind within a sync. `file` is the main file (Mermaid source, schema,
 * markdown...). Companion files travel with their artifact: a diagram's context JSON, a flow's or a
 * database's notes markdown.
 */
export interface SyncArtifact {
  kind: ArtifactKind;
  name: string;
  file: SyncFile;
  context?: SyncFile;
  notes?: SyncFile;
  engine?: DatabaseEngine;
  format?: ApiSpecFormat;
}

/**
 * The gateway's default limits (the server can be configured higher or lower through SERVICE_SYNC_MAX_*);
 * sizes are UTF-8 bytes of the file contents. The CLI warns before sending when a bundle exceeds them.
 */
export const DEFAULT_SYNC_LIMITS = {
  maxFileBytes: 1024 * 1024,
  maxSyncBytes: 20 * 1024 * 1024,
  maxArtifacts: 500,
} as const;

export interface SyncServiceMetadata {
  name: string;
  description?: string;
  /** Without credentials: the CLI strips user:password@ before sending. */
  repositoryUrl?: string;
}

export interface SyncBundle {
  version: typeof SYNC_BUNDLE_VERSION;
  service: SyncServiceMetadata;
  artifacts: SyncArtifact[];
}

export interface SyncArtifactRef {
  kind: ArtifactKind;
  name: string;
}

export interface SyncResult {
  organizationId: string;
  service: string;
  /** The service's current revision after this sync (unchanged when nothing changed). */
  revision: number;
  status: 'created' | 'unchanged';
  created: SyncArtifactRef[];
  updated: SyncArtifactRef[];
  unchanged: SyncArtifactRef[];
  removed: SyncArtifactRef[];
}

/**
 * A 422 from the gateway carries one detail per problem:
 * `{ code, message, artifact: { kind, name }, file, line?, column?, path? }` where `path` is a JSON path
 * into a context file and `line`/`column` point into the named file.
 */
export interface SyncProblemDetail {
  code: string;
  message: string;
  artifact?: SyncArtifactRef;
  file?: string;
  line?: number;
  column?: number;
  path?: string;
}
