import { ConflictException, ForbiddenException, UnauthorizedException } from '@nestjs/common';
import { allErrorCodes, AuthErrorCode, CommonErrorCode, SsoErrorCode, TokensErrorCode } from '@sc/contracts';
import { mapError } from './all-exceptions.filter';
import { ERROR_STATUS, errorFactoryFor } from './error-status';

describe('ERROR_STATUS', () => {
  it('gives every code of @sc/contracts an error status (the compiler checks the keys, this the values)', () => {
    for (const code of allErrorCodes()) {
      expect([code, Number.isInteger(ERROR_STATUS[code]) && ERROR_STATUS[code] >= 400 && ERROR_STATUS[code] < 600]).toEqual([code, true]);
    }
    expect(Object.keys(ERROR_STATUS).sort()).toEqual(allErrorCodes());
  });

  it('answers a code shared by two modules with one status', () => {
    expect(errorFactoryFor<SsoErrorCode>()(SsoErrorCode.AccountDisabled, 'x').status).toBe(errorFactoryFor<AuthErrorCode>()(AuthErrorCode.AccountDisabled, 'x').status);
    expect(errorFactoryFor<TokensErrorCode>()(TokensErrorCode.NotFound, 'No such token.')).toMatchObject({ code: 'token_not_found', status: 404 });
  });

  it('names Nest exceptions with the common codes', () => {
    expect(mapError(new UnauthorizedException()).body.error.code).toBe(CommonErrorCode.Unauthorized);
    expect(mapError(new ForbiddenException()).body.error.code).toBe(CommonErrorCode.Forbidden);
    expect(mapError(new ConflictException()).body.error.code).toBe(CommonErrorCode.Conflict);
  });
});
