/**
 * Every `error.code` the server answers with, grouped by the server module that owns it. This file is the one
 * list: the server maps each code to its HTTP status in one table (apps/server/src/common/errors/error-status.ts,
 * checked by the compiler against `ErrorCode`), its modules throw these enums, and the admin and the CLI compare
 * answers against them instead of repeating the strings.
 *
 * A code that two modules answer with (`account_disabled` from a session and from an SSO callback) is written once
 * and the second enum refers to the first, so the same string can never get two meanings or two statuses.
 *
 * Codes inside `details[].code` (sync problems, diagram issues, SSO state refusals) are not listed here: they live
 * beside the rule that finds them (`ServiceConfigProblemCode`, `DiagramIssueCode`, …).
 */

/** Codes the HTTP layer itself produces: validation, body parsing, routing, throttling, crashes. */
export enum CommonErrorCode {
  ValidationFailed = 'validation_failed',
  BadRequest = 'bad_request',
  /** A JSON body nests objects and arrays deeper than MAX_JSON_DEPTH. */
  JsonTooDeep = 'json_too_deep',
  /** A Nest `UnauthorizedException` (no route of ours throws one; AuthErrorCode says why a caller is refused). */
  Unauthorized = 'unauthorized',
  /** A Nest `ForbiddenException`, e.g. a guard returning false (ours throw AuthErrorCode instead). */
  Forbidden = 'forbidden',
  NotFound = 'not_found',
  MethodNotAllowed = 'method_not_allowed',
  /** A Nest `ConflictException` (ours throw a module's own conflict code). */
  Conflict = 'conflict',
  PayloadTooLarge = 'payload_too_large',
  /** The body's charset or Content-Encoding cannot be read (body-parser), or the sync bundle is not JSON. */
  UnsupportedMediaType = 'unsupported_media_type',
  RateLimited = 'rate_limited',
  InternalError = 'internal_error',
  /** A paged list's `cursor` the server did not hand out (edited, truncated, or of another list): every paged list answers it (list-page.ts). */
  InvalidCursor = 'invalid_cursor',
}

export enum OrganizationsErrorCode {
  /** Also answered for organizations the caller may not see, so their existence is not revealed. */
  NotFound = 'organization_not_found',
  AlreadyExists = 'organization_exists',
  OwnerRequired = 'owner_required',
}

/** Signing in and calling the API: sessions, API tokens, CSRF, roles and scopes. */
export enum AuthErrorCode {
  AuthenticationRequired = 'authentication_required',
  SessionInvalid = 'session_invalid',
  SessionExpired = 'session_expired',
  TokenInvalid = 'token_invalid',
  TokenRevoked = 'token_revoked',
  TokenExpired = 'token_expired',
  AccountDisabled = 'account_disabled',
  InsufficientRole = 'insufficient_role',
  InsufficientScope = 'insufficient_scope',
  TokenRequired = 'token_required',
  SessionRequired = 'session_required',
  /** The organization requires SSO: this way in (a sign-in link) is refused; owners use the break-glass command. */
  SsoRequired = 'sso_required',
  CsrfFailed = 'csrf_failed',
  SignInLinkInvalid = 'sign_in_link_invalid',
  /**
   * A sign-in link redeemed with a form or text body (cross-site forms). It is a second 415 code beside
   * CommonErrorCode.UnsupportedMediaType on purpose: both are answered today and asserted by clients and tests
   * (organizations.spec.ts expects this one; the sync gateway's documented answer is the other), so merging them
   * would change the wire format.
   */
  UnsupportedContentType = 'unsupported_content_type',
  /** POST /auth/switch-organization: removed, a session never moves to another organization. */
  OrganizationSwitchRemoved = 'organization_switch_removed',
  /** The AuthGuard's answer for an organization the caller may not see. */
  OrganizationNotFound = OrganizationsErrorCode.NotFound,
}

export enum MembersErrorCode {
  NotFound = 'member_not_found',
  AlreadyMember = 'member_exists',
  LastOwner = 'last_owner',
  OwnerRoleRequired = 'owner_role_required',
}

/** Sign-in links (an owner's way in when SSO is down): answered with the auth, members and organizations codes. */
export enum SignInLinksErrorCode {
  Invalid = AuthErrorCode.SignInLinkInvalid,
  SsoRequired = AuthErrorCode.SsoRequired,
  AccountDisabled = AuthErrorCode.AccountDisabled,
  UnsupportedContentType = AuthErrorCode.UnsupportedContentType,
  MemberNotFound = MembersErrorCode.NotFound,
  OrganizationNotFound = OrganizationsErrorCode.NotFound,
}

export enum TokensErrorCode {
  NotFound = 'token_not_found',
  ExpiryInPast = 'token_expiry_in_past',
}

export enum SetupErrorCode {
  TokenInvalid = 'setup_token_invalid',
  AlreadyDone = 'setup_already_done',
}

export enum AuditErrorCode {
  InvalidRange = 'audit_range_invalid',
}

