const MAX_REDIRECT_LENGTH = 2048;
const PLACEHOLDER_ORIGIN = 'http://redirect.invalid';

/**
 * The open-redirect check, shared by the server (the `redirect` of an SSO sign-in, checked again after the
 * callback) and the admin (the sign-in page's `?redirect=`, before it builds the login link).
 *
 * Returns `candidate` when it is a same-origin relative path ("/orgs/acme?tab=1#x"), else `fallback`.
 * Browsers treat "//host", "/\host" and paths with control characters or backslashes as other origins
 * or normalize them unpredictably, so only a plain absolute path survives; the URL parser then has to
 * agree that it stays on the same origin.
 */
export function safeRedirectPath(candidate: unknown, fallback = '/'): string {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > MAX_REDIRECT_LENGTH) return fallback;
  if (!candidate.startsWith('/') || candidate.startsWith('//')) return fallback;
  // Backslashes become slashes in browsers ("/\evil.com"); control characters and whitespace are stripped.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point here
  if (/[\\\u0000-\u0020\u007f]/.test(candidate)) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(candidate, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  if (parsed.origin !== PLACEHOLDER_ORIGIN) return fallback;
  return parsed.pathname + parsed.search + parsed.hash;
}

export function isSafeRedirectPath(candidate: unknown): boolean {
  return safeRedirectPath(candidate, '') !== '';
}
