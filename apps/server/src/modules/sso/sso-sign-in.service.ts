import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommonErrorCode, SSO_STATE_TTL_SECONDS, SsoErrorCode, SsoTestReport, SsoTestStartResponse, safeRedirectPath } from '@sc/contracts';
import { randomToken } from '../../common/crypto/tokens';
import { DomainError } from '../../common/errors/domain-error';
import type { Principal } from '../access/principal';
import type { ConsumedState } from '../oauth-state/oauth-state.service';
import { OAuthStateService } from '../oauth-state/oauth-state.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { SessionsService, type StartedSession } from '../sessions/sessions.service';
import { overageWarnings } from './domain/claims';
import { evaluateSignIn, SignInEvaluation, SignInPlan } from './domain/sign-in-decision';
import { AuthorizationRedirect, ProviderIdentity, SsoFlow } from './passport/org-sso.strategy';
import type { SsoBinding } from './sso-binding-cookie';
import { SignInAttemptRecord, SignInClient, SsoAuditService } from './sso-audit.service';
import { SsoConfig } from './sso.config';
import { ssoError } from './sso.errors';
import { SsoIdentityLinker } from './sso-identity-linker';
import { SignInProvider, SsoProvidersService } from './sso-providers.service';
import { failedReport, testReport } from './sso-test-report';
import { SamlSignIn } from './saml/saml-sign-in';

export type CallbackOutcome = { kind: 'signed-in'; redirectPath: string; session: StartedSession } | { kind: 'test'; report: SsoTestReport };

/**
 * Runs the passport strategy on the current request (the controller binds it to its request and response:
 * passport reads the provider's answer from the query). The service sees only the flow's plain result.
 */
export type RunSsoFlow = <T>(flow: SsoFlow) => Promise<T>;

/** What the controller reads from the request of a sign-in route. */
export interface SignInRequest {
  organizationId: string;
  slug: string;
  client: SignInClient;
  runFlow: RunSsoFlow;
}

/** A started sign-in: where to send the browser, and the binding cookie the controller sets. */
export interface StartedSignIn extends SsoTestStartResponse {
  binding: SsoBinding;
}

/** What every audit entry of one callback shares. */
type Attempt = Pick<SignInAttemptRecord, 'organizationId' | 'providerId' | 'providerSlug' | 'email' | 'subject' | 'claims' | 'client'> & { warnings: string[] };

/**
 * The SSO sign-in flow: login start, test start and the callback with every rule (see README.md). Reading and
 * writing users, links and memberships is SsoIdentityLinker's; the audit entries are SsoAuditService's.
 */
@Injectable()
export class SsoSignInService {
  private readonly logger = new Logger('SsoSignIn');

  constructor(
    private readonly providers: SsoProvidersService,
    private readonly states: OAuthStateService,
    private readonly audit: SsoAuditService,
    private readonly linker: SsoIdentityLinker,
    private readonly sessions: SessionsService,
    private readonly organizations: OrganizationsService,
    @Inject(SsoConfig) private readonly ssoConfig: SsoConfig,
    private readonly saml: SamlSignIn,
  ) {}

  /** GET …/login/:slug: stores a state and answers with the provider's authorization URL. */
  async startLogin(request: SignInRequest, redirect: unknown): Promise<StartedSignIn> {
    const { organizationId, slug } = request;
    let provider: SignInProvider | undefined;
    try {
      provider = await this.providers.forSignIn(organizationId, slug);
      if (!provider.entity.enabled) throw providerDisabled(slug);
    } catch (error) {
      // A refused start is an attempt too; only organizations that exist have an audit log.
      if (await this.organizations.find(organizationId)) await this.recordFailure(request.client, organizationId, provider?.entity.id ?? null, slug, false, error);
      throw error;
    }
    return this.start(request, provider, 'login', safeRedirectPath(redirect, defaultRedirect(organizationId)), null);
  }

  /** POST …/providers/:slug/test: the same flow flagged as a test; works on disabled providers too. */
  async startTest(request: SignInRequest, principal: Principal): Promise<StartedSignIn> {
    if (principal.kind !== 'session') {
      throw ssoError(SsoErrorCode.SessionRequired, 'A test sign-in runs in the administrator\'s browser: start it from a signed-in session, not with an API token.');
    }
    const provider = await this.providers.forSignIn(request.organizationId, request.slug);
    return this.start(request, provider, 'test', `/orgs/${request.organizationId}/settings/sso`, principal.userId);
  }

