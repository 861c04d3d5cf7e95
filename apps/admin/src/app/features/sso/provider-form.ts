import {
  SAML_DEFAULT_CLAIMS,
  SSO_DEFAULT_ALLOW_SIGN_UP,
  SSO_DEFAULT_CLAIMS,
  SSO_DEFAULT_ROLE,
  SSO_DEFAULT_SCOPES,
  deriveSsoEndpoints,
  type ClaimRule,
  type ClaimRuleOperator,
  type CreateSsoProviderRequest,
  type EntraCloud,
  type ErrorDetail,
  type SsoDiscoveryResponse,
  type SsoEffectiveEndpoints,
  type SsoProviderResponse,
  type SsoProviderType,
  type SsoRole,
  type UpdateSsoProviderRequest,
} from '@sc/contracts';

/**
 * The provider form as plain data, and everything the editor derives from it: which fields the chosen type
 * uses, the endpoint preview, the request bodies, and where the server's validation details belong.
 */

export interface ClaimRuleFormValue {
  claim: string;
  operator: ClaimRuleOperator;
  value: string;
  role: SsoRole;
}

export interface ProviderFormValue {
  slug: string;
  displayName: string;
  type: SsoProviderType;
  enabled: boolean;
  tenantId: string;
  cloud: EntraCloud;
  domain: string;
  authUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  issuer: string;
  jwksUri: string;
  /** SAML: the IdP's metadata URL, or the document pasted (one of the two). */
  idpMetadataUrl: string;
  idpMetadataXml: string;
  allowIdpInitiated: boolean;
  clientId: string;
  /** Empty on edit means "keep the stored secret". */
  clientSecret: string;
  scopes: string;
  emailClaim: string;
  nameClaim: string;
  subjectClaim: string;
  /** One domain per line or comma-separated, as typed. */
  allowedDomains: string;
  allowSignUp: boolean;
  defaultRole: SsoRole;
  claimRules: ClaimRuleFormValue[];
}

export type TypeField = 'tenantId' | 'cloud' | 'domain' | 'authUrl' | 'tokenUrl' | 'userinfoUrl' | 'issuer' | 'jwksUri' | 'idpMetadataUrl' | 'idpMetadataXml';

/** The fields each type uses; the server refuses the others, so the form neither shows nor sends them. */
export const FIELDS_BY_TYPE: Readonly<Record<SsoProviderType, readonly TypeField[]>> = {
  generic: ['authUrl', 'tokenUrl', 'userinfoUrl', 'issuer', 'jwksUri'],
  entra: ['tenantId', 'cloud'],
  okta: ['domain'],
  saml: ['idpMetadataUrl', 'idpMetadataXml'],
};

export const TYPE_LABELS: Readonly<Record<SsoProviderType, string>> = {
  generic: 'Generic OpenID Connect / OAuth 2.0',
  entra: 'Microsoft Entra ID',
  okta: 'Okta',
  saml: 'SAML 2.0',
};

/** SAML has no client: no client ID, secret or scopes. */
export function usesClient(type: SsoProviderType): boolean {
  return type !== 'saml';
}

/**
 * The claim names a type starts with. Switching between SAML and the OAuth types swaps the defaults the admin has
 * not changed (SAML's subject is the assertion's NameID; OAuth's the `sub` claim).
 */
export function defaultClaimsFor(type: SsoProviderType): { emailClaim: string; nameClaim: string; subjectClaim: string } {
  return type === 'saml' ? { ...SAML_DEFAULT_CLAIMS } : { ...SSO_DEFAULT_CLAIMS };
}

export const OPERATOR_LABELS: Readonly<Record<ClaimRuleOperator, string>> = {
  equals: 'equals',
  notEquals: 'does not equal',
  contains: 'contains',
  startsWith: 'starts with',
  endsWith: 'ends with',
  regex: 'matches regex',
  exists: 'exists',
};

export function usesField(type: SsoProviderType, field: TypeField): boolean {
  return FIELDS_BY_TYPE[type].includes(field);
}

