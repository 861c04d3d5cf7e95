import { Body, Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RedeemSignInLinkRequest, RedeemSignInLinkResponse, SignInLinkPreviewResponse, SignInLinkResponse } from '@sc/contracts';
import { sessionCookieOf } from '../../common/http/cookies';
import { SignInLinksErrorCode, signInLinksError } from './sign-in-links.errors';
import { CurrentPrincipal, OrgAccess, Public } from '../access/decorators';
import type { Principal } from '../access/principal';
import { AuthRateLimit } from '../access/rate-limit';
import { CountSignIns } from '../metrics/sign-in-metrics.interceptor';
import { SessionCookies } from '../sessions/session-cookies';
import { SignInLinksService } from './sign-in-links.service';

@ApiTags('auth')
@Controller()
export class SignInLinksController {
  constructor(
    private readonly links: SignInLinksService,
    private readonly cookies: SessionCookies,
  ) {}

  /** Break-glass until SSO is configured: an owner mints a one-time link for a member. */
  @Post('orgs/:orgId/members/:userId/sign-in-link')
  @HttpCode(201)
  @OrgAccess('owner')
  mint(@Param('orgId') orgId: string, @Param('userId') userId: string, @CurrentPrincipal() principal: Principal): Promise<SignInLinkResponse> {
    return this.links.mint(orgId, userId, principal);
  }

  /** For the confirmation page: who the link signs in, and where. A POST, so the token stays out of URLs. */
  @Post('auth/sign-in-link/preview')
  @HttpCode(200)
  @Public()
  @AuthRateLimit()
  preview(@Body() body: RedeemSignInLinkRequest, @Req() req: Request): Promise<SignInLinkPreviewResponse> {
    requireJson(req);
    return this.links.preview(body.token);
  }

  /**
   * Called by the admin page's "Sign in" button: consumes the link and starts the session. Public, so the
   * CSRF guard does not apply; instead only application/json is accepted: a cross-site HTML form can only
   * send form or text bodies, and a cross-site JSON request needs a CORS preflight this server never grants.
   */
  @Post('auth/sign-in-link/redeem')
  @HttpCode(200)
  @Public()
  @AuthRateLimit()
  @CountSignIns('sign_in_link')
  async redeem(@Body() body: RedeemSignInLinkRequest, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<RedeemSignInLinkResponse> {
    requireJson(req);
    const { redirect, session } = await this.links.redeem(body.token, sessionCookieOf(req));
    this.cookies.write(res, session);
    return { redirect };
  }
}

function requireJson(req: Request): void {
  if (!req.is('application/json')) {
    throw signInLinksError(SignInLinksErrorCode.UnsupportedContentType, 'Send the sign-in link token as JSON (Content-Type: application/json).');
  }
}
