import { loginHref, safeRelativePath, signInErrorMessage } from './sign-in-rules';

describe('sign-in rules', () => {
  it('accepts same-origin paths only', () => {
    expect(safeRelativePath('/orgs/acme/members?tab=1#x')).toBe('/orgs/acme/members?tab=1#x');
    for (const unsafe of ['//evil.test', '/\\evil.test', 'https://evil.test', 'evil', '/a b', '/\u0000x', '', null, undefined, `/${'a'.repeat(2048)}`]) {
      expect(safeRelativePath(unsafe)).toBeNull();
    }
  });

  it('builds the login link with the requested page, or the organization home', () => {
    const login = '/api/v1/auth/orgs/acme/login/kc';
    expect(loginHref(login, '/orgs/acme/members', 'acme')).toBe(`${login}?redirect=%2Forgs%2Facme%2Fmembers`);
    expect(loginHref(login, null, 'acme')).toBe(`${login}?redirect=%2Forgs%2Facme`);
    // An open-redirect attempt falls back to the home page instead of leaving the site after sign-in.
    expect(loginHref(login, '//evil.test/phish', 'acme')).toBe(`${login}?redirect=%2Forgs%2Facme`);
    // Only the service's own relative API links are followed.
    expect(loginHref('https://evil.test/login', null, 'acme')).toBeNull();
    expect(loginHref('/somewhere/else', null, 'acme')).toBeNull();
  });

  it('explains known error codes and never echoes an unknown one', () => {
    expect(signInErrorMessage('email_domain_not_allowed')).toContain('email domain is not allowed');
    expect(signInErrorMessage('signup_disabled')).toContain('not a member');
    const crafted = signInErrorMessage('Call 555-0100 to unlock your account');
    expect(crafted).toContain('did not complete');
    expect(crafted).not.toContain('555');
    expect(signInErrorMessage(undefined)).toBeNull();
  });
});
