import { HttpErrorResponse } from '@angular/common/http';
import { AuthErrorCode, CommonErrorCode } from '@sc/contracts';
import { ApiError, toApiError } from './api-error';

describe('toApiError', () => {
  it('keeps the code, message and details of the service error body', () => {
    const error = toApiError(
      new HttpErrorResponse({
        status: 400,
        error: {
          error: {
            code: 'validation_failed',
            message: 'The request is invalid.',
            details: [{ path: 'owner.email', message: 'email must be an email address' }],
          },
        },
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('validation_failed');
    expect(error.message).toBe('The request is invalid.');
    expect(error.fullMessage).toBe('The request is invalid. owner.email: email must be an email address');
  });

  it('names file and line of a detail when there is no JSON path', () => {
    const error = new ApiError(422, 'invalid_bundle', 'The sync is invalid.', [
      { file: 'diagrams/a.mmd', line: 3, message: 'unknown arrow' },
    ]);
    expect(error.fullMessage).toBe('The sync is invalid. diagrams/a.mmd:3: unknown arrow');
  });

  it('explains a network failure', () => {
    const error = toApiError(new HttpErrorResponse({ status: 0, error: new ProgressEvent('error') }));
    expect(error.code).toBe('network_error');
    expect(error.message).toContain('could not be reached');
  });

  it('explains a server failure whose body is not the service error shape', () => {
    const error = toApiError(new HttpErrorResponse({ status: 502, error: '<html>Bad gateway</html>' }));
    expect(error.code).toBe('server_error');
    expect(error.message).toContain('HTTP 502');
  });

  it('names a failure without the service error body with the server codes where one applies', () => {
    // A proxy's 401/403 page: the same codes the server itself answers with, never invented ones.
    expect(toApiError(new HttpErrorResponse({ status: 401, error: 'Unauthorized' })).code).toBe(AuthErrorCode.AuthenticationRequired);
    expect(toApiError(new HttpErrorResponse({ status: 403, error: 'Forbidden' })).code).toBe(CommonErrorCode.Forbidden);
    expect(toApiError(new HttpErrorResponse({ status: 429, error: '' })).code).toBe(CommonErrorCode.RateLimited);
  });

  it('passes an ApiError through unchanged and wraps other errors', () => {
    const original = new ApiError(409, 'conflict', 'Already exists.');
    expect(toApiError(original)).toBe(original);
    expect(toApiError(new Error('boom')).message).toBe('boom');
    expect(toApiError('?').message).toBe('Something went wrong.');
  });
});
