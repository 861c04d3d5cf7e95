import { ConfigError } from '../../config/env';
import { SsoConfig } from './sso.config';

describe('SsoConfig', () => {
  it('defaults to http for localhost and 127.0.0.1 only, 10 s and 1 MiB', () => {
    const config = SsoConfig.fromEnv({});
    expect(config.allowHttpHosts).toEqual(['localhost', '127.0.0.1']);
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
    expect(config.allowHttpHosts).toEqual(['keycloak.internal', 'localhost']);
    expect(config.outbound).toMatchObject({ timeoutMs: 2000, maxResponseBytes: 256 * 1024 });
    expect(config.hostOverrides).toMatchObject({ entraTenantHost: 'http://127.0.0.1:9000', oktaBaseUrl: 'http://127.0.0.1:9001' });
    expect(SsoConfig.fromEnv({ SERVICE_SSO_ALLOW_HTTP_HOSTS: 'none' }).allowHttpHosts).toEqual([]);
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
