import type { ApiTokenResponse, ErrorBody, ErrorDetail, GatewayInfo, MeResponse, MemberResponse, SsoProviderResponse } from '@sc/contracts';

/**
 * A maker of sample answers: the answer `defaults` makes (a new one each time, so a spec may change what it gets) with
 * the fields a spec is about overridden.
 */
export function sample<T extends object>(defaults: () => T): (overrides?: Partial<T>) => T {
  return (overrides = {}) => ({ ...defaults(), ...overrides });
}

/** Sample API answers shaped exactly like @sc/contracts, for component and service specs. */
export const ME: MeResponse = {
  kind: 'session',
  organization: { id: 'acme', name: 'Acme', createdAt: '2026-01-01T00:00:00Z' },
  user: { id: 'u-olga', email: 'olga@acme.test', displayName: 'Olga' },
  role: 'owner',
  scopes: null,
  csrfToken: 'csrf',
};

export const member = sample<MemberResponse>(() => ({
  userId: 'u-bob',
  email: 'bob@acme.test',
  displayName: 'Bob',
  role: 'viewer',
  source: 'manual',
  disabled: false,
  userDisabled: false,
  addedBy: { kind: 'member', userId: 'u-olga', email: 'olga@acme.test' },
  createdAt: '2026-01-02T00:00:00Z',
}));

export const apiToken = sample<ApiTokenResponse>(() => ({
  id: 't1',
  name: 'CI',
  prefix: 'sct_ab12cd34',
  scopes: ['sync'],
  createdByUserId: 'u-olga',
  createdBy: { email: 'olga@acme.test', displayName: 'Olga' },
  createdAt: '2026-01-01T00:00:00Z',
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
}));

export function errorBody(code: string, message: string, details: ErrorDetail[] = []): ErrorBody {
  return { error: { code, message, details } };
}

/** GET /api/v1/gateway/info of a server that serves its CLI package. */
export const gatewayInfo = sample<GatewayInfo>(() => ({
  apiVersion: 1,
  serverVersion: '0.1.0',
  minCliVersion: '0.1.0',
  cliPackage: { version: '0.1.0', url: 'https://context.example.com/downloads/service-cli.tgz', sha256: 'a'.repeat(64) },
}));

/** A saved generic OIDC provider "kc" of acme with an http callback on a public host. */
export const ssoProvider = sample<SsoProviderResponse>(() => ({
  id: 'p1',
  organizationId: 'acme',
  slug: 'kc',
  displayName: 'Keycloak',
  type: 'generic',
  enabled: true,
  tenantId: null,
  cloud: null,
  domain: null,
  clientId: 'client',
  hasClientSecret: true,
  scopes: 'openid email profile',
  authUrl: 'https://kc.test/auth',
  tokenUrl: 'https://kc.test/token',
  userinfoUrl: 'https://kc.test/userinfo',
  issuer: null,
  jwksUri: null,
  idpMetadataUrl: null,
  idpMetadataXml: null,
  allowIdpInitiated: false,
  emailClaim: 'email',
  nameClaim: 'name',
  subjectClaim: 'sub',
  allowedDomains: ['acme.test'],
  allowSignUp: false,
  defaultRole: 'viewer',
  claimRules: [
    { claim: 'groups', operator: 'contains', value: 'admins', role: 'admin' },
    { claim: 'email_verified', operator: 'exists', role: 'editor' },
  ],
  effectiveEndpoints: { authorizationUrl: 'https://kc.test/auth', tokenUrl: 'https://kc.test/token', userinfoUrl: 'https://kc.test/userinfo', jwksUri: null, issuer: null },
  callbackUrl: 'http://sso.acme.test/api/v1/auth/orgs/acme/callback/kc',
  saml: null,
  warnings: ['The callback URL uses http on a host that is not localhost: most providers refuse it.', 'No JWKS URI: ID-token signatures cannot be verified.'],
  lastTest: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
}));
