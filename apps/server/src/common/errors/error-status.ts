import {
  ArrangementErrorCode,
  ArtifactsErrorCode,
  AuditErrorCode,
  AuthErrorCode,
  CliPackageErrorCode,
  CommonErrorCode,
  DraftsErrorCode,
  HealthErrorCode,
  MembersErrorCode,
  MermaidParseErrorCode,
  MetricsErrorCode,
  OrganizationsErrorCode,
  RateLimitErrorCode,
  SearchErrorCode,
  EmbedsErrorCode,
  SetupErrorCode,
  SsoErrorCode,
  TokensErrorCode,
  ScimErrorCode,
  DomainsErrorCode,
  type ErrorCode,
  type ErrorDetail,
} from '@sc/contracts';
import { DomainError } from './domain-error';

/**
 * The HTTP status of every error code, in one table. `satisfies Record<ErrorCode, number>` makes the compiler
 * refuse a code of @sc/contracts without a status here, and a key that is no code. A code two modules share
 * (`account_disabled`, `not_found`, …) appears once, under the module that declares it first in the contracts.
 */
export const ERROR_STATUS = {
  [CommonErrorCode.ValidationFailed]: 400,
  [CommonErrorCode.BadRequest]: 400,
  [CommonErrorCode.JsonTooDeep]: 400,
  [CommonErrorCode.Unauthorized]: 401,
  [CommonErrorCode.Forbidden]: 403,
  [CommonErrorCode.NotFound]: 404,
  [CommonErrorCode.MethodNotAllowed]: 405,
  [CommonErrorCode.Conflict]: 409,
  [CommonErrorCode.PayloadTooLarge]: 413,
  [CommonErrorCode.UnsupportedMediaType]: 415,
  [CommonErrorCode.RateLimited]: 429,
  [CommonErrorCode.InternalError]: 500,
  [CommonErrorCode.InvalidCursor]: 400,

  [AuthErrorCode.AuthenticationRequired]: 401,
  [AuthErrorCode.SessionInvalid]: 401,
  [AuthErrorCode.SessionExpired]: 401,
  [AuthErrorCode.TokenInvalid]: 401,
  [AuthErrorCode.TokenRevoked]: 401,
  [AuthErrorCode.TokenExpired]: 401,
  [AuthErrorCode.AccountDisabled]: 403,
  [AuthErrorCode.InsufficientRole]: 403,
  [AuthErrorCode.InsufficientScope]: 403,
  [AuthErrorCode.TokenRequired]: 403,
  [AuthErrorCode.SessionRequired]: 403,
  [AuthErrorCode.SsoRequired]: 403,
  [AuthErrorCode.CsrfFailed]: 403,
  [AuthErrorCode.SignInLinkInvalid]: 400,
  [AuthErrorCode.UnsupportedContentType]: 415,
  [AuthErrorCode.OrganizationSwitchRemoved]: 410,

  [OrganizationsErrorCode.NotFound]: 404,
  [OrganizationsErrorCode.AlreadyExists]: 409,
  [OrganizationsErrorCode.OwnerRequired]: 403,

  [MembersErrorCode.NotFound]: 404,
  [MembersErrorCode.AlreadyMember]: 409,
  [MembersErrorCode.LastOwner]: 409,
  [MembersErrorCode.OwnerRoleRequired]: 403,

  [TokensErrorCode.NotFound]: 404,
  [TokensErrorCode.ExpiryInPast]: 400,
  [ScimErrorCode.TokenNotFound]: 404,
  [DomainsErrorCode.NotFound]: 404,
  [DomainsErrorCode.AlreadyAdded]: 409,

  [SetupErrorCode.TokenInvalid]: 403,
  [SetupErrorCode.AlreadyDone]: 409,

  [AuditErrorCode.InvalidRange]: 400,

  // SsoErrorCode.InvalidOrExpiredState is OAuthStateErrorCode's; AccountDisabled, SessionRequired and
  // OrganizationNotFound are the auth and organizations codes above.
  // SignInLinksErrorCode answers with the auth, members and organizations codes, AuthErrorCode.OrganizationNotFound
  // is the organizations one: referring enums need no status of their own.
  [SsoErrorCode.InvalidOrExpiredState]: 400,
  [SsoErrorCode.ProviderError]: 400,
  [SsoErrorCode.MissingCode]: 400,
  [SsoErrorCode.TokenExchangeFailed]: 502,
  [SsoErrorCode.InvalidIdToken]: 502,
  [SsoErrorCode.UserinfoFailed]: 502,
  [SsoErrorCode.SubjectMismatch]: 400,
  [SsoErrorCode.NoEmail]: 400,
  [SsoErrorCode.NoSubject]: 400,
  [SsoErrorCode.EmailDomainNotAllowed]: 403,
  [SsoErrorCode.SignupDisabled]: 403,
  [SsoErrorCode.IdentityConflict]: 403,
  [SsoErrorCode.ProviderNotFound]: 404,
  [SsoErrorCode.ProviderDisabled]: 403,
  [SsoErrorCode.SlugTaken]: 409,
  [SsoErrorCode.ProviderNotTested]: 409,
  [SsoErrorCode.SlugImmutable]: 400,
  [SsoErrorCode.InvalidProviderConfig]: 400,
  [SsoErrorCode.ClientSecretUnreadable]: 409,
  [SsoErrorCode.DiscoveryFailed]: 502,
  [SsoErrorCode.OutboundUrlRefused]: 400,
  [SsoErrorCode.SamlMetadataFailed]: 502,
  [SsoErrorCode.SamlSignatureInvalid]: 400,
  [SsoErrorCode.SamlAssertionExpired]: 400,
  [SsoErrorCode.SamlAudienceMismatch]: 400,
  [SsoErrorCode.SamlDestinationMismatch]: 400,
  [SsoErrorCode.SamlAssertionReplayed]: 400,
  [SsoErrorCode.SamlIdpInitiatedRefused]: 400,
  [SsoErrorCode.SamlResponseInvalid]: 400,
  [SsoErrorCode.SsoRequirementUnmet]: 409,
  [SsoErrorCode.SsoRequiredLastProvider]: 409,

  // ArtifactsErrorCode.UnsupportedMediaType is the common code above.
  [ArtifactsErrorCode.InvalidBundle]: 400,
  [ArtifactsErrorCode.SyncValidationFailed]: 422,
  [ArtifactsErrorCode.FileTooLarge]: 413,
  [ArtifactsErrorCode.SyncTooLarge]: 413,
  [ArtifactsErrorCode.TooManyArtifacts]: 413,
  [ArtifactsErrorCode.UnsupportedContentEncoding]: 415,
  [ArtifactsErrorCode.ServiceNotFound]: 404,
  [ArtifactsErrorCode.PreviewNotFound]: 404,
  [ArtifactsErrorCode.InvalidPreviewLabel]: 400,
  [ArtifactsErrorCode.RevisionNotFound]: 404,
  [ArtifactsErrorCode.ArtifactNotFound]: 404,
  [ArtifactsErrorCode.InvalidRevision]: 400,
  [ArtifactsErrorCode.DiagramLayoutNotFound]: 404,
  [ArtifactsErrorCode.InvalidImageQuery]: 400,
  [ArtifactsErrorCode.DiagramImageUnsupported]: 422,
  [ArtifactsErrorCode.DiagramImageTooLarge]: 422,
  [ArtifactsErrorCode.DiagramImageFailed]: 503,
  [ArtifactsErrorCode.SqlParseTimeout]: 422,
  [ArtifactsErrorCode.SqlParserUnavailable]: 503,

  [DraftsErrorCode.NotFound]: 404,
  [DraftsErrorCode.InvalidRequest]: 400,
  [DraftsErrorCode.Invalid]: 422,
  [DraftsErrorCode.SourceInvalid]: 422,
  [DraftsErrorCode.KindUnsupported]: 422,
  [DraftsErrorCode.TooLarge]: 413,
  [DraftsErrorCode.VersionRequired]: 428,
  [DraftsErrorCode.VersionConflict]: 409,

  [ArrangementErrorCode.Invalid]: 422,
  [ArrangementErrorCode.KindUnsupported]: 422,
  [ArrangementErrorCode.VersionRequired]: 428,
  [ArrangementErrorCode.VersionConflict]: 409,

  [SearchErrorCode.InvalidQuery]: 400,
  [EmbedsErrorCode.NotFound]: 404,
  [EmbedsErrorCode.ExpiryInPast]: 400,

  [MermaidParseErrorCode.ParseTimeout]: 422,
  [MermaidParseErrorCode.ParserUnavailable]: 503,

  [HealthErrorCode.DatabaseUnavailable]: 503,
  [HealthErrorCode.NotReady]: 503,
  [HealthErrorCode.ShuttingDown]: 503,

  // MetricsErrorCode.NotFound is the common not_found.
  [MetricsErrorCode.TokenInvalid]: 401,

  [CliPackageErrorCode.NotBuilt]: 404,

  [RateLimitErrorCode.Unavailable]: 503,
} as const satisfies Record<ErrorCode, number>;

/**
 * The error factory of one module's codes, with the statuses of ERROR_STATUS:
 * `export const tokensError = errorFactoryFor<TokensErrorCode>();` then
 * `throw tokensError(TokensErrorCode.NotFound, 'There is no API token with this id.')`.
 */
export function errorFactoryFor<Code extends ErrorCode>() {
  return (code: Code, message: string, details: ErrorDetail[] = []) => new DomainError<Code>(code, ERROR_STATUS[code], message, details);
}
