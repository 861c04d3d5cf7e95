import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { SESSION_COOKIE } from '@sc/contracts';
import { clearAuthCookies, sessionCookieOptions, setCsrfCookie } from '../../common/http/cookies';
import { AppConfig } from '../../config/app-config';
import type { StartedSession } from './sessions.service';

/**
 * The HTTP side of sessions, for controllers (and the AuthGuard) only: services start and end sessions and
 * return plain values; whoever holds the response writes the cookies with this.
 */
@Injectable()
export class SessionCookies {
  constructor(private readonly config: AppConfig) {}

  /** Sets `sc_session` (HttpOnly, until the absolute expiry) and `sc_csrf` for a session just started. */
  write(res: Response, session: StartedSession): void {
    res.cookie(SESSION_COOKIE, session.cookieValue, sessionCookieOptions(this.config.secureCookies, session.expiresAt));
    setCsrfCookie(res, session.csrfToken, this.config.secureCookies);
  }

  /** Clears both cookies (sign-out, a session that is unknown or expired). */
  clear(res: Response): void {
    clearAuthCookies(res, this.config.secureCookies);
  }

  /** GET /me: (re)sets the CSRF cookie when it is missing or stale and returns the token. */
  refreshCsrf(res: Response, csrfToken: string, current: string | undefined): string {
    return current === csrfToken ? current : setCsrfCookie(res, csrfToken, this.config.secureCookies);
  }
}
