import { Body, Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SetupRequest, SetupResponse, SetupStatusResponse } from '@sc/contracts';
import { Public } from '../auth/decorators';
import { AuthRateLimit } from '../auth/rate-limit';
import { SetupService } from './setup.service';

@ApiTags('setup')
@Controller('setup')
export class SetupController {
  constructor(private readonly setup: SetupService) {}

  @Get()
  @Public()
  async status(): Promise<SetupStatusResponse> {
    return { required: await this.setup.isRequired() };
  }

  /** Creates the first organization and its owner; answers with the owner's session cookies. */
  @Post()
  @Public()
  @AuthRateLimit()
  run(@Body() body: SetupRequest, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SetupResponse> {
    return this.setup.run(body, res, req.ip ?? null);
  }
}
