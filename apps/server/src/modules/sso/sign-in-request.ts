import type { Request, Response } from 'express';
import { runOrgSso } from './passport/run-passport';
import type { SignInRequest } from './sso-sign-in.service';

/** The plain values a sign-in route hands SsoSignInService, with passport bound to this request and response. */
export function signInRequest(req: Request, res: Response, organizationId: string, slug: string): SignInRequest {
  return {
    organizationId,
    slug,
    client: { ipAddress: req.ip ?? null, userAgent: req.headers['user-agent'] ?? null },
    runFlow: (flow) => runOrgSso(req, res, flow),
  };
}