  private async start(request: SignInRequest, provider: SignInProvider, purpose: 'login' | 'test', redirectPath: string, initiatedBy: string | null): Promise<StartedSignIn> {
    const bindingValue = randomToken(32);
    let expiresAt = new Date(0);
    const flow: SsoFlow = {
      provider,
      policy: this.ssoConfig.outbound,
      nonce: randomToken(24),
      issueState: async (codeVerifier) => {
        const issued = await this.states.issue({
          organizationId: provider.entity.organizationId,
          providerId: provider.entity.id,
          purpose,
          nonce: flow.nonce as string,
          codeVerifier,
          redirectPath,
          bindingValue,
          initiatedByUserId: initiatedBy,
        });
        expiresAt = issued.expiresAt;
        return issued.state;
      },
    };
    const saml = provider.entity.type === 'saml';
    // SAML: the state travels as the AuthnRequest ID (no PKCE); OAuth: passport makes the verifier and the redirect.
    const url = saml ? await this.saml.authorizationUrl(provider, await (flow.issueState as (codeVerifier: string) => Promise<string>)('')) : (await request.runFlow<AuthorizationRedirect>(flow)).url;
    const binding: SsoBinding = { organizationId: provider.entity.organizationId, slug: provider.entity.slug, value: bindingValue, maxAgeMs: SSO_STATE_TTL_SECONDS * 1000, saml };
    return { authorizationUrl: url, expiresAt: expiresAt.toISOString(), binding };
  }

  /**
   * GET …/callback/:slug. Rules 1–12: the state (atomically consumed, bound to `binding`, the browser's binding
   * cookie), the provider's answer, the token exchange, ID token and UserInfo (inside passport), then the
   * sign-in decision, the writes and an organization-scoped session (`replacing` the browser's current one).
   * Every attempt lands in the audit log. A failing DomainError is thrown for the error page — except in a
   * test sign-in, whose report shows where it failed.
   */
  async handleCallback(request: SignInRequest, binding: string | undefined, replacing: string | undefined): Promise<CallbackOutcome> {
    return this.finishSignIn(request, binding, replacing, 'oauth', (_provider, flow) => request.runFlow<ProviderIdentity>(flow));
  }

  /**
   * POST …/saml/:slug/acs: the same rules as the OAuth callback. The state comes from the response's InResponseTo
   * (consumed before the response is trusted, as the OAuth callback consumes `state` first, so a failed test
   * sign-in still gets its report); a response without one is IdP-initiated, refused unless the provider allows it.
   */
  async handleSamlResponse(request: SignInRequest, samlResponse: unknown, binding: string | undefined, replacing: string | undefined): Promise<CallbackOutcome> {
    return this.finishSignIn(request, binding, replacing, 'saml', async (provider, flow) => {
      const posted = await this.saml.peek(samlResponse);
      if (posted.state === null) {
        if (!provider.entity.allowIdpInitiated) {
          throw ssoError(SsoErrorCode.SamlIdpInitiatedRefused, `The identity provider sent a sign-in this service did not ask for (IdP-initiated), and provider "${provider.entity.slug}" does not accept those. Start the sign-in from this service's sign-in page.`);
        }
        return this.saml.identify(provider, samlResponse, idpInitiatedState(provider), true);
      }
      const state = await (flow.consumeState as (state: unknown) => Promise<ConsumedState>)(posted.state);
      return this.saml.identify(provider, samlResponse, state, false);
    });
  }

  private async finishSignIn(
    request: SignInRequest,
    binding: string | undefined,
    replacing: string | undefined,
    protocol: 'oauth' | 'saml',
    identify: (provider: SignInProvider, flow: SsoFlow) => Promise<ProviderIdentity>,
  ): Promise<CallbackOutcome> {
    const { organizationId, slug, client } = request;
    let provider: SignInProvider;
    try {
      provider = await this.providers.forSignIn(organizationId, slug);
      if ((provider.entity.type === 'saml') !== (protocol === 'saml')) {
        throw ssoError(SsoErrorCode.ProviderNotFound, `The provider "${slug}" is ${provider.entity.type === 'saml' ? 'a SAML provider: its IdP posts to …/saml/' + slug + '/acs' : 'not a SAML provider'}.`);
      }
    } catch (error) {
      if (await this.organizations.find(organizationId)) await this.recordFailure(client, organizationId, null, slug, false, error);
      throw error;
    }

    let consumed: ConsumedState | undefined;
    const flow: SsoFlow = {
      provider,
      policy: this.ssoConfig.outbound,
      consumeState: async (state) => {
        consumed = await this.states.consume({ state, organizationId, providerId: provider.entity.id, bindingValue: binding });
        return consumed;
      },
    };
    let identity: ProviderIdentity;
    try {
      identity = await identify(provider, flow);
    } catch (error) {
      const test = consumed?.purpose === 'test';
      await this.recordFailure(client, organizationId, provider.entity.id, slug, test, error);
      if (test) await this.recordTest(provider, false, error);
      if (test && error instanceof DomainError) {
        // The provider's settings are the admin's input: its reason at warn, for whoever reads the logs with the admin.
        this.logger.warn({ msg: 'SSO test sign-in failed', organizationId, provider: slug, code: error.code, reason: error.message });
        return { kind: 'test', report: failedReport(slug, provider, error) };
      }
      throw error;
    }

    const evaluation = await evaluateSignIn(provider.entity, identity.claims, (email, subject) => this.linker.lookup(organizationId, provider.entity.id, email, subject));
    const attempt: Attempt = {
      organizationId,
      providerId: provider.entity.id,
      providerSlug: slug,
      email: evaluation.email,
      subject: evaluation.subject,
      claims: identity.claims,
      warnings: [...identity.warnings, ...overageWarnings(identity.claims)],
      client,
    };
    if (identity.state.purpose === 'test') return this.finishTest(attempt, provider, identity, evaluation);
    return this.finishLogin(attempt, provider, identity, evaluation, replacing);
  }

