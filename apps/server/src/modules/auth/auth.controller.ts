import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SESSION_COOKIE, SwitchOrganizationRequest } from '@sc/contracts';
import { MembershipsRepository } from '../members/memberships.repository';
import { OrganizationsErrorCode, organizationsError } from '../organizations/organizations.errors';
import { SessionsService } from '../sessions/sessions.service';
import { UsersRepository } from '../users/users.repository';
import { Authenticated, CurrentPrincipal } from './decorators';
import type { SessionPrincipal } from './principal';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly memberships: MembershipsRepository,
    private readonly users: UsersRepository,
  ) {}

  /** Ends the session: deletes its row and clears the cookies. */
  @Post('sign-out')
  @HttpCode(204)
  @Authenticated({ sessionOnly: true })
  async signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.sessions.signOut(res, cookieOf(req));
  }

  /** A session acts in one organization; this replaces it with a session in another of the user's organizations. */
  @Post('switch-organization')
  @HttpCode(204)
  @Authenticated({ sessionOnly: true })
  async switchOrganization(
    @Body() body: SwitchOrganizationRequest,
    @CurrentPrincipal() principal: SessionPrincipal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    const [membership, user] = await Promise.all([this.memberships.find(body.organizationId, principal.userId), this.users.findById(principal.userId)]);
    if (!membership || membership.disabled || !user || user.disabled) {
      throw organizationsError(OrganizationsErrorCode.NotFound, `No organization "${body.organizationId}" exists, or you have no access to it.`);
    }
    await this.sessions.startSession(res, { userId: principal.userId, organizationId: body.organizationId, replacing: cookieOf(req) });
  }
}

function cookieOf(req: Request): string | undefined {
  return (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
}
