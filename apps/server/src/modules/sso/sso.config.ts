import type { SsoEndpointHostOverrides } from '@sc/contracts';
import { DEFAULT_ALLOW_HTTP_HOSTS, DEFAULT_OUTBOUND_POLICY, OutboundPolicy } from '../../common/http/bounded-fetch';
import { Env, EnvReader } from '../../config/env';

/**
 * SSO settings read once at boot:
 * - SERVICE_SSO_ALLOW_HTTP_HOSTS: hosts the server may call over plain http (default `localhost,127.0.0.1`;
 *   `none` allows none). Every other provider URL must be https.
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

  get allowHttpHosts(): readonly string[] {
    return this.outbound.allowHttpHosts;
  }

  static fromEnv(env: Env): SsoConfig {
    const read = new EnvReader(env);
    const hostsRaw = read.raw('SERVICE_SSO_ALLOW_HTTP_HOSTS');
    const allowHttpHosts =
      hostsRaw === undefined ? [...DEFAULT_ALLOW_HTTP_HOSTS] : hostsRaw.toLowerCase() === 'none' ? [] : hostsRaw.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
    const outbound: OutboundPolicy = {
      allowHttpHosts,
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
