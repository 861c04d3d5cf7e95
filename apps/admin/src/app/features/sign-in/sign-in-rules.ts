import { safeRedirectPath, ssoErrorWording } from '@sc/contracts';

/**
 * A same-origin path ("/orgs/acme/members?x=1") or null: the server's own check (@sc/contracts), so a crafted
 * sign-in link cannot send people to another site after they signed in.
 */
export function safeRelativePath(candidate: string | null | undefined): string | null {
  return safeRedirectPath(candidate, '') || null;
}

/** The login start for one provider, returning to `redirect` (or the organization home) after sign-in. */
export function loginHref(loginUrl: string, redirect: string | null, organizationId: string): string | null {
  // The server answers relative /api/ URLs; anything else is not followed.
  if (safeRelativePath(loginUrl) === null || !loginUrl.startsWith('/api/')) return null;
  const target = safeRelativePath(redirect) ?? `/orgs/${encodeURIComponent(organizationId)}`;
  return `${loginUrl}?redirect=${encodeURIComponent(target)}`;
}

/**
 * What to tell a person sent back with `?error=<code>`. Only known codes get their own sentence and the
 * text never comes from the URL, so a crafted link cannot put words on the page.
 */
export function signInErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  return ssoErrorWording(code).signInPage;
}