/** The sign-in state store has one failure; the SSO callback answers it as SsoErrorCode.InvalidOrExpiredState. */
export enum OAuthStateErrorCode {
  InvalidOrExpiredState = 'invalid_or_expired_state',
}

/** Organization SSO: callback pages, the provider API and the sign-in audit log. */
export enum SsoErrorCode {
  InvalidOrExpiredState = OAuthStateErrorCode.InvalidOrExpiredState,
  ProviderError = 'provider_error',
  MissingCode = 'missing_code',
  TokenExchangeFailed = 'token_exchange_failed',
  InvalidIdToken = 'invalid_id_token',
  UserinfoFailed = 'userinfo_failed',
  SubjectMismatch = 'subject_mismatch',
  NoEmail = 'no_email',
  NoSubject = 'no_subject',
  EmailDomainNotAllowed = 'email_domain_not_allowed',
  AccountDisabled = AuthErrorCode.AccountDisabled,
  SignupDisabled = 'signup_disabled',
  IdentityConflict = 'identity_conflict',
  ProviderNotFound = 'provider_not_found',
  ProviderDisabled = 'provider_disabled',
  OrganizationNotFound = OrganizationsErrorCode.NotFound,
  SlugTaken = 'slug_taken',
  /** Enabling a provider that has not passed a test sign-in in the last 24 hours, without `confirmUntested`. */
  ProviderNotTested = 'provider_not_tested',
  SlugImmutable = 'slug_immutable',
  InvalidProviderConfig = 'invalid_provider_config',
  ClientSecretUnreadable = 'client_secret_unreadable',
  DiscoveryFailed = 'discovery_failed',
  OutboundUrlRefused = 'outbound_url_refused',
  SessionRequired = AuthErrorCode.SessionRequired,
  /** SAML: the IdP metadata (pasted or fetched) is not usable; saving answers invalid_provider_config naming the field. */
  SamlMetadataFailed = 'saml_metadata_failed',
  /** SAML: neither the response nor its assertion carries a valid signature (RSA-SHA256 or better) of the IdP's certificates. */
  SamlSignatureInvalid = 'saml_signature_invalid',
  /** SAML: the assertion is expired or not yet valid (3 minutes of clock skew allowed). */
  SamlAssertionExpired = 'saml_assertion_expired',
  /** SAML: the assertion's audience is not this provider's SP entity ID. */
  SamlAudienceMismatch = 'saml_audience_mismatch',
  /** SAML: the response's Destination or the assertion's Recipient is not this provider's ACS URL. */
  SamlDestinationMismatch = 'saml_destination_mismatch',
  /** SAML: an assertion ID this provider already accepted. */
  SamlAssertionReplayed = 'saml_assertion_replayed',
  /** SAML: a response without InResponseTo while the provider does not allow IdP-initiated sign-in. */
  SamlIdpInitiatedRefused = 'saml_idp_initiated_refused',
  /** SAML: the response is malformed, reports an IdP error, or lacks what the profile requires. */
  SamlResponseInvalid = 'saml_response_invalid',
  SsoRequired = AuthErrorCode.SsoRequired,
  /** Turning Require SSO on without a proven enabled provider, or from a session that did not start through SSO. */
  SsoRequirementUnmet = 'sso_requirement_unmet',
  /** Disabling or deleting the last enabled provider of an organization that requires SSO. */
  SsoRequiredLastProvider = 'sso_required_last_provider',
}

/** The sync gateway and the artifact store. */
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
  /** The sync bundle is not sent as application/json. */
  UnsupportedMediaType = CommonErrorCode.UnsupportedMediaType,
  ServiceNotFound = 'service_not_found',
  /** No such preview of the service, or it expired (SERVICE_PREVIEW_DAYS). */
  PreviewNotFound = 'preview_not_found',
  /** `?preview=<label>` of a sync is empty, too long or holds other characters than a branch name's (previewLabelProblem). */
  InvalidPreviewLabel = 'invalid_preview_label',
  RevisionNotFound = 'revision_not_found',
  ArtifactNotFound = 'artifact_not_found',
  InvalidRevision = 'invalid_revision',
  /** No layout of the diagram's default view is stored yet (it is being computed): the dashboard lays it out itself. */
  DiagramLayoutNotFound = 'diagram_layout_not_found',
  /** image.svg / image.png: a bad `?collapsed=` (a group the diagram does not have), `?scale=` or `?theme=`. */
  InvalidImageQuery = 'invalid_diagram_image_query',
  /** image.svg / image.png of a diagram the server cannot draw. No kind or theme is refused any more (sequence diagrams and `?theme=dark` are drawn); kept for clients comparing against it. */
  DiagramImageUnsupported = 'diagram_image_unsupported',
  /** The image would be over the pixel limit (PNG) or the diagram over SERVICE_LAYOUT_MAX_ELEMENTS. */
  DiagramImageTooLarge = 'diagram_image_too_large',
  /** The rendering thread timed out (SERVICE_LAYOUT_TIMEOUT) or is unavailable; retrying later can succeed. */
  DiagramImageFailed = 'diagram_image_failed',
  /** A SQL schema took longer than SERVICE_SQL_PARSE_TIMEOUT to parse (reported as a problem of that artifact). */
  SqlParseTimeout = 'sql_parse_timeout',
  /** A SQL parser thread died or the pool is shutting down; retrying later can succeed. */
  SqlParserUnavailable = 'sql_parser_unavailable',
}

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

