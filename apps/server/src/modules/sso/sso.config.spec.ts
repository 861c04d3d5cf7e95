import { ConfigError } from '../../config/env';
import { SsoConfig } from './sso.config';

describe('SsoConfig', () => {
  it('defaults to no plain http, no internal network, 10 s and 1 MiB', () => {
    const config = SsoConfig.fromEnv({});
    expect(config.outbound.allowHttpHosts).toEqual([]);
    expect(config.outbound.allowedNetworks).toEqual([]);
    expect(config.outbound).toMatchObject({ timeoutMs: 10_000, maxResponseBytes: 1024 * 1024 });
    expect(config.hostOverrides).toEqual({ entraTenantHost: undefined, entraGraphHost: undefined, oktaBaseUrl: undefined });
  });

  it('reads the allow list, limits and host overrides', () => {
    const config = SsoConfig.fromEnv({
      SERVICE_SSO_ALLOW_HTTP_HOSTS: ' Keycloak.internal , localhost ',
      SERVICE_SSO_FETCH_TIMEOUT: '2s',
      SERVICE_SSO_FETCH_MAX_BYTES: '256kb',
      SERVICE_SSO_ENTRA_TENANT_HOST: 'http://127.0.0.1:9000/',
      SERVICE_SSO_OKTA_BASE_URL: 'http://127.0.0.1:9001',
    });
    expect(config.outbound.allowHttpHosts).toEqual(['keycloak.internal', 'localhost']);
    expect(config.outbound).toMatchObject({ timeoutMs: 2000, maxResponseBytes: 256 * 1024 });
    expect(config.hostOverrides).toMatchObject({ entraTenantHost: 'http://127.0.0.1:9000', oktaBaseUrl: 'http://127.0.0.1:9001' });
    expect(SsoConfig.fromEnv({ SERVICE_SSO_ALLOW_HTTP_HOSTS: 'none' }).outbound.allowHttpHosts).toEqual([]);
    expect(SsoConfig.fromEnv({ SERVICE_SSO_ALLOW_HTTP_HOSTS: '10.0.0.5,[fd00::5],::1' }).outbound.allowHttpHosts).toEqual(['10.0.0.5', '[fd00::5]', '::1']);
  });

  it('reads the internal networks an operator allows', () => {
    const { allowedNetworks } = SsoConfig.fromEnv({ SERVICE_SSO_ALLOWED_NETWORKS: ' 10.20.0.0/16 , fd00::/8,127.0.0.0/8 ' }).outbound;
    expect(allowedNetworks.map(([base, bits]) => `${base.toString()}/${bits}`)).toEqual(['10.20.0.0/16', 'fd00::/8', '127.0.0.0/8']);
    expect(SsoConfig.fromEnv({ SERVICE_SSO_ALLOWED_NETWORKS: 'none' }).outbound.allowedNetworks).toEqual([]);
  });

  it.each([
    ['SERVICE_SSO_ALLOWED_NETWORKS', '10.0.0.0/8,intranet,10.0.0.1', /^SERVICE_SSO_ALLOWED_NETWORKS must be a comma-separated list of CIDR ranges .*\(not "intranet", "10\.0\.0\.1"\)\.$/],
    ['SERVICE_SSO_ALLOWED_NETWORKS', '10.0.0.0/33', /SERVICE_SSO_ALLOWED_NETWORKS .*"10\.0\.0\.0\/33"/],
    ['SERVICE_SSO_ALLOW_HTTP_HOSTS', 'http://keycloak.internal,keycloak.internal:8080,a/b', /^SERVICE_SSO_ALLOW_HTTP_HOSTS must be .*\(not "http:\/\/keycloak\.internal", "keycloak\.internal:8080", "a\/b"\)\.$/],
  ])('refuses a bad %s at boot with a message naming it', (name, value, message) => {
    expect(() => SsoConfig.fromEnv({ [name]: value })).toThrow(ConfigError);
    try {
      SsoConfig.fromEnv({ [name]: value });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([expect.stringMatching(message)]);
    }
  });

  it('reports every bad variable at once', () => {
    try {
      SsoConfig.fromEnv({ SERVICE_SSO_FETCH_TIMEOUT: 'soon', SERVICE_SSO_OKTA_BASE_URL: 'okta' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });
});
