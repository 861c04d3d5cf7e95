import { domainErrorFactory } from '../../common/errors/domain-error';

export enum DraftsErrorCode {
  NotFound = 'draft_not_found',
  /** The request mixes starts (from + mermaid), sends a graph without a layout, or has a bad limit/offset. */
  InvalidRequest = 'invalid_draft_request',
  /** The graph or layout breaks a rule; details list every problem with its JSON path. Nothing was saved. */
  Invalid = 'draft_invalid',
  /** Pasted Mermaid or context text does not validate; details carry file, line, column and JSON path. */
  SourceInvalid = 'draft_source_invalid',
  /** Only flowchart diagrams become drafts (a draft is a flowchart). */
  KindUnsupported = 'draft_kind_unsupported',
  /** Over SERVICE_DRAFT_MAX_BYTES, SERVICE_DRAFT_MAX_NODES or SERVICE_DRAFT_MAX_EDGES. */
  TooLarge = 'draft_too_large',
  /** A PUT without `If-Match: "<version>"`. */
  VersionRequired = 'draft_version_required',
  /** The draft was saved by someone else since the version the request edits; nothing was changed. */
  VersionConflict = 'draft_version_conflict',
}

export const draftsError = domainErrorFactory<DraftsErrorCode>({
  [DraftsErrorCode.NotFound]: 404,
  [DraftsErrorCode.InvalidRequest]: 400,
  [DraftsErrorCode.Invalid]: 422,
  [DraftsErrorCode.SourceInvalid]: 422,
  [DraftsErrorCode.KindUnsupported]: 422,
  [DraftsErrorCode.TooLarge]: 413,
  [DraftsErrorCode.VersionRequired]: 428,
  [DraftsErrorCode.VersionConflict]: 409,
});
