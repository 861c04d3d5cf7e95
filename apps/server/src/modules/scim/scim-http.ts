import { ArgumentsHost, CallHandler, Catch, ExceptionFilter, ExecutionContext, Injectable, Logger, NestInterceptor, type CanActivate } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';
import { describeForLog, mapError } from '../../common/errors/all-exceptions.filter';
import type { ScimActor } from '../audit/audit.service';
import { ScimError, scimErrorBody, type ScimErrorBody, type ScimType } from './scim-error';
import { AuthFailureLimiter } from '../auth/auth-failure-limit';
import { ScimTokensService, UnknownScimTokenError } from './scim-tokens.service';

/** RFC 7644 §3.1: requests and responses are `application/scim+json`. */
export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

export type ScimRequest = Request & { scimActor?: ScimActor };

/**
 * Authenticates SCIM requests with a SCIM token of the path's organization (ScimTokensService.authenticate). The
 * global AuthGuard lets these routes through (`@Public()`): sessions and API tokens are not SCIM credentials. An
 * unknown token counts as a failed guess in the AuthGuard's limiter (same counter per address): over the limit the
 * answer is 429 with Retry-After, as a SCIM error body (ScimExceptionFilter).
 */
@Injectable()
export class ScimTokenGuard implements CanActivate {
  constructor(
    private readonly tokens: ScimTokensService,
    private readonly failures: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScimRequest>();
    try {
      request.scimActor = await this.tokens.authenticate(String(request.params['organizationId']), request.headers.authorization, request.ip ?? null);
    } catch (error) {
      if (error instanceof UnknownScimTokenError) await this.failures.countGuess(request, context.switchToHttp().getResponse<Response>());
      throw error;
    }
    return true;
  }
}

/** Every successful SCIM answer is `application/scim+json`. */
@Injectable()
export class ScimContentTypeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    context.switchToHttp().getResponse<Response>().type(SCIM_CONTENT_TYPE);
    return next.handle();
  }
}

/**
 * SCIM routes answer RFC 7644 §3.12 error bodies: a ScimError as it is; any other error (a member rule such as
 * 409 last_owner, validation, an unexpected fault) with the status and sentence the API would give, so a SCIM
 * client sees why (`detail`) and the status it expects.
 */
@Catch()
export class ScimExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Scim');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    let status: number;
    let body;
    if (exception instanceof ScimError) {
      status = exception.status;
      body = scimErrorBody(status, exception.detail, exception.scimType);
    } else {
      const mapped = mapError(exception);
      status = mapped.status;
      if (status >= 500) this.logger.error(describeForLog(exception));
      body = scimErrorBody(status, mapped.body.error.message, status === 409 ? 'mutability' : undefined);
    }
    if (response.headersSent) return;
    sendScimError(response, status, body);
  }
}

/** SCIM paths (outside the API prefix: `/scim/v2/orgs/:orgId/…`). */
export function isScimPath(path: string): boolean {
  return path.startsWith('/scim/');
}

/**
 * The answer on a SCIM path when the body cannot be read (not JSON, too large, bad encoding; the Express-level
 * handler in app.factory.ts: body parsing runs before Nest's pipeline and its filters): the status and sentence the
 * API gives, as a SCIM error body, `invalidSyntax` for a 400.
 */
export function sendScimBodyReadError(response: Response, error: unknown): void {
  const { status, body } = mapError(error);
  const scimType: ScimType | undefined = status === 400 ? 'invalidSyntax' : undefined;
  sendScimError(response, status, scimErrorBody(status, body.error.message, scimType));
}

function sendScimError(response: Response, status: number, body: ScimErrorBody): void {
  if (status === 401) response.setHeader('WWW-Authenticate', 'Bearer realm="SCIM"');
  response.status(status).type(SCIM_CONTENT_TYPE).send(JSON.stringify(body));
}
