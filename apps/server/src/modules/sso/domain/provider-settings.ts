import {
  CreateSsoProviderRequest,
  ENTRA_SHARED_TENANTS,
  ErrorDetail,
  SSO_DEFAULT_ALLOW_SIGN_UP,
  SSO_DEFAULT_CLAIMS,
  SSO_DEFAULT_ROLE,
  SSO_DEFAULT_SCOPES,
  SAML_DEFAULT_CLAIMS,
  SsoProviderResponse,
  SsoProviderType,
  UpdateSsoProviderRequest,
} from '@sc/contracts';
import { checkOutboundUrl, OutboundFetchError, UrlPolicy } from '../../../common/http/bounded-fetch';
import { SsoErrorCode, ssoError } from '../sso.errors';
import { claimRuleProblem } from './claims';

/** Everything an admin configures on a provider except its slug and secret: the response minus derived fields. */
export type ProviderSettings = Omit<SsoProviderResponse, 'id' | 'organizationId' | 'slug' | 'hasClientSecret' | 'effectiveEndpoints' | 'callbackUrl' | 'saml' | 'warnings' | 'lastTest' | 'createdAt' | 'updatedAt'>;

/** Every setting once, in the order answers list them; `satisfies` makes the compiler reject a missing or unknown one. */
const SETTING_ORDER = {
  displayName: 0, type: 0, enabled: 0, tenantId: 0, cloud: 0, domain: 0, clientId: 0, scopes: 0, authUrl: 0, tokenUrl: 0,
  userinfoUrl: 0, issuer: 0, jwksUri: 0, idpMetadataUrl: 0, idpMetadataXml: 0, allowIdpInitiated: 0, emailClaim: 0, nameClaim: 0, subjectClaim: 0, allowedDomains: 0, allowSignUp: 0,
  defaultRole: 0, claimRules: 0,
} satisfies Record<keyof ProviderSettings, 0>;
const SETTING_FIELDS = Object.keys(SETTING_ORDER) as (keyof ProviderSettings)[];

/** The settings of a stored provider (or of anything that has them), without its other fields. */
export function settingsOf(source: ProviderSettings): ProviderSettings {
  return Object.fromEntries(SETTING_FIELDS.map((field) => [field, source[field]])) as ProviderSettings;
}

type TypeField = 'tenantId' | 'cloud' | 'domain' | 'authUrl' | 'tokenUrl' | 'userinfoUrl' | 'issuer' | 'jwksUri' | 'idpMetadataUrl' | 'idpMetadataXml';
const FIELDS_BY_TYPE: Record<SsoProviderType, readonly TypeField[]> = {
  generic: ['authUrl', 'tokenUrl', 'userinfoUrl', 'issuer', 'jwksUri'],
  entra: ['tenantId', 'cloud'],
  okta: ['domain'],
  saml: ['idpMetadataUrl', 'idpMetadataXml'],
};
const TYPE_FIELDS: readonly TypeField[] = ['tenantId', 'cloud', 'domain', 'authUrl', 'tokenUrl', 'userinfoUrl', 'issuer', 'jwksUri', 'idpMetadataUrl', 'idpMetadataXml'];

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// RFC 6749 scope-token characters.
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

