import { ExitCode } from '../src/lib/exit-codes';
import { CliError } from '../src/lib/cli-error';
import { DEFAULT_ENTERPRISE_GATEWAY_URL, requireToken, resolveGateway } from '../src/lib/gateway';

describe('resolveGateway', () => {
  it('uses SERVICE_GATEWAY_URL without --enterprise', () => {
    expect(resolveGateway({ SERVICE_GATEWAY_URL: 'https://context.example.com/base/' }, false)).toEqual({
      baseUrl: 'https://context.example.com/base',
      syncUrl: 'https://context.example.com/base/api/v1/gateway/sync',
      source: 'SERVICE_GATEWAY_URL',
      notices: [],
    });
  });

  it('accepts the full sync endpoint as the gateway URL', () => {
    expect(resolveGateway({ SERVICE_GATEWAY_URL: 'https://context.example.com/api/v1/gateway/sync' }, false).syncUrl).toBe('https://context.example.com/api/v1/gateway/sync');
  });

  it('uses the built-in hosted gateway with --enterprise, and says SERVICE_GATEWAY_URL is ignored', () => {
    const target = resolveGateway({ SERVICE_GATEWAY_URL: 'https://self.example.com' }, true);
    expect(target.syncUrl).toBe(`${DEFAULT_ENTERPRISE_GATEWAY_URL}/api/v1/gateway/sync`);
    expect(target.source).toBe('built-in hosted gateway');
    expect(target.notices).toEqual(['--enterprise is set: using the hosted gateway and ignoring SERVICE_GATEWAY_URL.']);
  });

  it('lets SERVICE_ENTERPRISE_GATEWAY_URL override the hosted default', () => {
    const target = resolveGateway({ SERVICE_ENTERPRISE_GATEWAY_URL: 'https://eu.hosted.example.com' }, true);
    expect(target).toMatchObject({ baseUrl: 'https://eu.hosted.example.com', source: 'SERVICE_ENTERPRISE_GATEWAY_URL', notices: [] });
  });

  it('warns about plain http except on loopback', () => {
    expect(resolveGateway({ SERVICE_GATEWAY_URL: 'http://context.internal' }, false).notices[0]).toMatch(/plain http/);
    expect(resolveGateway({ SERVICE_GATEWAY_URL: 'http://127.0.0.1:3000' }, false).notices).toEqual([]);
  });

  it.each([
    [{}, 'gateway_not_configured'],
    [{ SERVICE_GATEWAY_URL: 'not a url' }, 'gateway_url_invalid'],
    [{ SERVICE_GATEWAY_URL: 'ftp://host' }, 'gateway_url_invalid'],
    [{ SERVICE_GATEWAY_URL: 'https://host/?x=1' }, 'gateway_url_invalid'],
    [{ SERVICE_GATEWAY_URL: 'https://u:p@host' }, 'gateway_url_has_credentials'],
  ])('refuses %j with exit 2 (%s)', (env, code) => {
    expect(() => resolveGateway(env, false)).toThrow(expect.objectContaining({ exitCode: ExitCode.Configuration, code }) as CliError);
  });
});

describe('requireToken', () => {
  it('returns the trimmed token', () => {
    expect(requireToken({ SERVICE_TOKEN: ' sc_abc \n' })).toBe('sc_abc');
  });

  it('exits 2 naming the API tokens page when missing or blank', () => {
    for (const env of [{}, { SERVICE_TOKEN: '   ' }]) {
      expect(() => requireToken(env)).toThrow(/organization → API tokens/);
    }
  });
});
