import { HttpErrorResponse } from '@angular/common/http';
import { ErrorDetail, isErrorBody } from '@sc/contracts';

/** A failed API call, reduced to what a page needs to tell a person what went wrong. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
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
function fallbackMessage(status: number): { code: string; message: string } {
  if (status === 0) {
    return { code: 'network_error', message: 'The server could not be reached. Check your connection and try again.' };
  }
  if (status === 401) return { code: 'unauthenticated', message: 'Your session has ended. Please sign in again.' };
  if (status === 403) return { code: 'forbidden', message: 'You do not have permission to do this.' };
  if (status === 404) return { code: 'not_found', message: 'That item no longer exists.' };
  if (status === 413) return { code: 'payload_too_large', message: 'The request is too large.' };
  if (status === 429) return { code: 'rate_limited', message: 'Too many requests. Wait a moment and try again.' };
  if (status >= 500) {
    return { code: 'server_error', message: `The server had a problem (HTTP ${status}). Try again in a moment.` };
  }
  return { code: 'http_error', message: `The request failed (HTTP ${status}).` };
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
  return new ApiError(0, 'client_error', message);
}
