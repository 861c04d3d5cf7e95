import { domainErrorFactory } from '../../common/errors/domain-error';

export enum TokensErrorCode {
  NotFound = 'token_not_found',
  ExpiryInPast = 'token_expiry_in_past',
}

export const tokensError = domainErrorFactory<TokensErrorCode>({
  [TokensErrorCode.NotFound]: 404,
  [TokensErrorCode.ExpiryInPast]: 400,
});
