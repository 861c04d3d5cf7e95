import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CSRF_COOKIE, MeResponse } from '@sc/contracts';
import { Authenticated, CurrentPrincipal } from '../auth/decorators';
import type { Principal } from '../auth/principal';
import { MeService } from './me.service';

@ApiTags('me')
@Controller('me')
export class MeController {
  constructor(private readonly me: MeService) {}

  /** Who is calling. For sessions it also (re)issues the CSRF cookie and returns its value. */
  @Get()
  @Authenticated()
  get(@CurrentPrincipal() principal: Principal, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<MeResponse> {
    return this.me.describe(principal, res, (req.cookies as Record<string, string> | undefined)?.[CSRF_COOKIE]);
  }
}
