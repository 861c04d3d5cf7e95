import type { Request, Response } from 'express';
import passport from 'passport';
import { ORG_SSO_STRATEGY, SsoFlow } from './org-sso.strategy';

/**
 * Runs the registered org-sso strategy for one request, like @nestjs/passport's AuthGuard does, but as a
 * promise the sign-in service awaits (it owns the audit log and the error pages around the flow).
 */
export function runOrgSso<T>(req: Request, res: Response, flow: SsoFlow): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const middleware = passport.authenticate(ORG_SSO_STRATEGY, { session: false, ssoFlow: flow } as passport.AuthenticateOptions, (error: unknown, user: unknown) => {
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else if (!user) reject(new Error('The SSO strategy finished without a result.'));
      else resolve(user as T);
    }) as (req: Request, res: Response, next: (error?: unknown) => void) => void;
    middleware(req, res, (error?: unknown) => reject(error instanceof Error ? error : new Error('The SSO strategy passed the request on.')));
  });
}
