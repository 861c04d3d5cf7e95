import type { SsoDiscoveryResponse } from '@sc/contracts';
import { sample } from '../../../testing/fixtures';
import {
  callbackUrlWarning,
  detailTarget,
  detailsByTarget,
  discoveryPatch,
  emptyProviderForm,
  githubScopeHint,
  moveItem,
  previewEndpoints,
  toCreateRequest,
  toUpdateRequest,
  type ProviderFormValue,
} from './provider-form';

const form = sample<ProviderFormValue>(() => ({
  ...emptyProviderForm(),
  slug: 'keycloak',
  displayName: ' Keycloak ',
  clientId: ' client ',
  clientSecret: 's3cret',
  authUrl: 'https://idp.test/auth',
  tokenUrl: 'https://idp.test/token',
  userinfoUrl: 'https://idp.test/userinfo?fields=email',
  tenantId: 'left-over-tenant',
  domain: 'left-over.okta.com',
}));

describe('provider form rules', () => {
  describe('requests', () => {
    it('sends a SAML provider without client, secret or scopes, with its metadata and IdP-initiated switch', () => {
      const saml = form({ type: 'saml', idpMetadataUrl: ' https://idp.test/metadata ', idpMetadataXml: '', allowIdpInitiated: true, subjectClaim: 'nameID' });
      const request = toCreateRequest(saml) as unknown as Record<string, unknown>;
      expect(request).toMatchObject({ type: 'saml', idpMetadataUrl: 'https://idp.test/metadata', idpMetadataXml: null, allowIdpInitiated: true, subjectClaim: 'nameID' });
      for (const absent of ['clientId', 'clientSecret', 'scopes', 'authUrl', 'tenantId', 'domain']) expect(request).not.toHaveProperty(absent);
      expect(toUpdateRequest(saml)).not.toHaveProperty('clientSecret');
      // The OAuth types never send the SAML switch.
      expect(toCreateRequest(form({ allowIdpInitiated: true }))).not.toHaveProperty('allowIdpInitiated');
    });

    it('sends only the generic fields for a generic provider, blanks as null', () => {
      const request = toCreateRequest(form());
      expect(request).toMatchObject({
        slug: 'keycloak',
        displayName: 'Keycloak',
        clientId: 'client',
        clientSecret: 's3cret',
        type: 'generic',
        authUrl: 'https://idp.test/auth',
        userinfoUrl: 'https://idp.test/userinfo?fields=email',
        issuer: null,
        jwksUri: null,
      });
      expect(request).not.toHaveProperty('tenantId');
      expect(request).not.toHaveProperty('domain');
      expect(request).not.toHaveProperty('cloud');
    });

    it('sends only the tenant and cloud for Entra and only the domain for Okta', () => {
      const entra = toCreateRequest(form({ type: 'entra', tenantId: ' 72f988bf-86f1-41af-91ab-2d7cd011db47 ', cloud: 'usgov' }));
      expect(entra).toMatchObject({ tenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47', cloud: 'usgov' });
      for (const field of ['authUrl', 'tokenUrl', 'userinfoUrl', 'issuer', 'jwksUri', 'domain']) expect(entra).not.toHaveProperty(field);

      const okta = toCreateRequest(form({ type: 'okta', domain: 'acme.okta.com' }));
      expect(okta).toMatchObject({ domain: 'acme.okta.com' });
      for (const field of ['authUrl', 'tenantId', 'cloud']) expect(okta).not.toHaveProperty(field);
    });

    it('never sends the slug on update, and the secret only when a replacement was typed', () => {
      const keep = toUpdateRequest(form({ clientSecret: '' }));
      expect(keep).not.toHaveProperty('slug');
      expect(keep).not.toHaveProperty('clientSecret');
      expect(toUpdateRequest(form({ clientSecret: 'new-secret' })).clientSecret).toBe('new-secret');
    });

    it('parses allowed domains and drops the value of exists rules', () => {
      const request = toCreateRequest(
        form({
          allowedDomains: 'Acme.com, @acme.co.uk\nacme.com;  ',
          claimRules: [
            { claim: ' groups ', operator: 'contains', value: 'admins', role: 'admin' },
            { claim: 'realm_access.roles', operator: 'exists', value: 'ignored', role: 'viewer' },
          ],
        }),
      );
      expect(request.allowedDomains).toEqual(['acme.com', 'acme.co.uk']);
      expect(request.claimRules).toEqual([
        { claim: 'groups', operator: 'contains', value: 'admins', role: 'admin' },
        { claim: 'realm_access.roles', operator: 'exists', role: 'viewer' },
      ]);
    });
  });

  describe('endpoint preview', () => {
    it('derives Okta endpoints from the hostname', () => {
      expect(previewEndpoints(form({ type: 'okta', domain: ' acme.okta.com ' }))).toMatchObject({
        authorizationUrl: 'https://acme.okta.com/oauth2/v1/authorize',
        tokenUrl: 'https://acme.okta.com/oauth2/v1/token',
        userinfoUrl: 'https://acme.okta.com/oauth2/v1/userinfo',
      });
    });

    it('derives Entra endpoints from the tenant and the chosen cloud', () => {
      const preview = previewEndpoints(form({ type: 'entra', tenantId: 'contoso.onmicrosoft.com', cloud: 'usgov' }));
      expect(preview.authorizationUrl).toBe('https://login.microsoftonline.us/contoso.onmicrosoft.com/oauth2/v2.0/authorize');
      expect(preview.userinfoUrl).toBe('https://graph.microsoft.us/oidc/userinfo');
    });

    it('shows nothing until the type’s input is there, and the typed URLs for generic', () => {
      expect(previewEndpoints(form({ type: 'okta', domain: '  ' })).authorizationUrl).toBeNull();
      expect(previewEndpoints(form({ type: 'entra', tenantId: '' })).tokenUrl).toBeNull();
      expect(previewEndpoints(form()).userinfoUrl).toBe('https://idp.test/userinfo?fields=email');
      expect(previewEndpoints(form({ authUrl: ' ' })).authorizationUrl).toBeNull();
    });
  });

  it('moves claim rules without losing or duplicating any', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, 3)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], -1, 0)).toEqual(['a', 'b', 'c']);
  });

  it('warns about http callback URLs except on loopback hosts', () => {
    expect(callbackUrlWarning('http://sso.acme.test/api/v1/auth/orgs/a/callback/k')).toContain('https');
    expect(callbackUrlWarning('http://localhost:3000/api/v1/auth/orgs/a/callback/k')).toBeNull();
    expect(callbackUrlWarning('http://127.0.0.1:3000/api/v1/auth/orgs/a/callback/k')).toBeNull();
    expect(callbackUrlWarning('https://sso.acme.test/api/v1/auth/orgs/a/callback/k')).toBeNull();
  });

  it('asks for user:email when the UserInfo URL is GitHub’s', () => {
    const github = form({ userinfoUrl: 'https://api.github.com/user', scopes: 'read:user' });
    expect(githubScopeHint(github)).toContain('user:email');
    expect(githubScopeHint({ ...github, scopes: 'read:user user:email' })).toBeNull();
    expect(githubScopeHint({ ...github, userinfoUrl: 'https://github.acme.test/api/v3/user' })).toContain('user:email');
    expect(githubScopeHint({ ...github, userinfoUrl: 'https://idp.test/userinfo' })).toBeNull();
    expect(githubScopeHint({ ...github, type: 'okta' })).toBeNull();
  });

  it('fills the generic endpoints from discovery, keeping fields the document lacks', () => {
    const discovery: SsoDiscoveryResponse = {
      issuer: 'https://kc.test/realms/acme',
      authorization_endpoint: 'https://kc.test/auth',
      token_endpoint: 'https://kc.test/token',
      userinfo_endpoint: null,
      jwks_uri: 'https://kc.test/certs',
      client_secret_post_supported: true,
      scopes_supported: [],
      warnings: [],
    };
    expect(discoveryPatch(discovery)).toEqual({
      type: 'generic',
      issuer: 'https://kc.test/realms/acme',
      authUrl: 'https://kc.test/auth',
      tokenUrl: 'https://kc.test/token',
      jwksUri: 'https://kc.test/certs',
    });
  });

  it('maps server detail paths to form fields and claim-rule fields', () => {
    expect(detailTarget('authUrl')).toEqual({ field: 'authUrl' });
    expect(detailTarget('allowedDomains[2]')).toEqual({ field: 'allowedDomains' });
    expect(detailTarget('claimRules[1].value')).toEqual({ rule: 1, field: 'value' });
    expect(detailTarget('somethingElse')).toBeNull();
    expect(detailTarget(undefined)).toBeNull();

    const grouped = detailsByTarget([
      { path: 'allowedDomains[0]', message: '"x" is not an email domain' },
      { path: 'allowedDomains[3]', message: '"y" is not an email domain' },
      { path: 'claimRules[0].value', message: 'invalid regex' },
      { message: 'no path' },
    ]);
    expect(grouped.get('allowedDomains')).toEqual(['"x" is not an email domain', '"y" is not an email domain']);
    expect(grouped.get('claimRules.0.value')).toEqual(['invalid regex']);
    expect(grouped.size).toBe(2);
  });
});
