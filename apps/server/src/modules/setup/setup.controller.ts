import { Body, Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SetupRequest, SetupResponse, SetupStatusResponse } from '@sc/contracts';
import { Public } from '../access/decorators';
import { AuthRateLimit } from '../access/rate-limit';
import { SessionCookies } from '../sessions/session-cookies';
import { SetupService } from './setup.service';

@ApiTags('setup')
@Controller('setup')
export class SetupController {
  constructor(
    private readonly setup: SetupService,
    private readonly cookies: SessionCookies,
  ) {}

  @Get()
  @Public()
  async status(): Promise<SetupStatusResponse> {
    return { required: await this.setup.isRequired() };
  }

  /** Creates the first organization and its owner; answers with the owner's session cookies. */
  @Post()
  @Public()
  @AuthRateLimit()
  async run(@Body() body: SetupRequest, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SetupResponse> {
    const { response, session } = await this.setup.run(body, req.ip ?? null);
    this.cookies.write(res, session);
    return response;
  }
}