export function settingsForCreate(request: CreateSsoProviderRequest, urlPolicy: UrlPolicy): ProviderSettings {
  const details = inapplicableFieldDetails(request.type, request);
  const claims = request.type === 'saml' ? SAML_DEFAULT_CLAIMS : SSO_DEFAULT_CLAIMS;
  const settings: ProviderSettings = {
    displayName: request.displayName.trim(),
    type: request.type,
    // Off until a test sign-in passed (or the admin confirms enabling it untested): see SsoProvidersService.
    enabled: request.enabled ?? false,
    tenantId: request.tenantId ?? null,
    cloud: request.type === 'entra' ? (request.cloud ?? 'global') : null,
    domain: request.domain ?? null,
    clientId: (request.clientId ?? '').trim(),
    scopes: request.scopes ?? '',
    authUrl: request.authUrl ?? null,
    tokenUrl: request.tokenUrl ?? null,
    userinfoUrl: request.userinfoUrl ?? null,
    issuer: request.issuer ?? null,
    jwksUri: request.jwksUri ?? null,
    idpMetadataUrl: request.idpMetadataUrl ?? null,
    idpMetadataXml: request.idpMetadataXml ?? null,
    allowIdpInitiated: request.type === 'saml' ? (request.allowIdpInitiated ?? false) : false,
    emailClaim: request.emailClaim ?? claims.emailClaim,
    nameClaim: request.nameClaim ?? claims.nameClaim,
    subjectClaim: request.subjectClaim ?? claims.subjectClaim,
    allowedDomains: request.allowedDomains ?? [],
    allowSignUp: request.allowSignUp ?? SSO_DEFAULT_ALLOW_SIGN_UP,
    defaultRole: request.defaultRole ?? SSO_DEFAULT_ROLE,
    claimRules: request.claimRules ?? [],
  };
  return normalizeAndValidate(settings, urlPolicy, details);
}

/**
 * Applies a PATCH. Fields left out keep their values; when the type changes, the previous type's fields
 * that the new type does not use are cleared (sending them for the wrong type is an error, not a drop).
 */
export function settingsForUpdate(current: ProviderSettings, patch: UpdateSsoProviderRequest, urlPolicy: UrlPolicy): ProviderSettings {
  const type = patch.type ?? current.type;
  const details = inapplicableFieldDetails(type, patch);
  const next: ProviderSettings = { ...current, type };
  if (type !== current.type) {
    for (const field of TYPE_FIELDS) if (!FIELDS_BY_TYPE[type].includes(field)) clearField(next, field);
    if (type === 'entra' && patch.cloud === undefined) next.cloud = 'global';
    // SAML has no client: the OAuth client ID goes (the service drops the sealed secret).
    if (type === 'saml') next.clientId = '';
  }
  for (const key of SETTING_FIELDS.filter((field) => field !== 'type')) {
    const value = (patch as Partial<Record<keyof ProviderSettings, unknown>>)[key];
    if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
  }
  if (type === 'entra' && next.cloud === null) next.cloud = 'global';
  // Pasted metadata replaces a metadata URL: the document in use is then the one pasted.
  if (patch.idpMetadataXml && !patch.idpMetadataUrl) next.idpMetadataUrl = null;
  if (type !== 'saml') next.allowIdpInitiated = false;
  return normalizeAndValidate(next, urlPolicy, details);
}

function clearField(settings: ProviderSettings, field: TypeField): void {
  settings[field] = null;
}

function inapplicableFieldDetails(type: SsoProviderType, input: Partial<Record<TypeField, unknown>>): ErrorDetail[] {
  return TYPE_FIELDS.filter((field) => !FIELDS_BY_TYPE[type].includes(field) && input[field] !== undefined && input[field] !== null && input[field] !== '').map(
    (field) => ({ path: field, message: `${field} does not apply to ${type} providers; leave it out (it is used by ${typesUsing(field)}).` }),
  );
}

function typesUsing(field: TypeField): string {
  return (Object.keys(FIELDS_BY_TYPE) as SsoProviderType[]).filter((t) => FIELDS_BY_TYPE[t].includes(field)).join(' and ');
}

