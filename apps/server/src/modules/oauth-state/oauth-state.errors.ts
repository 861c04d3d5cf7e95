import { domainErrorFactory } from '../../common/errors/domain-error';

/** The state store has one failure; SsoErrorCode.InvalidOrExpiredState in @sc/contracts is the same code. */
export enum OAuthStateErrorCode {
  InvalidOrExpiredState = 'invalid_or_expired_state',
}

export const oauthStateError = domainErrorFactory<OAuthStateErrorCode>({
  [OAuthStateErrorCode.InvalidOrExpiredState]: 400,
});
