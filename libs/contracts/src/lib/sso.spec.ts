import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateSsoProviderRequest, deriveSsoEndpoints, ssoCallbackUrl, SsoAuditQuery } from './sso';

describe('SSO contracts', () => {
  it('builds the callback URL to register at the provider', () => {
    expect(ssoCallbackUrl('https://context.example.com/', 'acme', 'corp')).toBe('https://context.example.com/api/v1/auth/orgs/acme/callback/corp');
  });

  it('derives the endpoints the admin form previews', () => {
    expect(deriveSsoEndpoints({ type: 'okta', domain: 'acme.okta.com' })).toEqual({
      authorizationUrl: 'https://acme.okta.com/oauth2/v1/authorize',
      tokenUrl: 'https://acme.okta.com/oauth2/v1/token',
      userinfoUrl: 'https://acme.okta.com/oauth2/v1/userinfo',
      jwksUri: 'https://acme.okta.com/oauth2/v1/keys',
      issuer: 'https://acme.okta.com',
    });
    expect(deriveSsoEndpoints({ type: 'entra', tenantId: 'tid', cloud: 'china' }).userinfoUrl).toBe('https://microsoftgraph.chinacloudapi.cn/oidc/userinfo');
    expect(deriveSsoEndpoints({ type: 'entra' }).authorizationUrl).toBeNull();
  });

  it('validates nested claim rules without reflect-metadata (the browser has none)', () => {
    const request = plainToInstance(CreateSsoProviderRequest, {
      slug: 'corp',
      type: 'generic',
      displayName: 'Corp',
      clientId: 'id',
      clientSecret: 'secret',
      claimRules: [{ claim: 'groups', operator: 'equals', value: 'x', role: 'admin' }, { claim: 'groups', operator: 'like', role: 'owner' }],
    });
    const errors = validateSync(request, { whitelist: true, forbidNonWhitelisted: true });
    expect(errors.map((e) => e.property)).toEqual(['claimRules']);
    const nested = errors[0].children ?? [];
    expect(nested.map((e) => e.property)).toEqual(['1']);
    expect(nested[0].children?.map((c) => c.property).sort()).toEqual(['operator', 'role']);
  });

  it('reads the audit page size from the query string', () => {
    const query = plainToInstance(SsoAuditQuery, { limit: '25', outcome: 'failure' });
    expect(query.limit).toBe(25);
    expect(validateSync(query)).toEqual([]);
    expect(validateSync(plainToInstance(SsoAuditQuery, { limit: 'many' }))[0]?.property).toBe('limit');
  });
});
