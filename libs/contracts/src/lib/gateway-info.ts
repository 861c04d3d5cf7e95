/**
 * The version handshake between `service-cli` and the gateway. GET /api/v1/gateway/info is public: it carries no
 * secret, and a CLI too old to know today's authentication must still be able to read it and say how to upgrade.
 */

/** Path of the handshake below the gateway's base URL. */
export const GATEWAY_INFO_PATH = '/api/v1/gateway/info';

/**
 * Version of the gateway's HTTP API (/api/v1/gateway/*): raised only by a change an existing CLI cannot follow,
 * together with the server's minimum CLI version.
 */
export const GATEWAY_API_VERSION = 1;

/** Where the server serves the `service-cli` package of its own version, and its SHA-256 (both public). */
export const CLI_PACKAGE_PATH = '/downloads/service-cli.tgz';
export const CLI_PACKAGE_SHA256_PATH = '/downloads/service-cli.tgz.sha256';

export interface GatewayInfo {
  apiVersion: number;
  /** The server's release (semver). */
  serverVersion: string;
  /** The oldest `service-cli` release this server accepts syncs from (semver); an older CLI stops with exit 2. */
  minCliVersion: string;
  /** The CLI package this server serves, or null when it was not built (`npm run pack:cli`). */
  cliPackage: CliPackageInfo | null;
}

export interface CliPackageInfo {
  version: string;
  /** `{SERVICE_PUBLIC_URL}/downloads/service-cli.tgz`: `npm install -g <url>` installs it. */
  url: string;
  /** Hex SHA-256 of the tarball's bytes. */
  sha256: string;
}
