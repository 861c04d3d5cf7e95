import { HttpErrorResponse } from '@angular/common/http';
import { AuthErrorCode, CommonErrorCode, isErrorBody, type ErrorCode, type ErrorDetail } from '@sc/contracts';

/**
 * Codes the admin gives failures that carry no error body of the server; the server never answers with them.
 * `server_error` is a 5xx whose body is not the server's (a proxy's 502 page, a crash before Nest answered): the
 * server's own 500 says `internal_error` in its body, which is kept as it is.
 */
export enum ClientErrorCode {
  NetworkError = 'network_error',
  ServerError = 'server_error',
  HttpError = 'http_error',
  ClientError = 'client_error',
  /** The sign-in link page was answered with a destination other than an organization home. */
  UnexpectedRedirect = 'unexpected_redirect',
  /** The diagram page could not make the SVG or PNG it exports. */
  ExportFailed = 'export_failed',
}

/** A failed API call, reduced to what a page needs to tell a person what went wrong. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The server's code (ErrorCode, or one a newer server added), or the admin's own ClientErrorCode. */
    readonly code: string,
    message: string,
    readonly details: readonly ErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The message followed by each detail, e.g. "The request is invalid. email: must be an email". */
  get fullMessage(): string {
    const parts = this.details.map(describeDetail).filter((text) => text.length > 0);
    return parts.length === 0 ? this.message : `${this.message} ${parts.join('; ')}`;
  }
}

export function describeDetail(detail: ErrorDetail): string {
  const where = detail.path ?? (detail.file ? `${detail.file}${detail.line ? `:${detail.line}` : ''}` : undefined);
  return where ? `${where}: ${detail.message}` : detail.message;
}

/** Fallback sentences for responses that do not carry the service's error body (proxies, network, crashes). */
function fallbackMessage(status: number): { code: ErrorCode | ClientErrorCode; message: string } {
  if (status === 0) {
    return { code: ClientErrorCode.NetworkError, message: 'The server could not be reached. Check your connection and try again.' };
  }
  if (status === 401) return { code: AuthErrorCode.AuthenticationRequired, message: 'Your session has ended. Please sign in again.' };
  if (status === 403) return { code: CommonErrorCode.Forbidden, message: 'You do not have permission to do this.' };
  if (status === 404) return { code: CommonErrorCode.NotFound, message: 'That item no longer exists.' };
  if (status === 413) return { code: CommonErrorCode.PayloadTooLarge, message: 'The request is too large.' };
  if (status === 429) return { code: CommonErrorCode.RateLimited, message: 'Too many requests. Wait a moment and try again.' };
  if (status >= 500) {
    return { code: ClientErrorCode.ServerError, message: `The server had a problem (HTTP ${status}). Try again in a moment.` };
  }
  return { code: ClientErrorCode.HttpError, message: `The request failed (HTTP ${status}).` };
}

/** Turns anything an HTTP call can throw into an ApiError with a readable message. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HttpErrorResponse) {
    const body: unknown = error.error;
    if (isErrorBody(body)) {
      const fallback = fallbackMessage(error.status);
      return new ApiError(
        error.status,
        body.error.code,
        body.error.message || fallback.message,
        Array.isArray(body.error.details) ? body.error.details : [],
      );
    }
    const fallback = fallbackMessage(error.status);
    return new ApiError(error.status, fallback.code, fallback.message);
  }
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return new ApiError(0, ClientErrorCode.ClientError, message);
}
