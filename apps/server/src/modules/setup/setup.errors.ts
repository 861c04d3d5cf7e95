import { domainErrorFactory } from '../../common/errors/domain-error';

export enum SetupErrorCode {
  TokenInvalid = 'setup_token_invalid',
  AlreadyDone = 'setup_already_done',
}

export const setupError = domainErrorFactory<SetupErrorCode>({
  [SetupErrorCode.TokenInvalid]: 403,
  [SetupErrorCode.AlreadyDone]: 409,
});
