import { SsoErrorCode } from '@sc/contracts';

/**
 * A same-origin path ("/orgs/acme/members?x=1") or null. Mirrors what the server accepts for `redirect`:
 * "//host", "/\host", backslashes and control characters would let a crafted sign-in link send people to
 * another site after they signed in.
 */
export function safeRelativePath(candidate: string | null | undefined): string | null {
  if (!candidate || candidate.length > 2048) return null;
  if (!candidate.startsWith('/') || candidate.startsWith('//')) return null;
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\\\u0000-\u0020\u007f]/.test(candidate)) return null;
  return candidate;
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
const ERROR_MESSAGES: Partial<Record<string, string>> = {
  [SsoErrorCode.InvalidOrExpiredState]: 'Your sign-in took too long or was already used. Please start again.',
  [SsoErrorCode.ProviderError]: 'The identity provider did not complete the sign-in. If you cancelled, simply start again.',
  [SsoErrorCode.EmailDomainNotAllowed]: 'Your email domain is not allowed in this organization. Use your work account.',
  [SsoErrorCode.AccountDisabled]: 'Your account is disabled in this organization. Contact an administrator.',
  [SsoErrorCode.SignupDisabled]: 'You are not a member of this organization yet. Ask an administrator to add you.',
  [SsoErrorCode.NoEmail]: 'The identity provider did not share your email address, which is needed to sign in.',
  [SsoErrorCode.ProviderDisabled]: 'That sign-in option is turned off. Use another one or contact an administrator.',
  [SsoErrorCode.ProviderNotFound]: 'That sign-in option does not exist any more. Choose one below.',
};

export function signInErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  return ERROR_MESSAGES[code] ?? 'The sign-in did not complete. Please try again; if it keeps failing, contact an administrator.';
}
