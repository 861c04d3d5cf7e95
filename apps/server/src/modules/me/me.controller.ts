import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CSRF_COOKIE, MeResponse } from '@sc/contracts';
import { Authenticated, CurrentPrincipal } from '../access/decorators';
import type { Principal } from '../access/principal';
import { SessionCookies } from '../sessions/session-cookies';
import { MeService } from './me.service';

@ApiTags('me')
@Controller('me')
export class MeController {
  constructor(
    private readonly me: MeService,
    private readonly cookies: SessionCookies,
  ) {}

  /** Who is calling. For sessions it also (re)issues the CSRF cookie and returns its value. */
  @Get()
  @Authenticated()
  async get(@CurrentPrincipal() principal: Principal, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<MeResponse> {
    const me = await this.me.describe(principal);
    if (me.csrfToken === null) return me;
    return { ...me, csrfToken: this.cookies.refreshCsrf(res, me.csrfToken, (req.cookies as Record<string, string> | undefined)?.[CSRF_COOKIE]) };
  }
}
