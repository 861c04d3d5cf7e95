import { domainErrorFactory } from '../../common/errors/domain-error';

export enum CliPackageErrorCode {
  /** GET /downloads/service-cli.tgz(.sha256) while the package of this server's version was not built. */
  NotBuilt = 'cli_package_not_built',
}

export const cliPackageError = domainErrorFactory<CliPackageErrorCode>({
  [CliPackageErrorCode.NotBuilt]: 404,
});
