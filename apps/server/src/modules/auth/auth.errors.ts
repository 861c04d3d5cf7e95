import { domainErrorFactory } from '../../common/errors/domain-error';

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
  CsrfFailed = 'csrf_failed',
  SignInLinkInvalid = 'sign_in_link_invalid',
  UnsupportedContentType = 'unsupported_content_type',
  /** POST /auth/switch-organization: removed, a session never moves to another organization. */
  OrganizationSwitchRemoved = 'organization_switch_removed',
}

export const authError = domainErrorFactory<AuthErrorCode>({
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
  [AuthErrorCode.CsrfFailed]: 403,
  [AuthErrorCode.SignInLinkInvalid]: 400,
  [AuthErrorCode.UnsupportedContentType]: 415,
  [AuthErrorCode.OrganizationSwitchRemoved]: 410,
});
