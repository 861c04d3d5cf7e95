import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { mapError } from '../../common/errors/all-exceptions.filter';
import { DomainError } from '../../common/errors/domain-error';
import { renderErrorPage } from './pages/sso-pages';

/**
 * Sign-in routes are browser navigations: a person gets a readable page with the code and what to do;
 * a client that asks for `Accept: application/json` gets the usual `{"error":{code,message,details}}`.
 */
@Catch()
export class SsoCallbackFilter implements ExceptionFilter {
  private readonly logger = new Logger('SsoSignIn');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const { status, body } = mapError(exception);
    if (status >= 500 && !(exception instanceof DomainError)) {
      // Never the request: its query carries the authorization code and state.
      this.logger.error(`SSO sign-in failed unexpectedly: ${exception instanceof Error ? exception.stack ?? exception.message : String(exception)}`);
    }
    res.setHeader('cache-control', 'no-store');
    if (req.accepts(['html', 'json']) === 'json') {
      res.status(status).json(body);
      return;
    }
    const organizationId = String(req.params['organizationId'] ?? '');
    res.status(status).type('html').send(renderErrorPage({ code: body.error.code, message: body.error.message, status, organizationId, reason: body.error.details[0]?.code }));
  }
}
