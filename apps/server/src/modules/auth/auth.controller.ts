import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { sessionCookieOf } from '../../common/http/cookies';
import { SessionCookies } from '../sessions/session-cookies';
import { SessionsService } from '../sessions/sessions.service';
import { AuthErrorCode, authError } from './auth.errors';
import { Authenticated, Public } from '../access/decorators';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly cookies: SessionCookies,
  ) {}

  /** Ends the session: deletes its row and clears the cookies. */
  @Post('sign-out')
  @HttpCode(204)
  @Authenticated({ sessionOnly: true })
  async signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    const current = sessionCookieOf(req);
    if (current) await this.sessions.end(current);
    this.cookies.clear(res);
  }

  /**
   * Removed (issue 9): it turned a session of one organization into a session of another on the strength of
   * a global email match, so the owner of one organization could become the owner of another. Kept as a
   * 410 so an old dashboard still open in a browser gets a sentence instead of a bare 404.
   */
  @Post('switch-organization')
  @Public()
  switchOrganization(): never {
    throw authError(
      AuthErrorCode.OrganizationSwitchRemoved,
      'A session acts only in the organization that signed it in and cannot be switched to another one. Sign in to the other organization on its own sign-in page (/orgs/<organization id>/sign-in): its single sign-on, or a sign-in link from one of its owners.',
    );
  }
}
