import { Controller, Get, HttpCode, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { sessionCookieOf } from '../../common/http/cookies';
import { Public } from '../access/decorators';
import { AuthRateLimit } from '../access/rate-limit';
import { CountSignIns } from '../metrics/sign-in-metrics.interceptor';
import { SessionCookies } from '../sessions/session-cookies';
import { SamlSignIn } from './saml/saml-sign-in';
import { sendCallbackOutcome, signInRequest } from './sign-in-request';
import { SsoBindingCookie } from './sso-binding-cookie';
import { SsoCallbackFilter } from './sso-callback.filter';
import { SsoProvidersService } from './sso-providers.service';
import { SsoSignInService } from './sso-sign-in.service';
import { SsoErrorCode, ssoError } from './sso.errors';

/**
 * The public SAML routes of a provider: its SP metadata and its Assertion Consumer Service. Like the OAuth
 * sign-in routes they name the organization `:organizationId` (public on purpose; see SsoAuthController). Sign-in
 * starts at the shared `GET …/login/:slug`, which sends SAML providers an HTTP-Redirect AuthnRequest.
 */
@ApiTags('sso')
@Controller('auth/orgs/:organizationId/saml/:slug')
@Public()
@UseFilters(SsoCallbackFilter)
export class SamlAuthController {
  constructor(
    private readonly providers: SsoProvidersService,
    private readonly saml: SamlSignIn,
    private readonly signIn: SsoSignInService,
    private readonly sessionCookies: SessionCookies,
    private readonly binding: SsoBindingCookie,
  ) {}

  /** What the IdP administrator imports: entity ID, ACS URL (HTTP-POST). Served for disabled providers too. */
  @Get('metadata')
  async metadata(@Param('organizationId') organizationId: string, @Param('slug') slug: string, @Res() res: Response): Promise<void> {
    const provider = await this.providers.forSignIn(organizationId, slug);
    if (provider.entity.type !== 'saml') throw ssoError(SsoErrorCode.ProviderNotFound, `The provider "${slug}" is not a SAML provider; it has no SAML metadata.`);
    res.status(200).type('application/samlmetadata+xml').send(await this.saml.metadata(provider));
  }

  /**
   * The IdP's HTTP-POST binding: a cross-site form POST, so no CSRF token (the AuthGuard checks one only for a
   * session, and this route is public); what protects it is the signed response bound to this browser's state.
   * Answers 303 so the browser follows with a GET.
   */
  @Post('acs')
  @HttpCode(200)
  @AuthRateLimit()
  @CountSignIns('sso')
  async acs(@Param('organizationId') organizationId: string, @Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const binding = this.binding.valueOf(req);
    this.binding.clear(res, organizationId, slug, true);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const outcome = await this.signIn.handleSamlResponse(signInRequest(req, res, organizationId, slug), body['SAMLResponse'], binding, sessionCookieOf(req));
    sendCallbackOutcome(req, res, outcome, organizationId, this.sessionCookies, 303);
  }
}
