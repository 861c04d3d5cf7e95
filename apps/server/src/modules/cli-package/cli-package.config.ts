import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { valid } from 'semver';
import { Env, EnvReader } from '../../config/env';

/**
 * The oldest `service-cli` whose syncs this server accepts. Raise it together with GATEWAY_API_VERSION when the
 * gateway changes in a way older CLIs cannot follow; they then stop with exit 2 and the upgrade command.
 */
export const MIN_CLI_VERSION = '0.1.0';

export class CliPackageConfig {
  constructor(
    /** Where `npm run pack:cli` puts service-cli-<version>.tgz. */
    readonly packageDir: string,
    readonly minCliVersion: string,
  ) {}

  /**
   * SERVICE_CLI_PACKAGE_DIR (default: dist/cli-package below the working directory, else beside the server's build)
   * and SERVICE_CLI_MIN_VERSION (default MIN_CLI_VERSION; an operator may raise it to make CI pipelines upgrade).
   */
  static fromEnv(env: Env, cwd = process.cwd()): CliPackageConfig {
    const read = new EnvReader(env);
    const configured = read.string('SERVICE_CLI_PACKAGE_DIR');
    const packageDir = configured !== undefined ? resolve(cwd, configured) : defaultPackageDir(cwd);
    if (configured !== undefined && !existsSync(packageDir)) {
      read.problem(`SERVICE_CLI_PACKAGE_DIR (${packageDir}) does not exist; build the package with \`npm run pack:cli\` (it writes dist/cli-package).`);
    }
    const minCliVersion = read.string('SERVICE_CLI_MIN_VERSION', MIN_CLI_VERSION);
    if (!valid(minCliVersion)) read.problem(`SERVICE_CLI_MIN_VERSION must be a version such as 1.2.0 (got "${minCliVersion}").`);
    read.assertValid();
    return new CliPackageConfig(packageDir, minCliVersion);
  }
}

function defaultPackageDir(cwd: string): string {
  // The build puts this file at dist/apps/server/apps/server/src/modules/cli-package/ and the package at dist/cli-package.
  const candidates = [resolve(cwd, 'dist/cli-package'), resolve(__dirname, '../../../../../../cli-package')];
  return candidates.find((dir) => existsSync(dir)) ?? candidates[0];
}