export function emptyProviderForm(): ProviderFormValue {
  return {
    slug: '',
    displayName: '',
    type: 'generic',
    // New providers start disabled: enable one after its test sign-in passed (the server asks otherwise).
    enabled: false,
    tenantId: '',
    cloud: 'global',
    domain: '',
    authUrl: '',
    tokenUrl: '',
    userinfoUrl: '',
    issuer: '',
    jwksUri: '',
    idpMetadataUrl: '',
    idpMetadataXml: '',
    allowIdpInitiated: false,
    clientId: '',
    clientSecret: '',
    scopes: SSO_DEFAULT_SCOPES,
    emailClaim: SSO_DEFAULT_CLAIMS.emailClaim,
    nameClaim: SSO_DEFAULT_CLAIMS.nameClaim,
    subjectClaim: SSO_DEFAULT_CLAIMS.subjectClaim,
    allowedDomains: '',
    allowSignUp: SSO_DEFAULT_ALLOW_SIGN_UP,
    defaultRole: SSO_DEFAULT_ROLE,
    claimRules: [],
  };
}

export function formValueFromProvider(provider: SsoProviderResponse): ProviderFormValue {
  return {
    slug: provider.slug,
    displayName: provider.displayName,
    type: provider.type,
    enabled: provider.enabled,
    tenantId: provider.tenantId ?? '',
    cloud: provider.cloud ?? 'global',
    domain: provider.domain ?? '',
    authUrl: provider.authUrl ?? '',
    tokenUrl: provider.tokenUrl ?? '',
    userinfoUrl: provider.userinfoUrl ?? '',
    issuer: provider.issuer ?? '',
    jwksUri: provider.jwksUri ?? '',
    idpMetadataUrl: provider.idpMetadataUrl ?? '',
    // With a metadata URL the document shown is the one read from it; saving sends the URL, which reads it again.
    idpMetadataXml: provider.idpMetadataUrl ? '' : (provider.idpMetadataXml ?? ''),
    allowIdpInitiated: provider.allowIdpInitiated,
    clientId: provider.clientId,
    clientSecret: '',
    scopes: provider.scopes,
    emailClaim: provider.emailClaim,
    nameClaim: provider.nameClaim,
    subjectClaim: provider.subjectClaim,
    allowedDomains: provider.allowedDomains.join('\n'),
    allowSignUp: provider.allowSignUp,
    defaultRole: provider.defaultRole,
    claimRules: provider.claimRules.map((rule) => ({
      claim: rule.claim,
      operator: rule.operator,
      value: rule.value ?? '',
      role: rule.role,
    })),
  };
}

/** "a.com, B.com\nb.com" → ["a.com", "b.com"]: trimmed, lower-cased, without repeats. */
export function parseDomains(text: string): string[] {
  const domains = text
    .split(/[\s,;]+/)
    .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
    .filter((domain) => domain.length > 0);
  return [...new Set(domains)];
}

