/**
 * Organization SSO: provider configuration, discovery, sign-in, test sign-in and the sign-in audit log.
 * Shared by the server (validation of requests) and the admin SPA (forms, endpoint preview, error pages).
 *
 * Endpoints (all under /api/v1):
 *   GET    /orgs/:orgId/sso/providers                 (owner|admin)  → SsoProviderResponse[]
 *   POST   /orgs/:orgId/sso/providers                 (owner|admin)  CreateSsoProviderRequest → 201 SsoProviderResponse
 *   GET    /orgs/:orgId/sso/providers/:slug           (owner|admin)  → SsoProviderResponse
 *   PATCH  /orgs/:orgId/sso/providers/:slug           (owner|admin)  UpdateSsoProviderRequest → SsoProviderResponse
 *   DELETE /orgs/:orgId/sso/providers/:slug           (owner|admin)  → 204
 *   POST   /orgs/:orgId/sso/providers/:slug/test      (owner|admin)  StartSsoTestRequest → SsoTestStartResponse
 *   POST   /orgs/:orgId/sso/discovery                 (owner|admin)  SsoDiscoveryRequest → SsoDiscoveryResponse
 *   GET    /orgs/:orgId/sso/public-url                (owner|admin)  → SsoPublicUrlResponse
 *   GET    /orgs/:orgId/sso/audit                     (owner|admin)  ?limit&cursor&provider&outcome → SsoAuditEntry[] (paged: list-page.ts)
 *   GET    /orgs/:orgId/sso/settings                  (owner|admin)  → SsoSettingsResponse
 *   PUT    /orgs/:orgId/sso/settings                  (owner, session) UpdateSsoSettingsRequest → SsoSettingsResponse
 *   GET    /auth/orgs/:orgId/providers                (public)       → SsoSignInPageProvider[]
 *   GET    /auth/orgs/:orgId/login/:slug?redirect=/path (public)     → 302 to the provider
 *   GET    /auth/orgs/:orgId/callback/:slug           (public)       → 302 to the redirect path, or an error page
 *   GET    /auth/orgs/:orgId/saml/:slug/metadata      (public)       → SAML SP metadata (XML)
 *   POST   /auth/orgs/:orgId/saml/:slug/acs           (public)       SAMLResponse (form) → 303 to the redirect path, or an error page
 */
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { asInstance } from './as-instance';
import { IsOptionalNotNull } from './optional-not-null';
import { PageCursor, PageLimit } from './list-page';
import { FIELD_LIMITS } from './field-limits';
import { samlAcsPath, samlMetadataPath, ssoCallbackPath } from './http-names';

export const SSO_PROVIDER_TYPES = ['generic', 'entra', 'okta', 'saml'] as const;
export type SsoProviderType = (typeof SSO_PROVIDER_TYPES)[number];

/**
 * Roles SSO may grant. `owner` is never granted by SSO, and memberships created by hand (source manual, every
 * owner among them) are never changed by it; SSO sets the role of the memberships it created at every login.
 */
export const SSO_ROLES = ['admin', 'editor', 'viewer'] as const;
export type SsoRole = (typeof SSO_ROLES)[number];

export const CLAIM_RULE_OPERATORS = ['equals', 'notEquals', 'contains', 'startsWith', 'endsWith', 'regex', 'exists'] as const;
export type ClaimRuleOperator = (typeof CLAIM_RULE_OPERATORS)[number];

/** Lowercase token used in the callback URL; permanent after creation. */
export const SSO_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Scopes requested when the admin leaves the field empty (all three types). */
export const SSO_DEFAULT_SCOPES = 'openid email profile';

/**
 * Default of `allowSignUp`: false. A new provider then admits only people an administrator already made
 * members of the organization, until the admin deliberately opens sign-up — typically after restricting
 * Allowed domains. A public provider (GitHub, Google…) with sign-up on and no domain list would otherwise
 * let anyone with an account there into the organization.
 */
export const SSO_DEFAULT_ALLOW_SIGN_UP = false;
export const SSO_DEFAULT_ROLE: SsoRole = 'viewer';
export const SSO_DEFAULT_CLAIMS = { emailClaim: 'email', nameClaim: 'name', subjectClaim: 'sub' } as const;

