import { Module } from '@nestjs/common';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { CliPackageConfig } from './cli-package.config';
import { CliPackageService } from './cli-package.service';
import { DownloadsController } from './downloads.controller';
import { GatewayInfoController } from './gateway-info.controller';

/**
 * The service-cli package this server serves (GET /downloads/service-cli.tgz and its .sha256) and the version
 * handshake (GET /api/v1/gateway/info) that tells a CLI whether it must upgrade and from where.
 */
@Module({
  controllers: [DownloadsController, GatewayInfoController],
  providers: [{ provide: CliPackageConfig, inject: [APP_ENV], useFactory: (env: Env) => CliPackageConfig.fromEnv(env) }, CliPackageService],
})
export class CliPackageModule {}