function normalizeAndValidate(settings: ProviderSettings, urlPolicy: UrlPolicy, details: ErrorDetail[]): ProviderSettings {
  const s: ProviderSettings = {
    ...settings,
    displayName: settings.displayName.trim(),
    clientId: settings.clientId.trim(),
    scopes: settings.scopes.trim().split(/\s+/).filter(Boolean).join(' ') || SSO_DEFAULT_SCOPES,
    tenantId: blankToNull(settings.tenantId),
    domain: blankToNull(settings.domain)?.toLowerCase() ?? null,
    authUrl: blankToNull(settings.authUrl),
    tokenUrl: blankToNull(settings.tokenUrl),
    userinfoUrl: blankToNull(settings.userinfoUrl),
    issuer: blankToNull(settings.issuer),
    jwksUri: blankToNull(settings.jwksUri),
    idpMetadataUrl: blankToNull(settings.idpMetadataUrl),
    idpMetadataXml: blankToNull(settings.idpMetadataXml),
    emailClaim: settings.emailClaim.trim(),
    nameClaim: settings.nameClaim.trim(),
    subjectClaim: settings.subjectClaim.trim(),
    allowedDomains: [...new Set(settings.allowedDomains.map((d) => d.trim().toLowerCase()).filter(Boolean))],
    claimRules: settings.claimRules.map((rule) => ({ claim: rule.claim.trim(), operator: rule.operator, ...(rule.value !== undefined ? { value: rule.value } : {}), role: rule.role })),
  };

  if (!s.displayName) details.push({ path: 'displayName', message: 'displayName must not be empty.' });
  if (!s.clientId && s.type !== 'saml') details.push({ path: 'clientId', message: 'clientId is required.' });
  if (s.clientId && s.type === 'saml') details.push({ path: 'clientId', message: 'clientId does not apply to saml providers; leave it out.' });
  for (const scope of s.scopes.split(' ')) {
    if (!SCOPE_TOKEN.test(scope)) details.push({ path: 'scopes', message: `"${scope}" is not a valid scope token (no quotes or backslashes).` });
  }
  for (const claimField of ['emailClaim', 'nameClaim', 'subjectClaim'] as const) {
    if (!s[claimField] || /\s/.test(s[claimField])) details.push({ path: claimField, message: `${claimField} must be a claim name or dot path without spaces.` });
  }

  switch (s.type) {
    case 'generic':
      for (const field of ['authUrl', 'tokenUrl', 'userinfoUrl'] as const) {
        if (!s[field]) details.push({ path: field, message: `${field} is required for generic providers${field === 'userinfoUrl' ? ' (every login calls UserInfo)' : ''}.` });
      }
      for (const field of ['authUrl', 'tokenUrl', 'userinfoUrl', 'issuer', 'jwksUri'] as const) {
        const problem = urlProblem(s[field], field, urlPolicy);
        if (problem) details.push(problem);
      }
      break;
    case 'entra': {
      const tenant = s.tenantId;
      if (!tenant) details.push({ path: 'tenantId', message: 'tenantId (Directory ID) is required for Entra providers.' });
      else if ((ENTRA_SHARED_TENANTS as readonly string[]).includes(tenant.toLowerCase())) {
        details.push({ path: 'tenantId', message: `"${tenant}" is a shared multi-tenant value that would admit any Microsoft directory; enter your tenant's Directory (tenant) ID.` });
      } else if (!GUID.test(tenant) && !HOSTNAME.test(tenant.toLowerCase())) {
        details.push({ path: 'tenantId', message: 'tenantId must be a Directory (tenant) ID such as 72f988bf-86f1-41af-91ab-2d7cd011db47, or a verified domain such as contoso.onmicrosoft.com.' });
      }
      if (tenant && GUID.test(tenant)) s.tenantId = tenant.toLowerCase();
      break;
    }
    case 'okta': {
      const problem = oktaDomainProblem(s.domain);
      if (problem) details.push({ path: 'domain', message: problem });
      break;
    }
    case 'saml': {
      // The document itself is read (and a URL fetched) by SsoProvidersService, which may need the network.
      if (!s.idpMetadataUrl && !s.idpMetadataXml) details.push({ path: 'idpMetadataUrl', message: 'SAML providers need the IdP metadata: idpMetadataUrl, or the document pasted as idpMetadataXml.' });
      const problem = urlProblem(s.idpMetadataUrl, 'idpMetadataUrl', urlPolicy);
      if (problem) details.push(problem);
      break;
    }
  }

  s.allowedDomains.forEach((domain, index) => {
    if (!HOSTNAME.test(domain)) {
      details.push({ path: `allowedDomains[${index}]`, message: `"${domain}" is not an email domain; enter only the part after @ (example.com).` });
    }
  });
  s.claimRules.forEach((rule, index) => {
    const problem = claimRuleProblem(rule);
    if (problem) details.push({ path: `claimRules[${index}].value`, message: `Claim rule ${index + 1} (${rule.claim} ${rule.operator}): ${problem}` });
    if (/\s/.test(rule.claim)) details.push({ path: `claimRules[${index}].claim`, message: 'claim must be a claim name or dot path without spaces.' });
  });

  if (details.length > 0) {
    throw ssoError(SsoErrorCode.InvalidProviderConfig, `The provider configuration has ${details.length} problem${details.length > 1 ? 's' : ''}: ${details.map((d) => d.message).join(' ')}`, details);
  }
  return s;
}