/** A synced diagram's arrangement (/services/:service/diagrams/:name/arrangement). */
export enum ArrangementErrorCode {
  /** The lists break a rule (shape, numbers, an id the diagram does not have); details list each with its JSON path. */
  Invalid = 'arrangement_invalid',
  /** Sequence diagrams are drawn by Mermaid's own layout: they have no arrangement. */
  KindUnsupported = 'arrangement_kind_unsupported',
  /** A PUT without `If-Match: "<version>"` (0 for a diagram without an arrangement). */
  VersionRequired = 'arrangement_version_required',
  /** Someone saved or reset the arrangement since the version the request edits; nothing was changed. */
  VersionConflict = 'arrangement_version_conflict',
}

export enum SearchErrorCode {
  /** GET /orgs/:orgId/search: `q` missing, empty, or longer than SEARCH_LIMITS.maxQueryLength; `kind` or `limit` out of range. GET /orgs/:orgId/search/where-used: `table` missing, empty or too long, `database` too long. */
  InvalidQuery = 'invalid_search_query',
}

/** Embed links (/orgs/:orgId/embed-links and the public /embed/<token> routes). */
export enum EmbedsErrorCode {
  /**
   * No such link in the organization; on the public routes also a revoked or expired link, a diagram the link does not
   * cover, or a token that never existed (one answer for all, so a guess learns nothing).
   */
  NotFound = 'embed_link_not_found',
  ExpiryInPast = 'embed_link_expiry_in_past',
}

export enum MermaidParseErrorCode {
  /** Parsing took longer than SERVICE_MERMAID_PARSE_TIMEOUT; the worker was replaced. */
  ParseTimeout = 'diagram_parse_timeout',
  /** A parser worker died or the pool is shutting down; retrying later can succeed. */
  ParserUnavailable = 'diagram_parser_unavailable',
}

export enum HealthErrorCode {
  DatabaseUnavailable = 'database_unavailable',
  /** One or more readiness checks failed; details name each failed check. */
  NotReady = 'not_ready',
  /** SIGTERM arrived and the grace period is over: the work was stopped and rolled back. */
  ShuttingDown = 'shutting_down',
}

export enum MetricsErrorCode {
  /** Metrics are off, or served on SERVICE_METRICS_PORT instead of this port. */
  NotFound = CommonErrorCode.NotFound,
  /** SERVICE_METRICS_TOKEN is set and the request did not carry it as a bearer token. */
  TokenInvalid = 'metrics_token_invalid',
}

export enum CliPackageErrorCode {
  /** GET /downloads/service-cli.tgz(.sha256) while the package of this server's version was not built. */
  NotBuilt = 'cli_package_not_built',
}

export enum RateLimitErrorCode {
  /** REDIS_URL is set and Redis does not answer: a limited endpoint refuses rather than go unlimited. */
  Unavailable = 'rate_limit_unavailable',
}

/** SCIM provisioning: the management API of SCIM tokens (the SCIM routes answer RFC 7644 error bodies instead). */
export enum ScimErrorCode {
  TokenNotFound = 'scim_token_not_found',
}

/** Verified email domains (sign-in by work email). */
export enum DomainsErrorCode {
  NotFound = 'domain_not_found',
  /** The organization already added this domain. */
  AlreadyAdded = 'domain_exists',
}

/** Every enum above, for code that needs the runtime list (a test that each code has a status, docs); ErrorCode is their union. */
export const ERROR_CODE_ENUMS = {
  CommonErrorCode,
  AuthErrorCode,
  OrganizationsErrorCode,
  MembersErrorCode,
  SignInLinksErrorCode,
  TokensErrorCode,
  SetupErrorCode,
  AuditErrorCode,
  OAuthStateErrorCode,
  SsoErrorCode,
  ArtifactsErrorCode,
  DraftsErrorCode,
  ArrangementErrorCode,
  SearchErrorCode,
  EmbedsErrorCode,
  MermaidParseErrorCode,
  HealthErrorCode,
  MetricsErrorCode,
  CliPackageErrorCode,
  RateLimitErrorCode,
  ScimErrorCode,
  DomainsErrorCode,
} as const;

type ErrorCodeEnums = typeof ERROR_CODE_ENUMS;

/** Any code the server answers with in `error.code`: a member of one of the enums in ERROR_CODE_ENUMS. */
export type ErrorCode = { [Name in keyof ErrorCodeEnums]: ErrorCodeEnums[Name][keyof ErrorCodeEnums[Name]] }[keyof ErrorCodeEnums];

/** Every code once, sorted. */
export function allErrorCodes(): ErrorCode[] {
  return [...new Set(Object.values(ERROR_CODE_ENUMS).flatMap((codes) => Object.values(codes) as ErrorCode[]))].sort();
}
