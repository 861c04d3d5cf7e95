import { domainErrorFactory } from '../../common/errors/domain-error';

export enum ArtifactsErrorCode {
  /** The bundle is not the documented shape (missing fields, wrong types, unsupported version). */
  InvalidBundle = 'invalid_bundle',
  /** The bundle is well formed but an artifact is invalid: Mermaid, context, schema, hash, names, paths. */
  SyncValidationFailed = 'sync_validation_failed',
  /** One file is over SERVICE_SYNC_MAX_FILE_BYTES. */
  FileTooLarge = 'sync_file_too_large',
  /** The request (decompressed) or the sum of the files is over SERVICE_SYNC_MAX_BYTES. */
  SyncTooLarge = 'sync_too_large',
  /** More than SERVICE_SYNC_MAX_ARTIFACTS artifacts. */
  TooManyArtifacts = 'sync_too_many_artifacts',
  UnsupportedContentEncoding = 'unsupported_content_encoding',
  UnsupportedMediaType = 'unsupported_media_type',
  ServiceNotFound = 'service_not_found',
  RevisionNotFound = 'revision_not_found',
  ArtifactNotFound = 'artifact_not_found',
  InvalidRevision = 'invalid_revision',
  /** A SQL schema took longer than SERVICE_SQL_PARSE_TIMEOUT to parse (reported as a problem of that artifact). */
  SqlParseTimeout = 'sql_parse_timeout',
  /** A SQL parser thread died or the pool is shutting down; retrying later can succeed. */
  SqlParserUnavailable = 'sql_parser_unavailable',
}

export const artifactsError = domainErrorFactory<ArtifactsErrorCode>({
  [ArtifactsErrorCode.InvalidBundle]: 400,
  [ArtifactsErrorCode.SyncValidationFailed]: 422,
  [ArtifactsErrorCode.FileTooLarge]: 413,
  [ArtifactsErrorCode.SyncTooLarge]: 413,
  [ArtifactsErrorCode.TooManyArtifacts]: 413,
  [ArtifactsErrorCode.UnsupportedContentEncoding]: 415,
  [ArtifactsErrorCode.UnsupportedMediaType]: 415,
  [ArtifactsErrorCode.ServiceNotFound]: 404,
  [ArtifactsErrorCode.RevisionNotFound]: 404,
  [ArtifactsErrorCode.ArtifactNotFound]: 404,
  [ArtifactsErrorCode.InvalidRevision]: 400,
  [ArtifactsErrorCode.SqlParseTimeout]: 422,
  [ArtifactsErrorCode.SqlParserUnavailable]: 503,
});
