import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  CreateSsoProviderRequest,
  deriveSsoEndpoints,
  SSO_SLUG_PATTERN,
  SsoDiscoveryResponse,
  SSO_TEST_VALID_HOURS,
  SsoEffectiveEndpoints,
  SsoProviderResponse,
  type SsoPublicUrlResponse,
  SsoPublicProvider,
  SsoSignInPageProvider,
  SsoSignInStatus,
  ssoCallbackUrl,
  ssoLoginPath,
  samlServiceProviderUrls,
  SsoSamlDetails,
  UpdateSsoProviderRequest,
} from '@sc/contracts';
import { sha256Hex } from '../../common/crypto/tokens';
import { parseIdpMetadata } from './saml/saml-metadata';
import { Clock } from '../../common/clock';
import { SecretBox } from '../../common/crypto/secret-box';
import { boundedFetch, checkOutboundUrl, OutboundFetchError, parseJsonBody } from '../../common/http/bounded-fetch';
import { AppConfig } from '../../config/app-config';
import { AuditService, type AuditActorInput } from '../audit/audit.service';
import { ProviderSettings, settingsForCreate, settingsForUpdate, settingsOf, settingsWarnings } from './domain/provider-settings';
import { SsoProvider } from './entities/sso-provider.entity';
import { SsoErrorCode, ssoError } from './sso.errors';
import { SsoConfig } from './sso.config';
import { SsoProvidersRepository } from './sso-providers.repository';
import { SsoAuditRepository } from './sso-audit.repository';
import { UnitOfWork } from '../../database/unit-of-work';
import { OrganizationsService } from '../organizations/organizations.service';

/** A provider ready for sign-in: its settings, effective endpoints, callback URL and opened secret. */
export interface SignInProvider {
  entity: SsoProvider;
  endpoints: SsoEffectiveEndpoints;
  callbackUrl: string;
  clientSecret: string;
}

