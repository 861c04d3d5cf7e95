import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { CLI_PACKAGE_PATH, GATEWAY_API_VERSION, type CliPackageInfo, type GatewayInfo } from '@sc/contracts';
import { AppConfig } from '../../config/app-config';
import { CliPackageConfig } from './cli-package.config';
import { CliPackageErrorCode, cliPackageError } from './cli-package.errors';
import { SERVER_VERSION } from './server-version';

/** The packed service-cli of this server's version, as found on disk. */
export interface CliPackageFile {
  path: string;
  version: string;
  size: number;
  modified: Date;
  sha256: string;
}

/**
 * Finds the service-cli tarball of this server's version and its SHA-256, and answers the version handshake.
 * The file is looked up on every request (a package built after the server started is served at once); the
 * hash is computed once per file version (size and modification time).
 */
@Injectable()
export class CliPackageService {
  private hashed?: { key: string; sha256: string };

  constructor(
    private readonly config: CliPackageConfig,
    private readonly appConfig: AppConfig,
  ) {}

  /** GET /api/v1/gateway/info. */
  async gatewayInfo(): Promise<GatewayInfo> {
    return { apiVersion: GATEWAY_API_VERSION, serverVersion: SERVER_VERSION, minCliVersion: this.config.minCliVersion, cliPackage: await this.packageInfo() };
  }

  /** The package to download, or 404 cli_package_not_built saying how to build it. */
  async requirePackage(): Promise<CliPackageFile> {
    const found = await this.find();
    if (!found) {
      throw cliPackageError(
        CliPackageErrorCode.NotBuilt,
        `The service-cli ${SERVER_VERSION} package was not built on this server: run \`npm run pack:cli\` where the server runs (it writes ${join(this.config.packageDir, packageFileName())}), or set SERVICE_CLI_PACKAGE_DIR to the directory holding it.`,
      );
    }
    return found;
  }

  private async packageInfo(): Promise<CliPackageInfo | null> {
    const found = await this.find();
    return found ? { version: found.version, url: `${this.appConfig.publicUrl}${CLI_PACKAGE_PATH}`, sha256: found.sha256 } : null;
  }

  private async find(): Promise<CliPackageFile | null> {
    // service-cli-<version>.tgz, the name `npm pack` gave it (downloads save it as service-cli.tgz).
    const path = join(this.config.packageDir, packageFileName());
    const stats = await fs.stat(path).catch(() => null);
    if (!stats?.isFile()) return null;
    const key = `${path}:${stats.size}:${stats.mtimeMs}`;
    if (this.hashed?.key !== key) this.hashed = { key, sha256: await sha256OfFile(path) };
    return { path, version: SERVER_VERSION, size: stats.size, modified: stats.mtime, sha256: this.hashed.sha256 };
  }
}

function packageFileName(): string {
  return `service-cli-${SERVER_VERSION}.tgz`;
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
