import type { CookieOptions, Request, Response } from 'express';
import { CSRF_COOKIE, SESSION_COOKIE } from '@sc/contracts';

/** Session cookie: HttpOnly so scripts never see it; Lax so top-level navigation (SSO redirects) keeps it. */
export function sessionCookieOptions(secure: boolean, expires: Date): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure, path: '/', expires };
}

/** CSRF cookie: readable by the SPA, which echoes it in the X-CSRF-Token header (double submit). */
export function csrfCookieOptions(secure: boolean): CookieOptions {
  return { httpOnly: false, sameSite: 'lax', secure, path: '/' };
}

/** Sets the CSRF cookie to `csrfToken` and returns it. */
export function setCsrfCookie(res: Response, csrfToken: string, secure: boolean): string {
  res.cookie(CSRF_COOKIE, csrfToken, csrfCookieOptions(secure));
  return csrfToken;
}

export function clearAuthCookies(res: Response, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
  res.clearCookie(CSRF_COOKIE, csrfCookieOptions(secure));
}

/** The raw `sc_session` cookie of a request, to end that session when a sign-in replaces it. */
export function sessionCookieOf(req: Request): string | undefined {
  return (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
}
