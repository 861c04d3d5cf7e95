import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { GatewayInfo } from '@sc/contracts';
import { Public } from '../access/decorators';
import { CliPackageService } from './cli-package.service';

@ApiTags('gateway')
@Controller('gateway')
export class GatewayInfoController {
  constructor(private readonly cliPackage: CliPackageService) {}

  /**
   * The version handshake `service-cli sync` runs first: the API version, this server's version, the oldest CLI it
   * accepts and the CLI package it serves. Public: it holds no secret, and a CLI whose token handling is out of
   * date must still learn that it has to upgrade.
   */
  @Get('info')
  @Public()
  info(): Promise<GatewayInfo> {
    return this.cliPackage.gatewayInfo();
  }
}