/**
 * SAML attribute mapping defaults: `emailClaim`, `nameClaim` and `subjectClaim` name assertion attributes (or
 * `nameID`, the assertion's subject). Claim rules name any attribute, e.g. `groups` or Entra's
 * `http://schemas.microsoft.com/ws/2008/06/identity/claims/groups`.
 */
export const SAML_DEFAULT_CLAIMS = { emailClaim: 'email', nameClaim: 'name', subjectClaim: 'nameID' } as const;

/** Largest pasted or fetched IdP metadata document. */
export const SAML_METADATA_MAX_LENGTH = 200_000;

/** Accepted clock difference between the IdP and the service when checking assertion times. */
export const SAML_CLOCK_SKEW_SECONDS = 180;

/** Lifetime of a sign-in (or test sign-in) state: the callback must arrive within it. */
export const SSO_STATE_TTL_SECONDS = 600;

/** How long a passed test sign-in allows enabling a provider without `confirmUntested`. */
export const SSO_TEST_VALID_HOURS = 24;

export const SSO_LIMITS = {
  claimRules: 50,
  allowedDomains: 100,
  urlLength: 2048,
  claimPathLength: 200,
  ruleValueLength: 500,
} as const;

/**
 * Microsoft clouds for the Entra type. The service signs in against `{tenantHost}/<tenantId>/oauth2/v2.0/…`
 * and reads UserInfo from `{graphHost}/oidc/userinfo`. Sovereign clouds use their own hosts.
 */
export const ENTRA_CLOUDS = {
  global: { label: 'Microsoft Entra ID (global)', tenantHost: 'https://login.microsoftonline.com', graphHost: 'https://graph.microsoft.com' },
  usgov: { label: 'Azure US Government (GCC High)', tenantHost: 'https://login.microsoftonline.us', graphHost: 'https://graph.microsoft.us' },
  usgovDod: { label: 'Azure US Government (DoD)', tenantHost: 'https://login.microsoftonline.us', graphHost: 'https://dod-graph.microsoft.us' },
  china: { label: 'Microsoft Azure operated by 21Vianet (China)', tenantHost: 'https://login.chinacloudapi.cn', graphHost: 'https://microsoftgraph.chinacloudapi.cn' },
} as const;
export type EntraCloud = keyof typeof ENTRA_CLOUDS;
export const ENTRA_CLOUD_IDS = Object.keys(ENTRA_CLOUDS) as EntraCloud[];

/** Multi-tenant Entra values: they would admit any Microsoft directory, so a tenant-specific ID is required. */
export const ENTRA_SHARED_TENANTS = ['common', 'organizations', 'consumers'] as const;

/** The endpoints the service actually uses for a provider. */
export interface SsoEffectiveEndpoints {
  authorizationUrl: string | null;
  tokenUrl: string | null;
  userinfoUrl: string | null;
  /** ID tokens are signature-checked only when a JWKS is known. */
  jwksUri: string | null;
  /** Expected `iss` of ID tokens when known. */
  issuer: string | null;
}

export interface SsoEndpointInput {
  type: SsoProviderType;
  tenantId?: string | null;
  cloud?: EntraCloud | null;
  domain?: string | null;
  authUrl?: string | null;
  tokenUrl?: string | null;
  userinfoUrl?: string | null;
  issuer?: string | null;
  jwksUri?: string | null;
}

/**
 * Host overrides: the server sets them from configuration (tests, private mirrors); the admin preview
 * passes nothing and shows the real hosts.
 */
export interface SsoEndpointHostOverrides {
  entraTenantHost?: string;
  entraGraphHost?: string;
  /** Replaces `https://<domain>` of the Okta type. */
  oktaBaseUrl?: string;
}

