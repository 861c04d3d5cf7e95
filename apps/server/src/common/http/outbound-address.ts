import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/** A network an operator allowed, as ipaddr.js parses a CIDR: base address and prefix length. */
export type AllowedNetwork = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * IPv6 ranges that carry an IPv4 address in their last 32 bits and reach it: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-translated (::ffff:0:a.b.c.d) and NAT64's well-known prefix (64:ff9b::/96). The embedded address
 * decides, so `::ffff:127.0.0.1` is loopback and `64:ff9b::8.8.8.8` is public.
 */
const EMBEDDING_IPV4 = new Set(['ipv4Mapped', 'rfc6145']);
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Why the server must not call this address, or null when it may. Only global unicast addresses are
 * callable (ipaddr.js's `unicast` range): loopback, private (RFC 1918), link-local (with the cloud metadata
 * address 169.254.169.254), unique-local (fc00::/7), CGNAT (100.64/10), unspecified, multicast, broadcast,
 * benchmarking, documentation, reserved, 6to4 and Teredo are all refused, as is the deprecated
 * IPv4-compatible form (::a.b.c.d). An address inside one of `allowedNetworks` is callable whatever its range.
 * Accepts every form ipaddr.js parses, including 0x7f000001, 2130706433, 017700000001 and 127.1.
 */
export function refusedRange(address: string, allowedNetworks: readonly AllowedNetwork[]): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  const embedded = embeddedIPv4(parsed);
  if (allowedNetworks.some((network) => inNetwork(parsed, network) || (embedded !== null && inNetwork(embedded, network)))) return null;
  const checked = embedded ?? parsed;
  if (checked.kind() === 'ipv6' && isIPv4Compatible(checked as ipaddr.IPv6)) return 'ipv4Compatible';
  const range = checked.range();
  return range === 'unicast' ? null : range;
}

/** Parses one CIDR such as `10.0.0.0/8` or `fd00::/8`; undefined when it is not one. */
export function parseNetwork(cidr: string): AllowedNetwork | undefined {
  try {
    return ipaddr.parseCIDR(cidr.trim());
  } catch {
    return undefined;
  }
}

/**
 * True when `host` (a URL's hostname, IPv6 with or without brackets) is an IP address rather than a name:
 * Node's own test, the one that decides whether a socket connects directly or resolves the name first.
 */
export function isIpLiteral(host: string): boolean {
  return isIP(unbracket(host)) !== 0;
}

export function unbracket(host: string): string {
  return host.replace(/^\[|\]$/g, '');
}

function embeddedIPv4(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.kind() !== 'ipv6') return null;
  const v6 = address as ipaddr.IPv6;
  if (!EMBEDDING_IPV4.has(v6.range()) && !v6.match(NAT64_WELL_KNOWN)) return null;
  const bytes = v6.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12));
}

function isIPv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((part) => part === 0) && !['unspecified', 'loopback'].includes(address.range());
}

function inNetwork(address: ipaddr.IPv4 | ipaddr.IPv6, [base, bits]: AllowedNetwork): boolean {
  return address.kind() === base.kind() && address.match(base, bits);
}