  /** A test sign-in ends with its report: nothing is written except the audit entry. */
  private async finishTest(attempt: Attempt, provider: SignInProvider, identity: ProviderIdentity, evaluation: SignInEvaluation): Promise<CallbackOutcome> {
    const error = evaluation.failure;
    const message = error ? error.message : `Test sign-in passed; the role would be ${evaluation.role}.`;
    await this.audit.record({ ...attempt, test: true, errorCode: error?.code ?? null, message, role: evaluation.role });
    await this.recordTest(provider, error === null, error ?? message);
    return { kind: 'test', report: testReport(attempt.providerSlug, provider, identity, evaluation, attempt.warnings) };
  }

  /** A real sign-in: refuse (audited), or write user, link and membership and start the organization's session. */
  private async finishLogin(attempt: Attempt, provider: SignInProvider, identity: ProviderIdentity, evaluation: SignInEvaluation, replacing: string | undefined): Promise<CallbackOutcome> {
    const refusal = !provider.entity.enabled ? providerDisabled(attempt.providerSlug) : evaluation.failure;
    if (refusal || !evaluation.plan) {
      const error = refusal ?? new Error('The sign-in decision produced no plan.');
      await this.recordFailure(attempt.client, attempt.organizationId, attempt.providerId, attempt.providerSlug, false, error, attempt);
      throw error;
    }
    let applied: { userId: string; role: string };
    try {
      applied = await this.linker.apply(attempt.organizationId, provider.entity, evaluation.plan, attempt.client.ipAddress);
    } catch (error) {
      await this.recordFailure(attempt.client, attempt.organizationId, attempt.providerId, attempt.providerSlug, false, error, attempt);
      throw error;
    }
    const session = await this.sessions.startSession({ userId: applied.userId, organizationId: attempt.organizationId, replacing, viaSso: true });
    await this.audit.record({ ...attempt, test: false, errorCode: null, message: `Signed in as ${applied.role} (${roleSourceText(evaluation.plan)}).`, userId: applied.userId, role: applied.role });
    return { kind: 'signed-in', redirectPath: safeRedirectPath(identity.state.redirectPath, defaultRedirect(attempt.organizationId)), session };
  }

  /** Keeps a test's outcome on the provider: what enabling it without a confirmation needs (README "Lockout"). */
  private async recordTest(provider: SignInProvider, ok: boolean, outcome: unknown): Promise<void> {
    const errorCode = ok ? null : outcome instanceof DomainError ? outcome.code : CommonErrorCode.InternalError;
    const message = typeof outcome === 'string' ? outcome : outcome instanceof DomainError ? outcome.message : 'Unexpected server error during the test sign-in.';
    await this.providers.recordTest(provider.entity.id, { ok, errorCode, message });
  }

  private async recordFailure(client: SignInClient, organizationId: string, providerId: string | null, slug: string, test: boolean, error: unknown, extra: Partial<SignInAttemptRecord> = {}): Promise<void> {
    const code = error instanceof DomainError ? error.code : CommonErrorCode.InternalError;
    const reason = error instanceof DomainError && error.details[0]?.code && code === SsoErrorCode.InvalidOrExpiredState ? ` (${error.details[0].message})` : '';
    const message = error instanceof DomainError ? `${error.message}${reason}` : 'Unexpected server error during sign-in.';
    await this.audit.record({ ...extra, organizationId, providerId, providerSlug: slug, test, errorCode: code, message, client });
  }
}

/** An IdP-initiated response has no state: it signs in (never tests) and lands on the organization's home. */
function idpInitiatedState(provider: SignInProvider): ConsumedState {
  const organizationId = provider.entity.organizationId;
  return { id: '', organizationId, providerId: provider.entity.id, purpose: 'login', nonce: '', codeVerifier: '', redirectPath: defaultRedirect(organizationId), initiatedByUserId: null };
}

function defaultRedirect(organizationId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}`;
}

function providerDisabled(slug: string) {
  return ssoError(SsoErrorCode.ProviderDisabled, `The sign-in provider "${slug}" is turned off in this organization; use another provider or ask an administrator.`);
}

function roleSourceText(plan: SignInPlan): string {
  return plan.roleSource === 'claim_rule' ? 'from a claim rule' : plan.roleSource === 'default_role' ? 'the default role' : 'a manual membership, unchanged';
}
