import { allErrorCodes, AuthErrorCode, CommonErrorCode, ERROR_CODE_ENUMS, SsoErrorCode } from './error-codes';

describe('error codes', () => {
  it('are snake_case strings, each listed once', () => {
    const codes = allErrorCodes();
    expect(codes.filter((code) => !/^[a-z]+(_[a-z0-9]+)*$/.test(code))).toEqual([]);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toContain('authentication_required');
    expect(codes).toContain('internal_error');
  });

  it('share a string between modules only by referring to the first declaration', () => {
    expect(SsoErrorCode.AccountDisabled).toBe(AuthErrorCode.AccountDisabled);
    expect(Object.keys(ERROR_CODE_ENUMS)).toContain('CommonErrorCode');
    expect(CommonErrorCode.InternalError).toBe('internal_error');
  });
});
