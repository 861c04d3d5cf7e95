import { lt, valid } from 'semver';
import { CLI_PACKAGE_PATH, GATEWAY_INFO_PATH, type GatewayInfo } from '@sc/contracts/core';
import { ExitCode } from './exit-codes';
import { CliError } from './cli-error';
import type { GatewayTarget } from './gateway';
import { fetchGatewayInfo, type TransportOptions } from './transport';

/** The one line that installs the CLI the gateway serves (the same address the sync goes to, so CI reaches it). */
export function installCommand(gatewayBaseUrl: string): string {
  return `npm install -g ${gatewayBaseUrl}${CLI_PACKAGE_PATH}`;
}

/**
 * The version handshake before a real sync (GET /api/v1/gateway/info, no token): stops with exit 2 and the upgrade
 * command when this CLI is older than the gateway accepts, and returns the warnings to print (the gateway is older
 * than this CLI, or predates the handshake). When the gateway cannot be asked, the sync goes on and reports that.
 */
export async function checkGatewayVersion(
  gateway: GatewayTarget,
  cliVersion: string,
  options: Pick<TransportOptions, 'timeoutMs' | 'userAgent'>,
  debug: (text: string) => void,
): Promise<string[]> {
  const outcome = await fetchGatewayInfo(`${gateway.baseUrl}${GATEWAY_INFO_PATH}`, options);
  if (outcome.ok) return compareVersions(outcome.info, cliVersion, installCommand(gateway.baseUrl), debug);
  if (outcome.status === 404) {
    return [`Warning: the gateway has no ${GATEWAY_INFO_PATH}, so it is older than service-cli ${cliVersion}; if the sync fails, use the service-cli release that matches the gateway.`];
  }
  debug(`version handshake unavailable (${outcome.reason}); syncing anyway.`);
  return [];
}

/** The handshake's decision, given the gateway's answer. */
export function compareVersions(info: GatewayInfo, cliVersion: string, install: string, debug: (text: string) => void): string[] {
  const unparsable = [info.minCliVersion, info.serverVersion, cliVersion].filter((version) => !valid(version));
  if (unparsable.length) {
    debug(`version handshake: cannot compare ${unparsable.join(', ')}; syncing anyway.`);
    return [];
  }
  if (lt(cliVersion, info.minCliVersion)) {
    throw new CliError(
      ExitCode.Configuration,
      'cli_outdated',
      `service-cli ${cliVersion} is too old for this gateway (server ${info.serverVersion} accepts service-cli ${info.minCliVersion} or newer). Upgrade it: ${install}`,
    );
  }
  if (lt(info.serverVersion, cliVersion)) {
    return [`Warning: the gateway runs version ${info.serverVersion}, older than this service-cli ${cliVersion}; if the sync fails, install the CLI it serves: ${install}`];
  }
  return [];
}
