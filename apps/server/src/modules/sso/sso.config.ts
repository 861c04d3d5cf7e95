import type { SsoEndpointHostOverrides } from '@sc/contracts';
import { DEFAULT_OUTBOUND_POLICY, OutboundPolicy } from '../../common/http/bounded-fetch';
import { AllowedNetwork, parseNetwork } from '../../common/http/outbound-address';
import { Env, EnvReader } from '../../config/env';

/**
 * SSO settings read once at boot:
 * - SERVICE_SSO_ALLOWED_NETWORKS: internal networks (CIDRs) the server may call, for an identity provider
 *   inside the operator's network (default none: only public addresses).
 * - SERVICE_SSO_ALLOW_HTTP_HOSTS: hosts the server may call over plain http (default none; `none` also means
 *   none). Every other provider URL must be https.
 * - SERVICE_SSO_FETCH_TIMEOUT (default 10s) and SERVICE_SSO_FETCH_MAX_BYTES (default 1mb): limits of every
 *   call to a provider (discovery, token, UserInfo, emails, JWKS).
 * - SERVICE_SSO_ENTRA_TENANT_HOST / SERVICE_SSO_ENTRA_GRAPH_HOST / SERVICE_SSO_OKTA_BASE_URL: replace the
 *   derived hosts (`https://login.microsoftonline.com`, `https://graph.microsoft.com`, `https://<domain>`)
 *   for tests or private mirrors. Leave them unset in production.
 */
export class SsoConfig {
  constructor(
    readonly outbound: OutboundPolicy,
    readonly hostOverrides: SsoEndpointHostOverrides,
  ) {}

  static fromEnv(env: Env): SsoConfig {
    const read = new EnvReader(env);
    const outbound: OutboundPolicy = {
      allowHttpHosts: readHttpHosts(read),
      allowedNetworks: readNetworks(read),
      timeoutMs: read.durationMs('SERVICE_SSO_FETCH_TIMEOUT', DEFAULT_OUTBOUND_POLICY.timeoutMs, { minMs: 100 }),
      maxResponseBytes: read.byteSize('SERVICE_SSO_FETCH_MAX_BYTES', DEFAULT_OUTBOUND_POLICY.maxResponseBytes),
      maxRedirects: DEFAULT_OUTBOUND_POLICY.maxRedirects,
    };
    const hostOverrides: SsoEndpointHostOverrides = {
      entraTenantHost: read.httpUrl('SERVICE_SSO_ENTRA_TENANT_HOST'),
      entraGraphHost: read.httpUrl('SERVICE_SSO_ENTRA_GRAPH_HOST'),
      oktaBaseUrl: read.httpUrl('SERVICE_SSO_OKTA_BASE_URL'),
    };
    read.assertValid();
    return new SsoConfig(outbound, hostOverrides);
  }
}

function list(read: EnvReader, name: string): string[] {
  const raw = read.raw(name);
  if (raw === undefined || raw.toLowerCase() === 'none') return [];
  return raw.split(',').map((item) => item.trim()).filter(Boolean);
}

function readHttpHosts(read: EnvReader): string[] {
  const hosts = list(read, 'SERVICE_SSO_ALLOW_HTTP_HOSTS').map((host) => host.toLowerCase());
  const bad = hosts.filter((host) => !isUrlHostname(host));
  if (bad.length > 0) read.problem(`SERVICE_SSO_ALLOW_HTTP_HOSTS must be a comma-separated list of host names or addresses as a URL writes them, without scheme or port, such as keycloak.internal,10.0.0.5,[fd00::5] (not ${bad.map((h) => `"${h}"`).join(', ')}).`);
  return hosts;
}

/** True when `host` is exactly what the URL parser makes of it: a scheme, port, path or unusual spelling would never match. */
function isUrlHostname(host: string): boolean {
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  try {
    return new URL(`http://${bracketed}/`).hostname === bracketed;
  } catch {
    return false;
  }
}

function readNetworks(read: EnvReader): AllowedNetwork[] {
  const entries = list(read, 'SERVICE_SSO_ALLOWED_NETWORKS');
  const networks = entries.map((entry) => parseNetwork(entry));
  const bad = entries.filter((_, index) => networks[index] === undefined);
  if (bad.length > 0) read.problem(`SERVICE_SSO_ALLOWED_NETWORKS must be a comma-separated list of CIDR ranges such as 10.0.0.0/8,fd00::/8 (not ${bad.map((e) => `"${e}"`).join(', ')}).`);
  return networks.filter((network): network is AllowedNetwork => network !== undefined);
}
