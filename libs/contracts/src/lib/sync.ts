/**
 * The bundle `service-cli sync` posts to POST /api/v1/gateway/sync (Authorization: Bearer <token with the
 * sync scope>; the body may be gzip-encoded). The server re-validates everything; the CLI validating first
 * only makes CI fail faster.
 */
export const SYNC_BUNDLE_VERSION = 1 as const;

export type ArtifactKind =
  | 'architecture-diagram'
  | 'flow'
  | 'database-schema'
  | 'job-notes'
  | 'job-dependencies'
  | 'service-summary'
  | 'doc'
  | 'api-spec';

export type DatabaseEngine = 'postgres' | 'mysql' | 'sqlite' | 'dynamodb' | 'mongodb';
export type ApiSpecFormat = 'openapi' | 'asyncapi' | 'graphql' | 'protobuf';

/** One file as sent: its repository-relative path, its text and the SHA-256 (hex) of its UTF-8 bytes. */
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
