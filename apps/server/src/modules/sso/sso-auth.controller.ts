import { Controller, Get, Param, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SsoPublicProvider } from '@sc/contracts';
import { Public } from '../auth/decorators';
import { AuthRateLimit } from '../auth/rate-limit';
import { renderTestReport } from './pages/sso-pages';
import { CountSignIns } from '../metrics/sign-in-metrics.interceptor';
import { SsoCallbackFilter } from './sso-callback.filter';
import { SsoProvidersService } from './sso-providers.service';
import { SsoSignInService } from './sso-sign-in.service';
import { SsoErrorCode, ssoError } from './sso.errors';
import { OrganizationsRepository } from '../organizations/organizations.repository';

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
    private readonly organizations: OrganizationsRepository,
  ) {}

  /** The enabled providers for the organization's sign-in page. */
  @Get('providers')
  async providersList(@Param('organizationId') organizationId: string): Promise<SsoPublicProvider[]> {
    if (!(await this.organizations.findById(organizationId))) {
      throw ssoError(SsoErrorCode.OrganizationNotFound, `No organization "${organizationId}" exists.`);
    }
    return this.providers.listPublic(organizationId);
  }

  @Get('login/:slug')
  @AuthRateLimit()
  async login(@Param('organizationId') organizationId: string, @Param('slug') slug: string, @Query('redirect') redirect: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    const url = await this.signIn.startLogin(req, res, organizationId, slug, redirect);
    res.setHeader('cache-control', 'no-store');
    res.redirect(302, url);
  }

  @Get('callback/:slug')
  @AuthRateLimit()
  @CountSignIns('sso')
  async callback(@Param('organizationId') organizationId: string, @Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const outcome = await this.signIn.handleCallback(req, res, organizationId, slug);
    res.setHeader('cache-control', 'no-store');
    if (outcome.kind === 'signed-in') {
      res.redirect(302, outcome.redirectPath);
      return;
    }
    if (req.accepts(['html', 'json']) === 'json') {
      res.status(200).json(outcome.report);
      return;
    }
    res.status(200).type('html').send(renderTestReport(outcome.report, organizationId));
  }
}