/** Derives the effective endpoints; the admin form uses it for its preview, the server for sign-in. */
export function deriveSsoEndpoints(input: SsoEndpointInput, overrides: SsoEndpointHostOverrides = {}): SsoEffectiveEndpoints {
  switch (input.type) {
    case 'entra': {
      if (!input.tenantId) return emptyEndpoints();
      const cloud = ENTRA_CLOUDS[input.cloud ?? 'global'];
      const tenantHost = trimSlash(overrides.entraTenantHost ?? cloud.tenantHost);
      const graphHost = trimSlash(overrides.entraGraphHost ?? cloud.graphHost);
      const tenant = encodeURIComponent(input.tenantId);
      return {
        authorizationUrl: `${tenantHost}/${tenant}/oauth2/v2.0/authorize`,
        tokenUrl: `${tenantHost}/${tenant}/oauth2/v2.0/token`,
        userinfoUrl: `${graphHost}/oidc/userinfo`,
        jwksUri: `${tenantHost}/${tenant}/discovery/v2.0/keys`,
        issuer: `${tenantHost}/${tenant}/v2.0`,
      };
    }
    case 'okta': {
      if (!input.domain) return emptyEndpoints();
      const base = trimSlash(overrides.oktaBaseUrl ?? `https://${input.domain}`);
      return {
        authorizationUrl: `${base}/oauth2/v1/authorize`,
        tokenUrl: `${base}/oauth2/v1/token`,
        userinfoUrl: `${base}/oauth2/v1/userinfo`,
        jwksUri: `${base}/oauth2/v1/keys`,
        issuer: base,
      };
    }
    case 'generic':
      return {
        authorizationUrl: input.authUrl ?? null,
        tokenUrl: input.tokenUrl ?? null,
        userinfoUrl: input.userinfoUrl ?? null,
        jwksUri: input.jwksUri ?? null,
        issuer: input.issuer ?? null,
      };
    case 'saml':
      // SAML has no OAuth endpoints: its IdP comes from the metadata (SsoProviderResponse.saml).
      return emptyEndpoints();
  }
}

/** `{SERVICE_PUBLIC_URL}/api/v1/auth/orgs/<orgId>/callback/<slug>` — the value to register at the provider. */
export function ssoCallbackUrl(publicUrl: string, organizationId: string, slug: string): string {
  return `${trimSlash(publicUrl)}${ssoCallbackPath(organizationId, slug)}`;
}

