import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata, UseInterceptors, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { Observable, tap } from 'rxjs';
import { MetricsService, outcomeOf, type SignInMethod } from './metrics.service';

const SIGN_IN_METHOD = 'metrics:sign-in-method';

/** Marks a route that signs a person in, so its outcomes are counted in sc_sign_ins_total. */
export const CountSignIns = (method: SignInMethod) => applyDecorators(SetMetadata(SIGN_IN_METHOD, method), UseInterceptors(SignInMetricsInterceptor));

/**
 * Counts a sign-in route's outcome: `signed_in` when it answered with the session (an SSO redirect, a
 * redeemed link), else the error code. An SSO connection test (a 200 report) is not a sign-in.
 */
@Injectable()
export class SignInMetricsInterceptor implements NestInterceptor {
  constructor(
    private readonly metrics: MetricsService,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const method = this.reflector.get<SignInMethod>(SIGN_IN_METHOD, context.getHandler());
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      tap({
        next: () => {
          if (method === 'sign_in_link' || res.statusCode === 302) this.metrics.countSignIn(method, 'signed_in');
        },
        error: (error: unknown) => this.metrics.countSignIn(method, outcomeOf(error)),
      }),
    );
  }
}
