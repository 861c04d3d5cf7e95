import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { describeDatabaseError } from '../../database/db-errors';
import { CommonErrorCode, type ErrorBody, type ErrorCode, type ErrorDetail } from '@sc/contracts';
import { DomainError } from './domain-error';
import { ERROR_STATUS } from './error-status';

/** The code of a Nest HttpException (a route that does not exist, a guard returning false…), by its status. */
const CODE_BY_STATUS: Partial<Record<number, CommonErrorCode>> = Object.fromEntries(
  [
    CommonErrorCode.BadRequest,
    CommonErrorCode.Unauthorized,
    CommonErrorCode.Forbidden,
    CommonErrorCode.NotFound,
    CommonErrorCode.MethodNotAllowed,
    CommonErrorCode.Conflict,
    CommonErrorCode.PayloadTooLarge,
    CommonErrorCode.UnsupportedMediaType,
    CommonErrorCode.RateLimited,
  ].map((code) => [ERROR_STATUS[code], code]),
);

export interface MappedError {
  status: number;
  body: ErrorBody;
}

/**
 * Maps anything thrown to the one error shape. Exported separately so the Express-level handler
 * (body parsing runs before Nest's pipeline) produces identical answers.
 */
export function mapError(exception: unknown): MappedError {
  if (exception instanceof DomainError) {
    return { status: exception.status, body: errorBody(exception.code, exception.message, exception.details) };
  }
  if (exception instanceof ThrottlerException) {
    return answer(CommonErrorCode.RateLimited, 'Too many requests; wait a minute and try again.');
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    return { status, body: errorBody(CODE_BY_STATUS[status] ?? (status >= 500 ? CommonErrorCode.InternalError : CommonErrorCode.BadRequest), httpExceptionMessage(exception)) };
  }
  const bodyParserError = asBodyParserError(exception);
  if (bodyParserError) return bodyParserError;
  return answer(CommonErrorCode.InternalError, 'Something went wrong on the server; the error was logged.');
}

/** `code` with its status from ERROR_STATUS. */
function answer(code: ErrorCode, message: string): MappedError {
  return { status: ERROR_STATUS[code], body: errorBody(code, message) };
}

export function errorBody(code: string, message: string, details: ErrorDetail[] = []): ErrorBody {
  return { error: { code, message, details } };
}

function httpExceptionMessage(exception: HttpException): string {
  const response = exception.getResponse();
  const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
  const text = Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : exception.message;
  // Nest's default 404 says "Cannot GET /x"; make it a sentence.
  const route = /^Cannot (\w+) (.+)$/.exec(text);
  if (route) return `There is no ${route[1]} ${route[2]} endpoint.`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * body-parser errors carry `type` and `status` (too large, malformed JSON, unsupported charset/encoding); a body
 * that fails to decompress (`Content-Encoding: br` with garbage) has a 4xx status marked `expose` but no type.
 */
function asBodyParserError(exception: unknown): MappedError | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const { type, status, limit, expose } = exception as { type?: unknown; status?: unknown; limit?: unknown; expose?: unknown };
  if (typeof status !== 'number' || (typeof type !== 'string' && expose !== true)) return undefined;
  switch (type) {
    case 'entity.too.large':
      return answer(CommonErrorCode.PayloadTooLarge, `The request body is larger than the limit of ${typeof limit === 'number' ? `${limit} bytes` : 'this server'}.`);
    case 'entity.parse.failed':
      return answer(CommonErrorCode.BadRequest, 'The request body is not valid JSON.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return answer(CommonErrorCode.UnsupportedMediaType, 'The request body uses an unsupported content encoding or charset.');
    default:
      return status >= 400 && status < 500
        ? { status, body: errorBody(CommonErrorCode.BadRequest, 'The request body could not be read: it is cut short or does not match its Content-Encoding.') }
        : undefined;
  }
}

/**
 * The error as logged: its stack, except for database errors, whose message may quote a value and whose
 * properties hold the query parameters: those get the value-free description and the stack frames only.
 */
export function describeForLog(exception: unknown): string {
  if (exception instanceof QueryFailedError) {
    const { code, message } = describeDatabaseError(exception);
    const frames = exception.stack?.split('\n').slice(1) ?? [];
    return [`QueryFailedError ${code ?? ''}: ${message} (query: ${exception.query.slice(0, 2000)})`, ...frames].join('\n');
  }
  return exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
}

/** The one global exception filter: every error leaves as `{"error":{"code","message","details"}}`. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body } = mapError(exception);
    if (exception instanceof DomainError && status === 502) {
      // A service outside failed (an identity provider the admin configured is unreachable or answered badly): the
      // admin's input, not a server fault. Its reason is the message; a stack would only show our own call site.
      this.logger.warn(`${exception.code}: ${exception.message}`);
    } else if (status >= 500) {
      // Log the error itself only: never the request (headers, cookies and bodies may carry secrets).
      this.logger.error(describeForLog(exception));
    }
    if (response.headersSent) return;
    response.status(status).json(body);
  }
}
