import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CLI_PACKAGE_PATH } from '@sc/contracts';
import { Public } from '../access/decorators';
import { CliPackageService, type CliPackageFile } from './cli-package.service';

/**
 * Outside /api/v1 (app.factory.ts excludes DOWNLOAD_ROUTES from the global prefix) so the address CI pipelines
 * use reads as what it is: `npm install -g {SERVICE_PUBLIC_URL}/downloads/service-cli.tgz`.
 */
export const DOWNLOAD_ROUTES = ['downloads/service-cli.tgz', 'downloads/service-cli.tgz.sha256'];

/**
 * The name the package is saved under: the URL's own (`curl -O`, `curl -o service-cli.tgz`), and so the browser's
 * too (Content-Disposition). The .sha256 names this file, so `sha256sum -c service-cli.tgz.sha256` checks what
 * was downloaded; the versioned name on disk (`service-cli-<version>.tgz`) is this server's business.
 */
const SAVED_FILE_NAME = CLI_PACKAGE_PATH.slice(CLI_PACKAGE_PATH.lastIndexOf('/') + 1);

/**
 * The URL stays the same across server upgrades while its bytes change, so caches may keep the file but must
 * revalidate it on every use (`no-cache`); the strong ETag is the file's SHA-256, so a revalidation of an
 * unchanged package is a 304 without the body, and an upgraded server is never answered from a stale cache.
 */
const CACHE_CONTROL = 'public, no-cache';

/** Public, no authentication: the package and its checksum are the same for everyone and hold no secret. */
@ApiTags('downloads')
@Controller('downloads')
@Public()
export class DownloadsController {
  constructor(private readonly cliPackage: CliPackageService) {}

  /** The service-cli package of this server's version (`npm pack` tarball); 404 cli_package_not_built otherwise. */
  @Get('service-cli.tgz')
  async package(@Res() res: Response): Promise<void> {
    const found = await this.cliPackage.requirePackage();
    setCaching(res, found, `"sha256-${found.sha256}"`);
    res.setHeader('Content-Disposition', `attachment; filename="${SAVED_FILE_NAME}"`);
    // send (under sendFile) answers conditional requests against the ETag set above, and ranges.
    await new Promise<void>((resolve, reject) =>
      res.sendFile(found.path, { etag: false, lastModified: false, cacheControl: false, headers: { 'Content-Type': 'application/gzip' } }, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** `<sha256>  service-cli.tgz`, the format `sha256sum -c` checks, naming the file as it is saved. */
  @Get('service-cli.tgz.sha256')
  async checksum(@Res() res: Response): Promise<void> {
    const found = await this.cliPackage.requirePackage();
    setCaching(res, found, `"sha256-${found.sha256}.sha256"`);
    res.type('text/plain; charset=utf-8');
    if (res.req.fresh) {
      res.status(304).end();
      return;
    }
    res.send(`${found.sha256}  ${SAVED_FILE_NAME}\n`);
  }
}

function setCaching(res: Response, found: CliPackageFile, etag: string): void {
  res.setHeader('Cache-Control', CACHE_CONTROL);
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', found.modified.toUTCString());
}
