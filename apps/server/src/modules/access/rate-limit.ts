import { UseGuards, applyDecorators } from '@nestjs/common';
import { SkipThrottle, ThrottlerGuard } from '@nestjs/throttler';

/** The name of the throttler configured from SERVICE_AUTH_RATE_LIMIT / SERVICE_AUTH_RATE_WINDOW. */
export const AUTH_THROTTLER = 'auth';

/** The name of the throttler configured from SERVICE_EMBED_RATE_LIMIT / SERVICE_EMBED_RATE_WINDOW (modules/embeds). */
export const EMBED_THROTTLER = 'embed';

/**
 * Rate-limits an authentication endpoint per client address (setup, sign-in link redemption, SSO login
 * start and callback). Over the limit the answer is 429 rate_limited. Each limited route counts on its own
 * throttler only (ThrottlerGuard applies every configured throttler a route does not skip).
 */
export const AuthRateLimit = () => applyDecorators(SkipThrottle({ [AUTH_THROTTLER]: false, [EMBED_THROTTLER]: true }), UseGuards(ThrottlerGuard));

/** Rate-limits the public embed routes per client address, on their own count (429 rate_limited). */
export const EmbedRateLimit = () => applyDecorators(SkipThrottle({ [AUTH_THROTTLER]: true, [EMBED_THROTTLER]: false }), UseGuards(ThrottlerGuard));
