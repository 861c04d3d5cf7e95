import { SsoErrorCode } from '@sc/contracts';
import { domainErrorFactory } from '../../common/errors/domain-error';

export { SsoErrorCode };

/** The code list lives in @sc/contracts so the admin pages can explain each one; statuses live here. */
export const ssoError = domainErrorFactory<SsoErrorCode>({
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
  [SsoErrorCode.AccountDisabled]: 403,
  [SsoErrorCode.SignupDisabled]: 403,
  [SsoErrorCode.IdentityConflict]: 403,
  [SsoErrorCode.ProviderNotFound]: 404,
  [SsoErrorCode.ProviderDisabled]: 403,
  [SsoErrorCode.OrganizationNotFound]: 404,
  [SsoErrorCode.SlugTaken]: 409,
  [SsoErrorCode.SlugImmutable]: 400,
  [SsoErrorCode.InvalidProviderConfig]: 400,
  [SsoErrorCode.ClientSecretUnreadable]: 409,
  [SsoErrorCode.DiscoveryFailed]: 502,
  [SsoErrorCode.OutboundUrlRefused]: 400,
  [SsoErrorCode.InvalidCursor]: 400,
  [SsoErrorCode.SessionRequired]: 403,
});
