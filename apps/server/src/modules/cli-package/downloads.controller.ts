import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../access/decorators';
import { CliPackageService, type CliPackageFile } from './cli-package.service';

/**
 * Outside /api/v1 (app.factory.ts excludes DOWNLOAD_ROUTES from the global prefix) so the address CI pipelines
 * use reads as what it is: `npm install -g {SERVICE_PUBLIC_URL}/downloads/service-cli.tgz`.
 */
export const DOWNLOAD_ROUTES = ['downloads/service-cli.tgz', 'downloads/service-cli.tgz.sha256'];

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
    res.setHeader('Content-Disposition', `attachment; filename="${found.fileName}"`);
    // send (under sendFile) answers conditional requests against the ETag set above, and ranges.
    await new Promise<void>((resolve, reject) =>
      res.sendFile(found.path, { etag: false, lastModified: false, cacheControl: false, headers: { 'Content-Type': 'application/gzip' } }, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** `<sha256>  service-cli-<version>.tgz`, the format `sha256sum -c` checks. */
  @Get('service-cli.tgz.sha256')
  async checksum(@Res() res: Response): Promise<void> {
    const found = await this.cliPackage.requirePackage();
    setCaching(res, found, `"sha256-${found.sha256}.sha256"`);
    res.type('text/plain; charset=utf-8');
    if (res.req.fresh) {
      res.status(304).end();
      return;
    }
    res.send(`${found.sha256}  ${found.fileName}\n`);
  }
}

function setCaching(res: Response, found: CliPackageFile, etag: string): void {
  res.setHeader('Cache-Control', CACHE_CONTROL);
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', found.modified.toUTCString());
}
