import { UseGuards, applyDecorators } from '@nestjs/common';
import { SkipThrottle, ThrottlerGuard } from '@nestjs/throttler';

/** The name of the throttler configured from SERVICE_AUTH_RATE_LIMIT / SERVICE_AUTH_RATE_WINDOW. */
export const AUTH_THROTTLER = 'auth';

/**
 * Rate-limits an authentication endpoint per client address (setup, sign-in link redemption, SSO login
 * start and callback). Over the limit the answer is 429 rate_limited.
 */
export const AuthRateLimit = () => applyDecorators(SkipThrottle({ [AUTH_THROTTLER]: false }), UseGuards(ThrottlerGuard));