function emptyEndpoints(): SsoEffectiveEndpoints {
  return { authorizationUrl: null, tokenUrl: null, userinfoUrl: null, jwksUri: null, issuer: null };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * One role-mapping rule. `claim` is a dot path into the merged claims (`groups`, `realm_access.roles`; a
 * top-level claim whose name contains dots, such as `https://example.com/roles`, is matched as a whole first).
 * Matching is case-sensitive. When the claim is an array, the rule matches when any element matches
 * (`notEquals`: when no element equals the value). A missing or null claim matches no operator, `notEquals`
 * included; `exists` matches a present, non-null value (an empty array does not exist). `regex` uses RE2
 * syntax (JavaScript's without backreferences and lookaround, so matching takes linear time; the server refuses
 * other patterns at save) and is unanchored unless the pattern says otherwise. `value` is required except for
 * `exists`, where it must be left out.
 */
export class ClaimRuleDto {
  @IsString()
  @MinLength(1)
  @MaxLength(SSO_LIMITS.claimPathLength)
  claim!: string;

  @IsIn(CLAIM_RULE_OPERATORS)
  operator!: ClaimRuleOperator;

  @IsOptionalNotNull()
  @IsString()
  @MaxLength(SSO_LIMITS.ruleValueLength)
  value?: string;

  @IsIn(SSO_ROLES)
  role!: SsoRole;
}
export type ClaimRule = ClaimRuleDto;

/** Shape-level checks shared by create and update; the server checks the cross-field rules per type. */
abstract class SsoProviderFieldsDto {
  @IsOptionalNotNull()
  @IsBoolean()
  enabled?: boolean;

  /** Entra: directory (tenant) ID, a GUID or a verified domain such as contoso.onmicrosoft.com. */
  @IsOptional()
  @IsString()
  @MaxLength(FIELD_LIMITS.domainName)
  tenantId?: string | null;

  /** Entra: which Microsoft cloud; default `global`. */
  @IsOptional()
  @IsIn(ENTRA_CLOUD_IDS)
  cloud?: EntraCloud | null;

  /** Okta: hostname only (acme.okta.com) — no scheme, path or port. */
  @IsOptional()
  @IsString()
  @MaxLength(FIELD_LIMITS.domainName)
  domain?: string | null;

  /** Space-separated. Empty or left out → `openid email profile`. */
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(FIELD_LIMITS.ssoScopes)
  scopes?: string;

  @IsOptional()
  @IsString()
  @MaxLength(SSO_LIMITS.urlLength)
  authUrl?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(SSO_LIMITS.urlLength)
  tokenUrl?: string | null;

  /** Generic: may carry a query string (kept as is). Mandatory: every login calls it. */
  @IsOptional()
  @IsString()
  @MaxLength(SSO_LIMITS.urlLength)
  userinfoUrl?: string | null;

  /** Generic: expected `iss` of ID tokens (filled by discovery). */
  @IsOptional()
  @IsString()
  @MaxLength(SSO_LIMITS.urlLength)
  issuer?: string | null;

  /** Generic: key set used to verify ID-token signatures (filled by discovery). */
  @IsOptional()
  @IsString()
  @MaxLength(SSO_LIMITS.urlLength)
  jwksUri?: string | null;

  /** SAML: where the IdP publishes its metadata (read through the outbound guard when the provider is saved). */
  @IsOptional()
  @IsString()
  @MaxLength(SSO_LIMITS.urlLength)
  idpMetadataUrl?: string | null;

  /** SAML: the IdP's metadata document pasted as XML (instead of idpMetadataUrl). */
  @IsOptional()
  @IsString()
  @MaxLength(SAML_METADATA_MAX_LENGTH)
  idpMetadataXml?: string | null;

  /** SAML: accept responses the IdP sends without a request from this service (IdP-initiated). Default false. */
  @IsOptionalNotNull()
  @IsBoolean()
  allowIdpInitiated?: boolean;

  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(SSO_LIMITS.claimPathLength)
  emailClaim?: string;

  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(SSO_LIMITS.claimPathLength)
  nameClaim?: string;

  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(SSO_LIMITS.claimPathLength)
  subjectClaim?: string;

  /** Email domains allowed to sign in; empty = no restriction. Compared case-insensitively. */
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(SSO_LIMITS.allowedDomains)
  @IsString({ each: true })
  @MaxLength(FIELD_LIMITS.domainName, { each: true })
  allowedDomains?: string[];

  /** Default false (see SSO_DEFAULT_ALLOW_SIGN_UP). */
  @IsOptionalNotNull()
  @IsBoolean()
  allowSignUp?: boolean;

  /** Role of SSO memberships when no claim rule matches; default `viewer`. */
  @IsOptionalNotNull()
  @IsIn(SSO_ROLES)
  defaultRole?: SsoRole;

  /**
   * Enable the provider although it has not passed a test sign-in in the last SSO_TEST_VALID_HOURS hours. Without
   * it, `enabled: true` on a provider that is not enabled yet answers 409 provider_not_tested: an untested
   * provider that fails leaves people who only know SSO unable to sign in.
   */
  @IsOptionalNotNull()
  @IsBoolean()
  confirmUntested?: boolean;

  /** Ordered: the first matching rule selects the role. */
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(SSO_LIMITS.claimRules)
  @ValidateNested({ each: true })
  @Transform(({ value }) => (Array.isArray(value) ? value.map((rule: unknown) => asInstance(ClaimRuleDto, rule)) : value))
  claimRules?: ClaimRuleDto[];
}

export class CreateSsoProviderRequest extends SsoProviderFieldsDto {
  @IsString()
  @Matches(SSO_SLUG_PATTERN, { message: 'slug must be a lowercase token: a-z, 0-9 and "-", starting with a letter or digit, at most 63 characters' })
  slug!: string;

  @IsIn(SSO_PROVIDER_TYPES)
  type!: SsoProviderType;

  @IsString()
  @MinLength(1)
  @MaxLength(FIELD_LIMITS.ssoDisplayName)
  displayName!: string;

  /** OAuth types only; SAML providers have none (leave it out). */
  @ValidateIf((request: CreateSsoProviderRequest) => request.type !== 'saml' || request.clientId !== undefined)
  @IsString()
  @MinLength(1)
  @MaxLength(FIELD_LIMITS.ssoClientId)
  clientId!: string;

  /** Write-only: stored encrypted (AES-256-GCM), never returned; responses carry `hasClientSecret`. OAuth types only. */
  @ValidateIf((request: CreateSsoProviderRequest) => request.type !== 'saml' || request.clientSecret !== undefined)
  @IsString()
  @MinLength(1)
  @MaxLength(FIELD_LIMITS.ssoClientSecret)
  clientSecret!: string;
}

/**
 * Partial update. `slug` is accepted only to answer a change with 400 slug_immutable (sending the current
 * slug is harmless). Leaving `clientSecret` out keeps the stored secret. Changing `type` clears the fields
 * of the previous type that the new type does not use.
 */
export class UpdateSsoProviderRequest extends SsoProviderFieldsDto {
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(100)
  slug?: string;

  @IsOptionalNotNull()
  @IsIn(SSO_PROVIDER_TYPES)
  type?: SsoProviderType;

  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(FIELD_LIMITS.ssoDisplayName)
  displayName?: string;

  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(FIELD_LIMITS.ssoClientId)
  clientId?: string;

  /** Left out: the stored secret is kept. */
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(FIELD_LIMITS.ssoClientSecret)
  clientSecret?: string;
}

export interface SsoProviderResponse {
  id: string;
  organizationId: string;
  slug: string;
  displayName: string;
  type: SsoProviderType;
  enabled: boolean;
  tenantId: string | null;
  cloud: EntraCloud | null;
  domain: string | null;
  clientId: string;
  hasClientSecret: boolean;
  scopes: string;
  authUrl: string | null;
  tokenUrl: string | null;
  userinfoUrl: string | null;
  issuer: string | null;
  jwksUri: string | null;
  idpMetadataUrl: string | null;
  /** The IdP metadata in use: pasted, or as read from idpMetadataUrl at the last save. */
  idpMetadataXml: string | null;
  allowIdpInitiated: boolean;
  emailClaim: string;
  nameClaim: string;
  subjectClaim: string;
  allowedDomains: string[];
  allowSignUp: boolean;
  defaultRole: SsoRole;
  claimRules: ClaimRule[];
  /** What sign-in really uses (derived for entra/okta, configured for generic). */
  effectiveEndpoints: SsoEffectiveEndpoints;
  /** Register exactly this at the provider (OAuth types; SAML registers `saml.acsUrl`). */
  callbackUrl: string;
  /** SAML only: what to register at the IdP, and what the service read from its metadata. */
  saml: SsoSamlDetails | null;
  /** Advice for the admin (http callback, offline_access scope, open sign-up…); never blocks saving. */
  warnings: string[];
  /** The last test sign-in of this provider (null: never tested). */
  lastTest: SsoProviderTestResult | null;
  createdAt: string;
  updatedAt: string;
}

/** The service provider's side of a SAML provider, and the IdP as its metadata describes it. */
export interface SsoSamlDetails {
  spEntityId: string;
  acsUrl: string;
  metadataUrl: string;
  idpEntityId: string | null;
  idpSsoUrl: string | null;
  /** How many signing certificates the metadata lists (responses must be signed by one of them). */
  idpSigningCertificates: number;
}

/** SAML URLs of a provider: the SP entity ID is its metadata URL. */
export function samlServiceProviderUrls(publicUrl: string, organizationId: string, slug: string): { spEntityId: string; acsUrl: string; metadataUrl: string } {
  const metadataUrl = `${trimSlash(publicUrl)}${samlMetadataPath(organizationId, slug)}`;
  return { spEntityId: metadataUrl, acsUrl: `${trimSlash(publicUrl)}${samlAcsPath(organizationId, slug)}`, metadataUrl };
}

/**
 * GET/PUT /orgs/:orgId/sso/settings. `requireSso`: members sign in only through the organization's enabled providers;
 * sign-in links are then redeemed only for owners, and only when the break-glass command on the server host minted
 * them; API tokens are unaffected. Turning it on (owners, in a session) needs an enabled provider whose last test
 * sign-in passed and a session that started through SSO (409 sso_requirement_unmet), and ends the organization's
 * sessions that did not.
 */
export interface SsoSettingsResponse {
  requireSso: boolean;
}

export class UpdateSsoSettingsRequest {
  @IsBoolean()
  requireSso!: boolean;
}

export interface SsoProviderTestResult {
  ok: boolean;
  at: string;
  /** The error code of a failed test, null for a passed one. */
  errorCode: string | null;
  message: string;
}

/**
 * GET /orgs/:orgId/sso/sign-in-status (any member): whether some enabled provider of the organization has had a
 * successful sign-in (or passed test sign-in). False means signing out may lock the member out: the dashboard warns.
 */
export interface SsoSignInStatus {
  enabledProviders: number;
  provenProviders: number;
}

export class SsoDiscoveryRequest {
  /** Issuer URL; `/.well-known/openid-configuration` is appended. */
  @IsString()
  @MinLength(1)
  @MaxLength(SSO_LIMITS.urlLength)
  issuer!: string;
}

/**
 * SERVICE_PUBLIC_URL, which every callback URL starts with: a new provider's form shows its callback URL
 * (`ssoCallbackUrl(publicUrl, orgId, slug)`) as soon as the slug is typed, before the provider is saved.
 */
export interface SsoPublicUrlResponse {
  publicUrl: string;
}

export interface SsoDiscoveryResponse {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string | null;
  jwks_uri: string | null;
  /** Whether the provider lists client_secret_post (or lists nothing, which means client_secret_basic only). */
  client_secret_post_supported: boolean;
  scopes_supported: string[];
  /** Problems the admin must know about (no userinfo endpoint, client_secret_post not supported…). */
  warnings: string[];
}

export interface SsoPublicProvider {
  slug: string;
  displayName: string;
  /** Relative URL that starts the sign-in (append `?redirect=/path`). */
  loginUrl: string;
}

/** An entry of the organization's public sign-in page list (`GET /auth/orgs/:orgId/providers`). */
export interface SsoSignInPageProvider extends SsoPublicProvider {
  /**
   * The organization requires single sign-on: its providers are the only way in, there is no sign-in link to ask
   * for. The same on every entry; the one organization setting this public list reveals.
   */
  requireSso: boolean;
}

export class StartSsoTestRequest {
  /** Unused today; reserved so the admin UI can send `{}`. */
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(200)
  note?: string;
}

export interface SsoTestStartResponse {
  /** Navigate the admin's browser here (the response also set the browser-binding cookie). */
  authorizationUrl: string;
  expiresAt: string;
}

export type SsoAuditOutcome = 'success' | 'failure';

/** Claim values are never stored in the audit log: only names with a value kind (`string`, `array(3)`…). */
export interface SsoAuditEntry {
  id: string;
  createdAt: string;
  providerSlug: string;
  providerId: string | null;
  test: boolean;
  outcome: SsoAuditOutcome;
  errorCode: string | null;
  message: string;
  email: string | null;
  userId: string | null;
  subject: string | null;
  role: string | null;
  claimNames: Record<string, string>;
  warnings: string[];
  ipAddress: string | null;
  userAgent: string | null;
}

/** The filters and the paging of GET /sso/audit (list-page.ts). */
export class SsoAuditQuery {
  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;

  @IsOptional()
  @IsString()
  @Matches(SSO_SLUG_PATTERN)
  provider?: string;

  @IsOptional()
  @IsIn(['success', 'failure'])
  outcome?: SsoAuditOutcome;
}

export interface SsoClaimRuleEvaluation {
  index: number;
  rule: ClaimRule;
  /** False when the test stopped before the claims were read: the rule is listed, not evaluated. */
  evaluated: boolean;
  matched: boolean;
  /** The first matching rule decides the role (none does for a membership SSO does not manage). */
  selected: boolean;
  /** Why it did or did not match, without the claim's value. */
  explanation: string;
}

export interface SsoTestDecision {
  outcome: 'pass' | 'fail' | 'not_reached';
  detail: string;
}

/** What a test sign-in shows the admin. Nothing is created; tokens are never included. */
export interface SsoTestReport {
  providerSlug: string;
  ok: boolean;
  /** The code where the sign-in would have failed. */
  errorCode: string | null;
  errorMessage: string | null;
  /** The step the test stopped at, in words ("the token exchange"); null when it passed. */
  failedStep: string | null;
  /** Merged claims (UserInfo wins), shown to the admin who ran the test only. */
  claims: Record<string, unknown>;
  /** `assertion`: attribute names of a SAML assertion (empty for OAuth types). */
  claimSources: { idToken: string[]; userinfo: string[]; githubEmails: boolean; assertion: string[] };
  idTokenVerification: string | null;
  email: { claim: string; value: string | null };
  name: { claim: string; value: string | null; fallbackToEmail: boolean };
  subject: { claim: string; value: string | null };
  domain: SsoTestDecision;
  disabled: SsoTestDecision;
  signUp: SsoTestDecision;
  identityLink: SsoTestDecision;
  claimRules: SsoClaimRuleEvaluation[];
  role: string | null;
  /** `manual_membership_unchanged`: an administrator created the membership by hand (owners included); SSO keeps its role. */
  roleSource: 'claim_rule' | 'default_role' | 'manual_membership_unchanged' | null;
  warnings: string[];
}
