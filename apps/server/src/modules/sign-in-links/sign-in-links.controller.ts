import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SESSION_COOKIE, SignInLinkResponse } from '@sc/contracts';
import { CurrentPrincipal, OrgAccess, Public } from '../auth/decorators';
import type { Principal } from '../auth/principal';
import { AuthRateLimit } from '../auth/rate-limit';
import { SignInLinksService } from './sign-in-links.service';

@ApiTags('auth')
@Controller()
export class SignInLinksController {
  constructor(private readonly links: SignInLinksService) {}

  /** Break-glass until SSO is configured: an owner mints a one-time link for a member. */
  @Post('orgs/:orgId/members/:userId/sign-in-link')
  @HttpCode(201)
  @OrgAccess('owner')
  mint(@Param('orgId') orgId: string, @Param('userId') userId: string, @CurrentPrincipal() principal: Principal): Promise<SignInLinkResponse> {
    return this.links.mint(orgId, userId, principal.kind === 'session' ? principal.userId : null);
  }

  /** Opened in the browser: signs in and redirects to the organization's home. */
  @Get('auth/sign-in-link/:token')
  @Public()
  @AuthRateLimit()
  async redeem(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const target = await this.links.redeem(token, res, (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE]);
    res.redirect(303, target);
  }
}
