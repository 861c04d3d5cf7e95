import { HttpErrorResponse, HttpInterceptorFn } from '@angular/common/http';
import { inject } from '@angular/core';
import { catchError, throwError } from 'rxjs';
import { toApiError } from './api-error';
import { SessionService } from './session.service';

/** Calls whose 401 is an expected answer rather than "your session ended". */
const SESSION_PROBES = ['/api/v1/me', '/api/v1/setup', '/api/v1/auth/'];

/**
 * Every API failure reaches the pages as an ApiError carrying the server's readable message. A 401 on an
 * ordinary call means the session expired or was revoked elsewhere, so the app forgets it and asks the
 * person to sign in again instead of showing broken pages.
 */
export const apiErrorInterceptor: HttpInterceptorFn = (request, next) => {
  const session = inject(SessionService);
  return next(request).pipe(
    catchError((error: unknown) => {
      const apiError = toApiError(error);
      const isProbe = SESSION_PROBES.some((prefix) => request.url.startsWith(prefix));
      if (error instanceof HttpErrorResponse && apiError.status === 401 && !isProbe) {
        session.handleExpired();
      }
      return throwError(() => apiError);
    }),
  );
};