function blankToNull(value: string): string | null {
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** The live preview: what sign-in would use with the form as typed (real Microsoft/Okta hosts). */
export function previewEndpoints(value: Pick<ProviderFormValue, 'type' | TypeField>): SsoEffectiveEndpoints {
  return deriveSsoEndpoints({
    type: value.type,
    tenantId: blankToNull(value.tenantId),
    cloud: value.cloud,
    domain: blankToNull(value.domain),
    authUrl: blankToNull(value.authUrl),
    tokenUrl: blankToNull(value.tokenUrl),
    userinfoUrl: blankToNull(value.userinfoUrl),
    issuer: blankToNull(value.issuer),
    jwksUri: blankToNull(value.jwksUri),
  });
}

function claimRules(rules: readonly ClaimRuleFormValue[]): ClaimRule[] {
  return rules.map((rule) => ({
    claim: rule.claim.trim(),
    operator: rule.operator,
    // `exists` takes no value: the server refuses one.
    ...(rule.operator === 'exists' ? {} : { value: rule.value }),
    role: rule.role,
  }));
}

/** Only the chosen type's fields; blanks become null so a cleared optional URL is cleared on the server. */
function typeFields(value: ProviderFormValue): Partial<Record<TypeField, string | null>> {
  const fields: Partial<Record<TypeField, string | null>> = {};
  for (const field of FIELDS_BY_TYPE[value.type]) {
    fields[field] = field === 'cloud' ? value.cloud : blankToNull(value[field]);
  }
  return fields;
}

function sharedFields(value: ProviderFormValue) {
  const client = usesClient(value.type) ? { clientId: value.clientId.trim(), scopes: value.scopes.trim() } : { allowIdpInitiated: value.allowIdpInitiated };
  return {
    displayName: value.displayName.trim(),
    type: value.type,
    enabled: value.enabled,
    ...client,
    emailClaim: value.emailClaim.trim(),
    nameClaim: value.nameClaim.trim(),
    subjectClaim: value.subjectClaim.trim(),
    allowedDomains: parseDomains(value.allowedDomains),
    allowSignUp: value.allowSignUp,
    defaultRole: value.defaultRole,
    claimRules: claimRules(value.claimRules),
    ...typeFields(value),
  };
}

export function toCreateRequest(value: ProviderFormValue): CreateSsoProviderRequest {
  const secret = usesClient(value.type) ? { clientSecret: value.clientSecret } : {};
  return { slug: value.slug.trim(), ...secret, ...sharedFields(value) } as CreateSsoProviderRequest;
}

/** The slug is never sent (it cannot change); the secret only when the admin typed a replacement. */
export function toUpdateRequest(value: ProviderFormValue): UpdateSsoProviderRequest {
  const request = sharedFields(value) as UpdateSsoProviderRequest;
  if (value.clientSecret !== '' && usesClient(value.type)) request.clientSecret = value.clientSecret;
  return request;
}

/** Discovery fills the generic endpoint fields; fields the document lacks are left as typed. */
export function discoveryPatch(discovery: SsoDiscoveryResponse): Partial<ProviderFormValue> {
  const patch: Partial<ProviderFormValue> = {
    type: 'generic',
    issuer: discovery.issuer,
    authUrl: discovery.authorization_endpoint,
    tokenUrl: discovery.token_endpoint,
  };
  if (discovery.userinfo_endpoint) patch.userinfoUrl = discovery.userinfo_endpoint;
  if (discovery.jwks_uri) patch.jwksUri = discovery.jwks_uri;
  return patch;
}

/** Moves one item, for the ordered claim-rule list (the first matching rule wins, so order matters). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from < 0 || from >= items.length || to < 0 || to >= items.length) return [...items];
  const copy = [...items];
  const [item] = copy.splice(from, 1) as [T];
  copy.splice(to, 0, item);
  return copy;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Providers other than local test ones refuse plain-http redirect URIs. */
export function callbackUrlWarning(callbackUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' || LOCAL_HOSTS.has(url.hostname)) return null;
  return 'This callback URL uses http on a host that is not localhost. Most identity providers refuse it: set SERVICE_PUBLIC_URL to the service’s https address.';
}

/** GitHub's user endpoint (github.com or GitHub Enterprise Server's /api/v3/user). */
export function isGithubUserinfo(userinfoUrl: string): boolean {
  try {
    const url = new URL(userinfoUrl.trim());
    const path = url.pathname.replace(/\/+$/, '');
    return (url.hostname === 'api.github.com' && path === '/user') || path.endsWith('/api/v3/user');
  } catch {
    return false;
  }
}

export function scopeList(scopes: string): string[] {
  return scopes.split(/\s+/).filter((scope) => scope.length > 0);
}

/** Shown while the userinfo URL is GitHub's and the scopes lack user:email. */
export function githubScopeHint(value: Pick<ProviderFormValue, 'type' | 'userinfoUrl' | 'scopes'>): string | null {
  if (value.type !== 'generic' || !isGithubUserinfo(value.userinfoUrl)) return null;
  if (scopeList(value.scopes).includes('user:email')) return null;
  return 'GitHub returns email: null for private addresses. Add the scope user:email so the service can read the primary verified address from GitHub’s emails endpoint.';
}

/** Where a server validation detail belongs: a top-level field, or one field of one claim rule. */
export type DetailTarget = { field: keyof ProviderFormValue } | { rule: number; field: keyof ClaimRuleFormValue };

const RULE_PATH = /^claimRules\[(\d+)\]\.(claim|operator|value|role)$/;
const FORM_FIELDS = new Set<string>(Object.keys(emptyProviderForm()));

export function detailTarget(path: string | undefined): DetailTarget | null {
  if (!path) return null;
  const rule = RULE_PATH.exec(path);
  if (rule) return { rule: Number(rule[1]), field: rule[2] as keyof ClaimRuleFormValue };
  // allowedDomains[2] belongs to the one allowed-domains box; claimRules[1] to the rule list.
  const root = path.replace(/\[\d+\].*$/, '').replace(/\..*$/, '');
  return FORM_FIELDS.has(root) ? { field: root as keyof ProviderFormValue } : null;
}

/** Groups the server's details by target so each message can be shown next to its field. */
export function detailsByTarget(details: readonly ErrorDetail[]): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const detail of details) {
    const target = detailTarget(detail.path);
    if (!target) continue;
    const key = 'rule' in target ? `claimRules.${target.rule}.${target.field}` : target.field;
    grouped.set(key, [...(grouped.get(key) ?? []), detail.message]);
  }
  return grouped;
}
