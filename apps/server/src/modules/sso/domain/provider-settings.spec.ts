import { CreateSsoProviderRequest, deriveSsoEndpoints, SsoErrorCode } from '@sc/contracts';
import ipaddr from 'ipaddr.js';
import { DomainError } from '../../../common/errors/domain-error';
import type { UrlPolicy } from '../../../common/http/bounded-fetch';
import { oktaDomainProblem, settingsForCreate, settingsForUpdate, settingsWarnings } from './provider-settings';

const allow: UrlPolicy = { allowHttpHosts: ['localhost', '127.0.0.1'], allowedNetworks: [ipaddr.parseCIDR('127.0.0.0/8')] };
const base = { slug: 'corp', displayName: 'Corp', clientId: 'cid', clientSecret: 's3cret' };

function create(extra: Partial<CreateSsoProviderRequest>) {
  return settingsForCreate({ ...base, type: 'generic', ...extra } as CreateSsoProviderRequest, allow);
}

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(SsoErrorCode.InvalidProviderConfig);
    return (error as DomainError).details.map((d) => `${d.path}: ${d.message}`);
  }
  throw new Error('expected invalid_provider_config');
}

describe('provider settings', () => {
  it('applies documented defaults (a new provider starts disabled: enabling it wants a passed test sign-in)', () => {
    const s = create({ authUrl: 'https://idp.example.com/a', tokenUrl: 'https://idp.example.com/t', userinfoUrl: 'https://idp.example.com/u?fields=email' });
    expect(s).toMatchObject({ scopes: 'openid email profile', emailClaim: 'email', nameClaim: 'name', subjectClaim: 'sub', allowSignUp: false, defaultRole: 'viewer', enabled: false, cloud: null });
    expect(s.userinfoUrl).toBe('https://idp.example.com/u?fields=email');
  });

  it('requires the generic endpoints and refuses plain http outside the allow list', () => {
    const found = problems(() => create({ authUrl: 'http://idp.example.com/a', tokenUrl: 'https://idp.example.com/t' }));
    expect(found).toEqual(expect.arrayContaining([expect.stringMatching(/^userinfoUrl: userinfoUrl is required/), expect.stringMatching(/^authUrl: .*plain http/)]));
    expect(create({ authUrl: 'http://127.0.0.1:9/a', tokenUrl: 'http://localhost:9/t', userinfoUrl: 'http://127.0.0.1:9/u' }).authUrl).toBe('http://127.0.0.1:9/a');
  });

  it('refuses internal addresses written as numbers unless their network is allowed', () => {
    const found = problems(() => create({ authUrl: 'https://10.0.0.1/a', tokenUrl: 'https://[fd00::1]/t', userinfoUrl: 'https://169.254.169.254/u', jwksUri: 'https://0xa9fea9fe/k' }));
    expect(found).toEqual([
      expect.stringMatching(/^authUrl: authUrl: https:\/\/10\.0\.0\.1 is not a public address \(private\).*SERVICE_SSO_ALLOWED_NETWORKS/),
      expect.stringMatching(/^tokenUrl: .*\(uniqueLocal\)/),
      expect.stringMatching(/^userinfoUrl: .*\(linkLocal\)/),
      expect.stringMatching(/^jwksUri: jwksUri: https:\/\/169\.254\.169\.254 is not a public address \(linkLocal\)/),
    ]);
    const inside = { ...allow, allowedNetworks: [ipaddr.parseCIDR('10.0.0.0/8')] };
    expect(settingsForCreate({ ...base, type: 'generic', authUrl: 'https://10.0.0.1/a', tokenUrl: 'https://10.1.2.3/t', userinfoUrl: 'https://10.0.0.1/u' } as CreateSsoProviderRequest, inside).tokenUrl).toBe('https://10.1.2.3/t');
  });

  it('validates Entra tenants and refuses shared tenants', () => {
    expect(settingsForCreate({ ...base, type: 'entra', tenantId: '72F988BF-86F1-41AF-91AB-2D7CD011DB47' }, allow)).toMatchObject({ tenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47', cloud: 'global' });
    expect(problems(() => settingsForCreate({ ...base, type: 'entra', tenantId: 'common' }, allow))[0]).toMatch(/shared multi-tenant/);
    expect(problems(() => settingsForCreate({ ...base, type: 'entra' }, allow))[0]).toMatch(/tenantId .* required/);
    expect(problems(() => settingsForCreate({ ...base, type: 'entra', tenantId: 't', authUrl: 'https://x.example/a' } as CreateSsoProviderRequest, allow))[0]).toMatch(/^authUrl: authUrl does not apply to entra/);
  });

  it.each([
    ['https://acme.okta.com', /remove the scheme/],
    ['acme.okta.com/oauth2', /remove the path/],
    ['acme.okta.com:443', /remove the port/],
    ['acme', /not a valid hostname/],
    [null, /required/],
  ])('refuses the Okta domain %j', (domain, message) => {
    expect(oktaDomainProblem(domain)).toMatch(message);
  });

  it('derives exact endpoints for Okta and Entra, with host overrides', () => {
    const okta = settingsForCreate({ ...base, type: 'okta', domain: 'Acme.Okta.com' }, allow);
    expect(okta.domain).toBe('acme.okta.com');
    expect(deriveSsoEndpoints(okta)).toMatchObject({ authorizationUrl: 'https://acme.okta.com/oauth2/v1/authorize', tokenUrl: 'https://acme.okta.com/oauth2/v1/token', userinfoUrl: 'https://acme.okta.com/oauth2/v1/userinfo' });
    const entra = { type: 'entra' as const, tenantId: 'tid', cloud: 'usgov' as const };
    expect(deriveSsoEndpoints(entra)).toMatchObject({ authorizationUrl: 'https://login.microsoftonline.us/tid/oauth2/v2.0/authorize', userinfoUrl: 'https://graph.microsoft.us/oidc/userinfo' });
    expect(deriveSsoEndpoints(entra, { entraTenantHost: 'http://127.0.0.1:1/', entraGraphHost: 'http://127.0.0.1:2' })).toMatchObject({
      authorizationUrl: 'http://127.0.0.1:1/tid/oauth2/v2.0/authorize',
      tokenUrl: 'http://127.0.0.1:1/tid/oauth2/v2.0/token',
      userinfoUrl: 'http://127.0.0.1:2/oidc/userinfo',
    });
  });

  it('checks domains and claim rules, reporting every problem with its path', () => {
    const found = problems(() =>
      create({
        authUrl: 'https://i.example/a', tokenUrl: 'https://i.example/t', userinfoUrl: 'https://i.example/u',
        allowedDomains: ['example.com', '@bad'],
        claimRules: [{ claim: 'groups', operator: 'regex', value: '(', role: 'admin' }, { claim: 'groups', operator: 'equals', role: 'admin' }],
      }),
    );
    expect(found).toEqual([expect.stringMatching(/^allowedDomains\[1\]/), expect.stringMatching(/^claimRules\[0\]\.value: Claim rule 1 \(groups regex\): value is not a regular expression/), expect.stringMatching(/^claimRules\[1\]\.value: Claim rule 2 \(groups equals\): value is required/)]);
  });

  it('clears the previous type fields when the type changes', () => {
    const generic = create({ authUrl: 'https://i.example/a', tokenUrl: 'https://i.example/t', userinfoUrl: 'https://i.example/u' });
    const okta = settingsForUpdate(generic, { type: 'okta', domain: 'acme.okta.com' }, allow);
    expect(okta).toMatchObject({ type: 'okta', domain: 'acme.okta.com', authUrl: null, tokenUrl: null, userinfoUrl: null });
    expect(settingsForUpdate(okta, { displayName: 'New' }, allow)).toMatchObject({ displayName: 'New', domain: 'acme.okta.com' });
    expect(problems(() => settingsForUpdate(okta, { authUrl: 'https://i.example/a' }, allow))[0]).toMatch(/does not apply to okta/);
  });

  it('SAML: metadata URL or XML, no client, SAML claim defaults, and a type change drops the OAuth client', () => {
    const saml = settingsForCreate({ slug: 'corp', displayName: 'Corp', type: 'saml', idpMetadataUrl: 'https://idp.example.com/metadata' } as CreateSsoProviderRequest, allow);
    expect(saml).toMatchObject({ type: 'saml', clientId: '', idpMetadataUrl: 'https://idp.example.com/metadata', idpMetadataXml: null, allowIdpInitiated: false, emailClaim: 'email', subjectClaim: 'nameID' });
    expect(problems(() => settingsForCreate({ slug: 'c', displayName: 'C', type: 'saml' } as CreateSsoProviderRequest, allow))[0]).toMatch(/^idpMetadataUrl: SAML providers need the IdP metadata/);
    expect(problems(() => settingsForCreate({ slug: 'c', displayName: 'C', type: 'saml', idpMetadataUrl: 'http://10.0.0.5/metadata' } as CreateSsoProviderRequest, allow))[0]).toMatch(/^idpMetadataUrl:/);
    expect(problems(() => create({ type: 'saml', idpMetadataXml: '<x/>' }))).toEqual([expect.stringMatching(/^clientId: clientId does not apply to saml/)]);
    const generic = create({ authUrl: 'https://i.example/a', tokenUrl: 'https://i.example/t', userinfoUrl: 'https://i.example/u' });
    expect(settingsForUpdate(generic, { type: 'saml', idpMetadataXml: '<x/>' }, allow)).toMatchObject({ type: 'saml', clientId: '', authUrl: null, idpMetadataXml: '<x/>' });
    // Pasting metadata replaces a metadata URL.
    expect(settingsForUpdate(saml, { idpMetadataXml: '<x/>' }, allow)).toMatchObject({ idpMetadataUrl: null, idpMetadataXml: '<x/>' });
  });

  it('warns about risky but valid choices', () => {
    const s = create({ authUrl: 'https://i.example/a', tokenUrl: 'https://i.example/t', userinfoUrl: 'https://api.github.com/user', scopes: 'read:user offline_access', allowSignUp: true });
    const warnings = settingsWarnings(s, 'http://sso.example.com/api/v1/auth/orgs/a/callback/corp');
    expect(warnings.join('\n')).toMatch(/callback URL uses http/);
    expect(warnings.join('\n')).toMatch(/offline_access/);
    expect(warnings.join('\n')).toMatch(/anyone who can sign in/);
    expect(warnings.join('\n')).toMatch(/user:email/);
    expect(settingsWarnings({ ...s, scopes: 'openid', allowSignUp: false, jwksUri: 'https://i.example/jwks', userinfoUrl: 'https://i.example/u' }, 'http://localhost:3000/x')).toEqual([]);
  });
});