@Injectable()
export class SsoProvidersService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly providers: SsoProvidersRepository,
    private readonly signIns: SsoAuditRepository,
    private readonly audit: AuditService,
    private readonly secretBox: SecretBox,
    private readonly clock: Clock,
    private readonly appConfig: AppConfig,
    @Inject(SsoConfig) private readonly ssoConfig: SsoConfig,
    private readonly organizations: OrganizationsService,
  ) {}

  async list(organizationId: string): Promise<SsoProviderResponse[]> {
    return (await this.providers.list(organizationId)).map((p) => this.toResponse(p));
  }

  async listPublic(organizationId: string): Promise<SsoPublicProvider[]> {
    return (await this.providers.listEnabled(organizationId)).map((p) => ({
      slug: p.slug,
      displayName: p.displayName,
      loginUrl: ssoLoginPath(organizationId, p.slug),
    }));
  }

  /** The sign-in page's list: the enabled providers, each saying whether the organization requires SSO. */
  async listForSignInPage(organizationId: string): Promise<SsoSignInPageProvider[]> {
    const [providers, requireSso] = await Promise.all([this.listPublic(organizationId), this.organizations.requiresSso(organizationId)]);
    return providers.map((provider) => ({ ...provider, requireSso }));
  }

  /**
   * How many enabled providers there are and how many of them have had a successful sign-in or a passed test sign-in.
   * The dashboard warns before signing out when none has: SSO may not let the member back in.
   */
  async signInStatus(organizationId: string): Promise<SsoSignInStatus> {
    const enabled = await this.providers.listEnabled(organizationId);
    const proven = await this.signIns.providersWithSuccess(organizationId, enabled.map((provider) => provider.id));
    return { enabledProviders: enabled.length, provenProviders: proven.length };
  }

  /** Keeps the outcome of a test sign-in on the provider (the list shows it; enabling asks for a recent pass). */
  async recordTest(providerId: string, result: { ok: boolean; errorCode: string | null; message: string }): Promise<void> {
    await this.providers.recordTest(providerId, { lastTestAt: this.clock.now(), lastTestOk: result.ok, lastTestErrorCode: result.errorCode, lastTestMessage: result.message.slice(0, 2000) });
  }

  async get(organizationId: string, slug: string): Promise<SsoProviderResponse> {
    return this.toResponse(await this.require(organizationId, slug));
  }

  async create(organizationId: string, request: CreateSsoProviderRequest, actor: AuditActorInput): Promise<SsoProviderResponse> {
    const settings = settingsForCreate(request, this.ssoConfig.outbound);
    if (await this.providers.findBySlug(organizationId, request.slug)) throw slugTaken(request.slug);
    const idp = await this.samlMetadata(settings, settings.idpMetadataUrl !== null);
    // A new provider has never been tested: enabling it at once needs the explicit confirmation.
    if (settings.enabled && request.confirmUntested !== true) throw notTested(request.slug);
    const now = this.clock.now();
    const provider = new SsoProvider();
    provider.id = randomUUID();
    provider.organizationId = organizationId;
    provider.slug = request.slug;
    // SAML providers have no client secret: '' (never sealed) keeps the column's NOT NULL for the OAuth types.
    provider.clientSecretSealed = settings.type === 'saml' ? '' : this.secretBox.seal(request.clientSecret);
    provider.createdAt = now;
    provider.updatedAt = now;
    provider.lastTestAt = null;
    provider.lastTestOk = null;
    provider.lastTestErrorCode = null;
    provider.lastTestMessage = null;
    applySettings(provider, settings, idp);
    try {
      await this.unitOfWork.run(async () => {
        await this.providers.insert(provider);
        await this.audit.record({ organizationId, actor, action: 'sso_provider.created', target: providerTarget(provider), after: { ...auditedSettings(provider), ...untestedMark(settings.enabled) } });
      });
    } catch (error) {
      // Two concurrent creations with one slug: the unique index decides.
      if (isUniqueViolation(error)) throw slugTaken(request.slug);
      throw error;
    }
    return this.toResponse(provider);
  }

  async update(organizationId: string, slug: string, patch: UpdateSsoProviderRequest, actor: AuditActorInput): Promise<SsoProviderResponse> {
    const provider = await this.require(organizationId, slug);
    const before = auditedSettings(provider);
    if (patch.slug !== undefined && patch.slug !== provider.slug) {
      throw ssoError(
        SsoErrorCode.SlugImmutable,
        `The slug "${provider.slug}" cannot change: it is part of the callback URL registered at the identity provider. Create a new provider to use "${patch.slug}".`,
        [{ path: 'slug', message: 'slug is permanent after creation.' }],
      );
    }
    const settings = settingsForUpdate(settingsOf(provider), patch, this.ssoConfig.outbound);
    const enabling = settings.enabled && !provider.enabled;
    const untested = enabling && !this.passedRecentTest(provider);
    if (untested && patch.confirmUntested !== true) throw notTested(provider.slug);
    if (provider.enabled && !settings.enabled) await this.keepOneUnderRequiredSso(provider);
    // Sending the metadata URL again (even unchanged) reads it again: how an admin picks up a rotated certificate.
    const idp = await this.samlMetadata(settings, patch.idpMetadataUrl !== undefined && patch.idpMetadataUrl !== null || (settings.type === 'saml' && provider.type !== 'saml'));
    applySettings(provider, settings, idp);
    if (patch.clientSecret !== undefined) provider.clientSecretSealed = this.secretBox.seal(patch.clientSecret);
    if (settings.type === 'saml') provider.clientSecretSealed = '';
    provider.updatedAt = this.clock.now();
    const changes = changedFields(before, auditedSettings(provider));
    // A new client secret is recorded as a fact, never as a value.
    if (patch.clientSecret !== undefined) changes.after['clientSecretReplaced'] = true;
    Object.assign(changes.after, untestedMark(untested));
    await this.unitOfWork.run(async () => {
      await this.providers.save(provider);
      if (Object.keys(changes.after).length > 0) {
        await this.audit.record({ organizationId, actor, action: 'sso_provider.updated', target: providerTarget(provider), ...changes });
      }
    });
    return this.toResponse(provider);
  }

  async delete(organizationId: string, slug: string, actor: AuditActorInput): Promise<void> {
    const provider = await this.require(organizationId, slug);
    if (provider.enabled) await this.keepOneUnderRequiredSso(provider);
    await this.unitOfWork.run(async () => {
      await this.providers.delete(provider.id);
      await this.audit.record({ organizationId, actor, action: 'sso_provider.deleted', target: providerTarget(provider), before: auditedSettings(provider) });
    });
  }

  /** Loads a provider for login start or callback; the client secret is opened only here. */
  async forSignIn(organizationId: string, slug: string): Promise<SignInProvider> {
    const entity = await this.require(organizationId, slug);
    if (entity.type === 'saml') return { entity, endpoints: this.endpointsOf(entity), callbackUrl: this.callbackUrlOf(entity), clientSecret: '' };
    let clientSecret: string;
    try {
      clientSecret = this.secretBox.open(entity.clientSecretSealed);
    } catch {
      throw ssoError(SsoErrorCode.ClientSecretUnreadable, `The client secret of provider "${slug}" cannot be decrypted with the current SERVICE_SECRET_KEY; an administrator must enter it again.`);
    }
    return { entity, endpoints: this.endpointsOf(entity), callbackUrl: this.callbackUrlOf(entity), clientSecret };
  }

  /**
   * Reads `{issuer}/.well-known/openid-configuration` through the bounded fetch, when an admin asks. The endpoints
   * are then saved with the provider in PostgreSQL; no instance keeps the document in memory, so all use the same.
   */
  async discover(issuerInput: string): Promise<SsoDiscoveryResponse> {
    const issuer = issuerInput.trim().replace(/\/+$/, '');
    const documentUrl = `${issuer}/.well-known/openid-configuration`;
    let response;
    try {
      checkOutboundUrl(issuer, this.ssoConfig.outbound);
      response = await boundedFetch(documentUrl, { headers: { accept: 'application/json' } }, this.ssoConfig.outbound);
    } catch (error) {
      if (error instanceof OutboundFetchError) {
        // Generic by construction (see OutboundFetchError): no connection detail, no answer from the far side.
        if (error.reason === 'refused_url' || error.reason === 'address_not_allowed') throw ssoError(SsoErrorCode.OutboundUrlRefused, error.message, [{ path: 'issuer', message: error.message }]);
        throw ssoError(SsoErrorCode.DiscoveryFailed, `${error.message} The discovery document ${documentUrl} could not be read.`);
      }
      throw error;
    }
    if (!response.ok) throw ssoError(SsoErrorCode.DiscoveryFailed, `${documentUrl} answered HTTP ${response.status}; check the issuer URL (for Keycloak: https://<host>/realms/<realm>).`);
    const document = parseJsonBody(response);
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
      throw ssoError(SsoErrorCode.DiscoveryFailed, `${documentUrl} did not return a JSON object.`);
    }
    const doc = document as Record<string, unknown>;
    const str = (key: string) => (typeof doc[key] === 'string' && doc[key] !== '' ? (doc[key] as string) : null);
    const authorization = str('authorization_endpoint');
    const token = str('token_endpoint');
    if (!authorization || !token) {
      throw ssoError(SsoErrorCode.DiscoveryFailed, `${documentUrl} lacks ${[!authorization && 'authorization_endpoint', !token && 'token_endpoint'].filter(Boolean).join(' and ')}.`);
    }
    const methods = Array.isArray(doc['token_endpoint_auth_methods_supported']) ? (doc['token_endpoint_auth_methods_supported'] as unknown[]) : null;
    const clientSecretPost = methods?.includes('client_secret_post') ?? false;
    const userinfo = str('userinfo_endpoint');
    const warnings: string[] = [];
    const discoveredIssuer = str('issuer') ?? issuer;
    if (discoveredIssuer !== issuer) warnings.push(`The document names the issuer ${discoveredIssuer}, not ${issuer}; ID tokens will be checked against ${discoveredIssuer}.`);
    if (!userinfo) warnings.push('The provider has no userinfo_endpoint; the service needs one for every sign-in.');
    if (!clientSecretPost) {
      // The dashboard shows this warning as the only word on it: it carries the advice too.
      const advice = 'configure the client to accept it, or sign-in fails with invalid_client';
      warnings.push(
        methods
          ? `The token endpoint does not list client_secret_post (it lists ${methods.join(', ')}); the service only uses client_secret_post: ${advice}.`
          : `The document does not list token_endpoint_auth_methods_supported, which means client_secret_basic only; the service uses client_secret_post: ${advice}.`,
      );
    }
    for (const [name, url] of [['authorization_endpoint', authorization], ['token_endpoint', token], ['userinfo_endpoint', userinfo], ['jwks_uri', str('jwks_uri')]] as const) {
      if (!url) continue;
      try {
        checkOutboundUrl(url, this.ssoConfig.outbound);
      } catch (error) {
        if (error instanceof OutboundFetchError) warnings.push(`${name}: ${error.message}`);
      }
    }
    const scopes = Array.isArray(doc['scopes_supported']) ? (doc['scopes_supported'] as unknown[]).filter((s): s is string => typeof s === 'string') : [];
    return {
      issuer: discoveredIssuer,
      authorization_endpoint: authorization,
      token_endpoint: token,
      userinfo_endpoint: userinfo,
      jwks_uri: str('jwks_uri'),
      client_secret_post_supported: clientSecretPost,
      scopes_supported: scopes,
      warnings,
    };
  }

  /**
   * The IdP of a SAML provider's settings: the metadata URL is read through the outbound guard when `fetch` says so
   * (its document then replaces idpMetadataXml), and the document in use is parsed. Non-SAML settings: nothing.
   */
  private async samlMetadata(settings: ProviderSettings, fetch: boolean): Promise<SamlIdpFields> {
    if (settings.type !== 'saml') return { idpEntityId: null, idpSsoUrl: null, idpCertificates: [] };
    let field: 'idpMetadataUrl' | 'idpMetadataXml' = 'idpMetadataXml';
    if (fetch && settings.idpMetadataUrl) {
      field = 'idpMetadataUrl';
      settings.idpMetadataXml = await this.fetchMetadata(settings.idpMetadataUrl);
    }
    try {
      const idp = await parseIdpMetadata(settings.idpMetadataXml ?? '');
      return { idpEntityId: idp.entityId, idpSsoUrl: idp.ssoUrl, idpCertificates: idp.certificates };
    } catch (error) {
      const message = `${field}: ${error instanceof Error ? error.message : String(error)}`;
      throw ssoError(SsoErrorCode.InvalidProviderConfig, `The provider configuration has 1 problem: ${message}`, [{ path: field, message }]);
    }
  }

  private async fetchMetadata(url: string): Promise<string> {
    let response;
    try {
      response = await boundedFetch(url, { headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' } }, this.ssoConfig.outbound);
    } catch (error) {
      if (error instanceof OutboundFetchError) {
        if (error.reason === 'refused_url' || error.reason === 'address_not_allowed') throw ssoError(SsoErrorCode.OutboundUrlRefused, error.message, [{ path: 'idpMetadataUrl', message: error.message }]);
        throw ssoError(SsoErrorCode.SamlMetadataFailed, `${error.message} The IdP metadata could not be read.`, [{ path: 'idpMetadataUrl', message: error.message }]);
      }
      throw error;
    }
    if (!response.ok) throw ssoError(SsoErrorCode.SamlMetadataFailed, `${new URL(url).origin} answered HTTP ${response.status} for the IdP metadata; check idpMetadataUrl.`, [{ path: 'idpMetadataUrl', message: `HTTP ${response.status}` }]);
    return response.text;
  }

  /** Require SSO on: the last enabled provider stays, or nobody (owners included) could sign in any more. */
  private async keepOneUnderRequiredSso(provider: SsoProvider): Promise<void> {
    if (!(await this.organizations.requiresSso(provider.organizationId))) return;
    const others = (await this.providers.listEnabled(provider.organizationId)).filter((other) => other.id !== provider.id);
    if (others.length === 0) {
      throw ssoError(
        SsoErrorCode.SsoRequiredLastProvider,
        `"${provider.slug}" is the last enabled provider and this organization requires SSO: enable another provider, or turn Require SSO off first.`,
        [{ path: 'enabled', message: 'The last enabled provider of an organization that requires SSO.' }],
      );
    }
  }

  private passedRecentTest(provider: SsoProvider): boolean {
    const since = this.clock.now().getTime() - SSO_TEST_VALID_HOURS * 3600_000;
    return provider.lastTestOk === true && provider.lastTestAt !== null && provider.lastTestAt.getTime() >= since;
  }

  private async require(organizationId: string, slug: string): Promise<SsoProvider> {
    const provider = SSO_SLUG_PATTERN.test(slug) ? await this.providers.findBySlug(organizationId, slug) : null;
    if (!provider) throw ssoError(SsoErrorCode.ProviderNotFound, `No SSO provider "${slug}" exists in this organization.`);
    return provider;
  }

  endpointsOf(provider: SsoProvider): SsoEffectiveEndpoints {
    const endpoints = deriveSsoEndpoints(provider, this.ssoConfig.hostOverrides);
    // Entra's issuer names the tenant GUID; with a domain-style tenant ID it cannot be predicted.
    if (provider.type === 'entra' && provider.tenantId && !/^[0-9a-f-]{36}$/.test(provider.tenantId)) endpoints.issuer = null;
    return endpoints;
  }

  publicUrl(): SsoPublicUrlResponse {
    return { publicUrl: this.appConfig.publicUrl };
  }

  private samlDetailsOf(provider: SsoProvider): SsoSamlDetails | null {
    if (provider.type !== 'saml') return null;
    return {
      ...samlServiceProviderUrls(this.appConfig.publicUrl, provider.organizationId, provider.slug),
      idpEntityId: provider.idpEntityId,
      idpSsoUrl: provider.idpSsoUrl,
      idpSigningCertificates: provider.idpCertificates.length,
    };
  }

  private callbackUrlOf(provider: SsoProvider): string {
    return ssoCallbackUrl(this.appConfig.publicUrl, provider.organizationId, provider.slug);
  }

  toResponse(provider: SsoProvider): SsoProviderResponse {
    const callbackUrl = this.callbackUrlOf(provider);
    const settings = settingsOf(provider);
    return {
      id: provider.id,
      organizationId: provider.organizationId,
      slug: provider.slug,
      ...settings,
      hasClientSecret: provider.clientSecretSealed.length > 0,
      effectiveEndpoints: this.endpointsOf(provider),
      callbackUrl,
      saml: this.samlDetailsOf(provider),
      warnings: settingsWarnings(settings, callbackUrl),
      lastTest: provider.lastTestAt
        ? { ok: provider.lastTestOk === true, at: provider.lastTestAt.toISOString(), errorCode: provider.lastTestErrorCode, message: provider.lastTestMessage ?? '' }
        : null,
      createdAt: provider.createdAt.toISOString(),
      updatedAt: provider.updatedAt.toISOString(),
    };
  }
}

function providerTarget(provider: SsoProvider) {
  return { type: 'sso_provider' as const, id: provider.id, label: provider.slug };
}

/** A provider as the audit log keeps it: its settings and whether a client secret is set, never the secret. */
function auditedSettings(provider: SsoProvider): Record<string, unknown> {
  const settings = settingsOf(provider);
  // The metadata document can be long: the log keeps its digest, which still shows when it changed.
  const metadata = settings.idpMetadataXml === null ? {} : { idpMetadataXml: `sha256:${sha256Hex(settings.idpMetadataXml)}` };
  return { slug: provider.slug, ...settings, ...metadata, hasClientSecret: provider.clientSecretSealed.length > 0 };
}

/** The fields whose value differs, before and after (compared as JSON: scopes, domains and rules are arrays). */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const changed = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return { before: Object.fromEntries(changed.map((key) => [key, before[key]])), after: Object.fromEntries(changed.map((key) => [key, after[key]])) };
}

