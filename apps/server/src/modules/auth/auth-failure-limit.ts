import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { DomainError } from '../../common/errors/domain-error';
import { CommonErrorCode, commonError } from '../../common/errors/common.errors';
import { AppConfig } from '../../config/app-config';
import { AuthErrorCode } from './auth.errors';

/** The throttler name (and key prefix) of failed authentications in the throttler's storage. */
export const AUTH_FAILURE_THROTTLER = 'auth-failure';

/**
 * Failures that mean "this credential does not exist": what guessing tokens or session ids produces. Expired or
 * revoked credentials and requests without any are left out: they come from real users (a stale browser tab,
 * a CI job with an old token), never from guessing.
 */
const GUESS_FAILURES: ReadonlySet<string> = new Set([AuthErrorCode.TokenInvalid, AuthErrorCode.SessionInvalid]);

/**
 * Limits failed bearer-token and session-cookie authentications per client address (SERVICE_AUTH_FAILURE_LIMIT
 * per SERVICE_AUTH_FAILURE_WINDOW). Counts live in the @nestjs/throttler storage, so they follow it if it is
 * ever moved to a shared store. Successful authentications are never counted or refused: the answer to a
 * guess is 429 instead of 401 once the address is over the limit, until the window has passed.
 */
@Injectable()
export class AuthFailureLimiter {
  constructor(
    @Inject(ThrottlerStorage) private readonly storage: ThrottlerStorage,
    private readonly config: AppConfig,
  ) {}

  /** Counts `error` when it is a failed guess; over the limit, throws 429 rate_limited (Retry-After set) instead. */
  async count(error: unknown, request: Request, response: Response): Promise<void> {
    if (!(error instanceof DomainError) || !GUESS_FAILURES.has(error.code)) return;
    await this.countGuess(request, response);
  }

  /**
   * Counts one failed guess that the caller has recognised itself (SCIM tokens, whose errors are not DomainErrors);
   * over the limit, throws 429 rate_limited (Retry-After set).
   */
  async countGuess(request: Request, response: Response): Promise<void> {
    const { limit, windowMs } = this.config.authFailureLimit;
    const key = `${AUTH_FAILURE_THROTTLER}:${request.ip ?? 'unknown'}`;
    const record = await this.storage.increment(key, windowMs, limit, windowMs, AUTH_FAILURE_THROTTLER);
    if (!record.isBlocked) return;
    const seconds = Math.max(1, record.timeToBlockExpire);
    response.setHeader('Retry-After', String(seconds));
    throw commonError(CommonErrorCode.RateLimited, `Too many failed authentication attempts from your address; try again in ${seconds} second${seconds === 1 ? '' : 's'}.`);
  }
}
