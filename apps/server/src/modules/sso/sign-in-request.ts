import type { Request, Response } from 'express';
import { runOrgSso } from './passport/run-passport';
import type { SessionCookies } from '../sessions/session-cookies';
import { renderTestReport } from './pages/sso-pages';
import type { CallbackOutcome, SignInRequest } from './sso-sign-in.service';

/** The plain values a sign-in route hands SsoSignInService, with passport bound to this request and response. */
export function signInRequest(req: Request, res: Response, organizationId: string, slug: string): SignInRequest {
  return {
    organizationId,
    slug,
    client: { ipAddress: req.ip ?? null, userAgent: req.headers['user-agent'] ?? null },
    runFlow: (flow) => runOrgSso(req, res, flow),
  };
}

/**
 * Answers a finished SSO callback: a sign-in sets the session cookie and redirects with `redirectStatus` (303 after
 * SAML's POST, so the browser follows with a GET; 302 after OIDC's GET); a test run answers its report, as JSON
 * when the caller prefers it, else as the report page. Never cached.
 */
export function sendCallbackOutcome(req: Request, res: Response, outcome: CallbackOutcome, organizationId: string, sessionCookies: SessionCookies, redirectStatus: 302 | 303): void {
  res.setHeader('cache-control', 'no-store');
  if (outcome.kind === 'signed-in') {
    sessionCookies.write(res, outcome.session);
    res.redirect(redirectStatus, outcome.redirectPath);
    return;
  }
  if (req.accepts(['html', 'json']) === 'json') {
    res.status(200).json(outcome.report);
    return;
  }
  res.status(200).type('html').send(renderTestReport(outcome.report, organizationId));
}