/** Okta takes a bare hostname: each mistake gets its own explanation. */
export function oktaDomainProblem(domain: string | null): string | undefined {
  if (!domain) return 'domain is required for Okta providers (for example acme.okta.com).';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(domain)) return `domain must be a hostname only; remove the scheme ("${domain.split('//')[0]}//").`;
  if (domain.includes('/')) return 'domain must be a hostname only; remove the path.';
  if (/:\d*$/.test(domain)) return 'domain must be a hostname only; remove the port.';
  if (domain.includes('@') || domain.includes('?') || domain.includes('#')) return 'domain must be a hostname only, such as acme.okta.com.';
  if (!HOSTNAME.test(domain)) return `"${domain}" is not a valid hostname (for example acme.okta.com).`;
  return undefined;
}

function urlProblem(value: string | null, field: string, urlPolicy: UrlPolicy): ErrorDetail | undefined {
  if (!value) return undefined;
  try {
    const url = checkOutboundUrl(value, urlPolicy);
    if (url.hash) return { path: field, message: `${field} must not contain a #fragment.` };
    return undefined;
  } catch (error) {
    if (error instanceof OutboundFetchError) return { path: field, message: `${field}: ${error.message}` };
    throw error;
  }
}

function blankToNull(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** Advice shown with the provider; it never blocks saving. */
export function settingsWarnings(s: ProviderSettings, callbackUrl: string): string[] {
  const warnings: string[] = [];
  const callback = new URL(callbackUrl);
  if (callback.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(callback.hostname)) {
    warnings.push('The callback URL uses http on a host that is not localhost: most providers refuse it. Set SERVICE_PUBLIC_URL to an https address.');
  }
  const scopes = s.scopes.split(' ');
  if (scopes.includes('offline_access')) warnings.push('offline_access requests a refresh token that the service discards; remove it.');
  if (!scopes.includes('openid') && s.type !== 'generic' && s.type !== 'saml') warnings.push('Without the openid scope the provider returns no ID token and may refuse UserInfo.');
  if (s.allowSignUp && s.allowedDomains.length === 0) {
    warnings.push('Sign-up is on and Allowed domains is empty: anyone who can sign in at this provider becomes a member. Restrict the domains or turn sign-up off.');
  }
  if (s.type === 'generic' && !s.jwksUri) warnings.push('No JWKS URI: ID-token signatures cannot be verified (claims still come from UserInfo). Use discovery to fill it.');
  if (s.type === 'generic' && s.userinfoUrl && isGithubUserEndpoint(s.userinfoUrl)) {
    if (!scopes.includes('user:email')) warnings.push('GitHub hides private email addresses unless the user:email scope is requested; add it.');
  }
  return warnings;
}

/**
 * GitHub's user endpoint (github.com: https://api.github.com/user, GitHub Enterprise Server:
 * https://<host>/api/v3/user): its `email` is null for private addresses and the emails endpoint beside it
 * lists them (callback rule 5).
 */
export function isGithubUserEndpoint(userinfoUrl: string): boolean {
  try {
    const url = new URL(userinfoUrl);
    return url.pathname.replace(/\/+$/, '').endsWith('/user');
  } catch {
    return false;
  }
}
