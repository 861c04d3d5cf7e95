import { Injectable } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import { DomainsConfig } from './domains.config';

/** What one TXT lookup showed: the records (each joined from its strings), or why there are none. */
export type TxtLookup = { status: 'found'; records: string[] } | { status: 'missing'; reason: string } | { status: 'unavailable'; reason: string };

/** DNS answers meaning "this name has no such record" (as opposed to a resolver that could not answer). */
const MISSING_CODES = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

/**
 * TXT lookups with node:dns's Resolver (c-ares), on SERVICE_DNS_SERVERS when set (tests point it at a DNS server on
 * loopback), else the system's resolvers. Only names of domains owners added are looked up: the query goes to the
 * configured resolvers, never to an address an organization chooses, so it is not an outbound call to guard.
 */
@Injectable()
export class DnsTxtLookup {
  constructor(private readonly config: DomainsConfig) {}

  async lookup(name: string): Promise<TxtLookup> {
    const resolver = new Resolver({ timeout: this.config.dnsTimeoutMs, tries: 2 });
    if (this.config.dnsServers.length) resolver.setServers(this.config.dnsServers);
    try {
      return { status: 'found', records: (await resolver.resolveTxt(name)).map((chunks) => chunks.join('')) };
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'unknown';
      if (MISSING_CODES.has(code)) return { status: 'missing', reason: `${name} has no TXT records (${code}).` };
      return { status: 'unavailable', reason: `The DNS lookup of ${name} failed (${code}); it is tried again later.` };
    } finally {
      resolver.cancel();
    }
  }
}