/** What the service parsed from a SAML provider's metadata (empty for the OAuth types). */
type SamlIdpFields = Pick<SsoProvider, 'idpEntityId' | 'idpSsoUrl' | 'idpCertificates'>;

function applySettings(provider: SsoProvider, settings: ProviderSettings, idp: SamlIdpFields): void {
  Object.assign(provider, settings, idp);
}

/** The audit entry of a provider enabled without a recent passed test says so. */
function untestedMark(untested: boolean): Record<string, unknown> {
  return untested ? { enabledWithoutTest: true } : {};
}

function notTested(slug: string) {
  return ssoError(
    SsoErrorCode.ProviderNotTested,
    `The provider "${slug}" has not passed a test sign-in in the last ${SSO_TEST_VALID_HOURS} hours. Run Test sign-in first, or send "confirmUntested": true to enable it anyway: if it does not work, people who sign in only through SSO cannot get in until an owner fixes it or gives them a sign-in link.`,
    [{ path: 'enabled', message: 'run a test sign-in first, or confirm with confirmUntested: true' }],
  );
}

function slugTaken(slug: string) {
  return ssoError(SsoErrorCode.SlugTaken, `A provider with the slug "${slug}" already exists in this organization.`, [{ path: 'slug', message: 'slug is taken.' }]);
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown; driverError?: { code?: unknown } }).driverError?.code ?? (error as { code?: unknown }).code;
  return code === '23505';
}
