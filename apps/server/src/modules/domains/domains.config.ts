import { isIP } from 'node:net';
import { Env, EnvReader } from '../../config/env';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * SERVICE_DNS_SERVERS: comma-separated resolvers for the TXT lookups (`10.0.0.2`, `127.0.0.1:5353`, `[::1]:53`);
 * unset → the system's resolvers. SERVICE_DNS_TIMEOUT: per query (default 5s). SERVICE_DOMAIN_RECHECK_AGE: how old a
 * domain's last check may be before the background job checks it again (default 24h: daily).
 */
export class DomainsConfig {
  constructor(
    readonly dnsServers: string[],
    readonly dnsTimeoutMs: number,
    readonly recheckAgeMs: number,
  ) {}

  static fromEnv(env: Env): DomainsConfig {
    const read = new EnvReader(env);
    const raw = read.raw('SERVICE_DNS_SERVERS');
    const servers = raw ? raw.split(',').map((server) => server.trim()).filter(Boolean) : [];
    const bad = servers.filter((server) => !isServerAddress(server));
    if (bad.length) read.problem(`SERVICE_DNS_SERVERS must list IP addresses, optionally with a port (10.0.0.2, 127.0.0.1:5353, [::1]:53), not ${bad.map((server) => `"${server}"`).join(', ')}.`);
    const config = new DomainsConfig(servers, read.durationMs('SERVICE_DNS_TIMEOUT', 5000, { minMs: 100 }), read.durationMs('SERVICE_DOMAIN_RECHECK_AGE', DAY_MS, { minMs: 60_000 }));
    read.assertValid();
    return config;
  }
}

function isServerAddress(server: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server);
  if (bracketed) return isIP(bracketed[1]) === 6 && validPort(bracketed[2]);
  const withPort = /^([\d.]+):(\d{1,5})$/.exec(server);
  if (withPort) return isIP(withPort[1]) === 4 && validPort(withPort[2]);
  return isIP(server) !== 0;
}

function validPort(port: string | undefined): boolean {
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}
