import { Controller, Get, Param, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SsoSignInPageProvider } from '@sc/contracts';
import { sessionCookieOf } from '../../common/http/cookies';
import { Public } from '../access/decorators';
import { AuthRateLimit } from '../access/rate-limit';
import { CountSignIns } from '../metrics/sign-in-metrics.interceptor';
import { OrganizationsService } from '../organizations/organizations.service';
import { SessionCookies } from '../sessions/session-cookies';
import { sendCallbackOutcome, signInRequest } from './sign-in-request';
import { SsoBindingCookie } from './sso-binding-cookie';
import { SsoCallbackFilter } from './sso-callback.filter';
import { SsoProvidersService } from './sso-providers.service';
import { SsoSignInService } from './sso-sign-in.service';
import { SsoErrorCode, ssoError } from './sso.errors';

/**
 * Public sign-in routes. They name the organization as `:organizationId`, not `:orgId`: they are
 * deliberately open to signed-out browsers, while `:orgId` routes are the ones the AuthGuard binds to the
 * caller's organization (and the isolation test enforces @OrgAccess on).
 */
@ApiTags('sso')
@Controller('auth/orgs/:organizationId')
@Public()
@UseFilters(SsoCallbackFilter)
export class SsoAuthController {
  constructor(
    private readonly providers: SsoProvidersService,
    private readonly signIn: SsoSignInService,
    private readonly organizations: OrganizationsService,
    private readonly sessionCookies: SessionCookies,
    private readonly binding: SsoBindingCookie,
  ) {}

  /** The enabled providers for the organization's sign-in page, and whether they are the only way in. */
  @Get('providers')
  async providersList(@Param('organizationId') organizationId: string): Promise<SsoSignInPageProvider[]> {
    if (!(await this.organizations.find(organizationId))) {
      throw ssoError(SsoErrorCode.OrganizationNotFound, `No organization "${organizationId}" exists.`);
    }
    return this.providers.listForSignInPage(organizationId);
  }

  @Get('login/:slug')
  @AuthRateLimit()
  async login(@Param('organizationId') organizationId: string, @Param('slug') slug: string, @Query('redirect') redirect: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    const started = await this.signIn.startLogin(signInRequest(req, res, organizationId, slug), redirect);
    this.binding.set(res, started.binding);
    res.setHeader('cache-control', 'no-store');
    res.redirect(302, started.authorizationUrl);
  }

  @Get('callback/:slug')
  @AuthRateLimit()
  @CountSignIns('sso')
  async callback(@Param('organizationId') organizationId: string, @Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const binding = this.binding.valueOf(req);
    this.binding.clear(res, organizationId, slug);
    const outcome = await this.signIn.handleCallback(signInRequest(req, res, organizationId, slug), binding, sessionCookieOf(req));
    sendCallbackOutcome(req, res, outcome, organizationId, this.sessionCookies, 302);
  }
}
