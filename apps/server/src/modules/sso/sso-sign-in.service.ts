import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { CookieOptions, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CommonErrorCode, SSO_STATE_TTL_SECONDS, SsoErrorCode, SsoTestReport, SsoTestStartResponse, safeRedirectPath, ssoCallbackPath } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { randomToken } from '../../common/crypto/tokens';
import { DomainError } from '../../common/errors/domain-error';
import { sessionCookieOf } from '../../common/http/cookies';
import { AppConfig } from '../../config/app-config';
import { isUniqueViolation } from '../../database/db-errors';
import type { Principal } from '../auth/principal';
import { MembersService } from '../members/members.service';
import { MembershipsRepository } from '../members/memberships.repository';
import type { ConsumedState } from '../oauth-state/oauth-state.service';
import { OAuthStateService } from '../oauth-state/oauth-state.service';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import { SessionsService } from '../sessions/sessions.service';
import { UsersService } from '../users/users.service';
import { overageWarnings } from './domain/claims';
import { evaluateSignIn, SignInEvaluation, SignInPlan } from './domain/sign-in-decision';
import { SsoIdentity } from './entities/sso-identity.entity';
import { AuthorizationRedirect, ProviderIdentity, SsoFlow } from './passport/org-sso.strategy';
import { runOrgSso } from './passport/run-passport';
import { AuditRecord, SsoAuditService } from './sso-audit.service';
import { SsoConfig } from './sso.config';
import { ssoError } from './sso.errors';
import { SignInProvider, SsoProvidersService } from './sso-providers.service';
import { SsoIdentitiesRepository } from './sso-identities.repository';
import { failedReport, testReport } from './sso-test-report';

/** The cookie that binds a state to the browser that started the sign-in. */
export const SSO_BINDING_COOKIE = 'sc_sso_binding';

export type CallbackOutcome = { kind: 'signed-in'; redirectPath: string } | { kind: 'test'; report: SsoTestReport };

/** What every audit entry of one callback shares. */
type Attempt = Pick<AuditRecord, 'organizationId' | 'providerId' | 'providerSlug' | 'email' | 'subject' | 'claims' | 'request'> & { warnings: string[] };

@Injectable()
export class SsoSignInService {
  constructor(
    private readonly providers: SsoProvidersService,
    private readonly states: OAuthStateService,
    private readonly audit: SsoAuditService,
    private readonly users: UsersService,
    private readonly memberships: MembershipsRepository,
    private readonly members: MembersService,
    private readonly identities: SsoIdentitiesRepository,
    private readonly sessions: SessionsService,
    private readonly organizations: OrganizationsRepository,
    private readonly clock: Clock,
    private readonly appConfig: AppConfig,
    @Inject(SsoConfig) private readonly ssoConfig: SsoConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** GET …/login/:slug: stores a state and answers with the provider's authorization URL. */
  async startLogin(req: Request, res: Response, organizationId: string, slug: string, redirect: unknown): Promise<string> {
    let provider: SignInProvider | undefined;
    try {
      provider = await this.providers.forSignIn(organizationId, slug);
      if (!provider.entity.enabled) throw providerDisabled(slug);
    } catch (error) {
      // A refused start is an attempt too; only organizations that exist have an audit log.
      if (await this.organizations.findById(organizationId)) await this.recordFailure(req, organizationId, provider?.entity.id ?? null, slug, false, error);
      throw error;
    }
    const started = await this.start(req, res, provider, 'login', safeRedirectPath(redirect, defaultRedirect(organizationId)), null);
    return started.authorizationUrl;
  }

  /** POST …/providers/:slug/test: the same flow flagged as a test; works on disabled providers too. */
  async startTest(req: Request, res: Response, organizationId: string, slug: string, principal: Principal): Promise<SsoTestStartResponse> {
    if (principal.kind !== 'session') {
      throw ssoError(SsoErrorCode.SessionRequired, 'A test sign-in runs in the administrator\'s browser: start it from a signed-in session, not with an API token.');
    }
    const provider = await this.providers.forSignIn(organizationId, slug);
    return this.start(req, res, provider, 'test', `/orgs/${organizationId}/settings/sso`, principal.userId);
  }

  private async start(req: Request, res: Response, provider: SignInProvider, purpose: 'login' | 'test', redirectPath: string, initiatedBy: string | null): Promise<SsoTestStartResponse> {
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
    const redirect = await runOrgSso<AuthorizationRedirect>(req, res, flow);
    res.cookie(SSO_BINDING_COOKIE, bindingValue, this.bindingCookieOptions(provider, SSO_STATE_TTL_SECONDS * 1000));
    return { authorizationUrl: redirect.url, expiresAt: expiresAt.toISOString() };
  }

  /**
   * GET …/callback/:slug. Rules 1–12: the state (atomically consumed), the provider's answer, the token
   * exchange, ID token and UserInfo (inside passport), then the sign-in decision, the writes and an
   * organization-scoped session. Every attempt lands in the audit log. A failing DomainError is thrown
   * for the error page — except in a test sign-in, whose report shows where it failed.
   */
  async handleCallback(req: Request, res: Response, organizationId: string, slug: string): Promise<CallbackOutcome> {
    res.clearCookie(SSO_BINDING_COOKIE, { path: ssoCallbackPath(organizationId, slug) });
    let provider: SignInProvider;
    try {
      provider = await this.providers.forSignIn(organizationId, slug);
    } catch (error) {
      if (await this.organizations.findById(organizationId)) await this.recordFailure(req, organizationId, null, slug, false, error);
      throw error;
    }

    let consumed: ConsumedState | undefined;
    const flow: SsoFlow = {
      provider,
      policy: this.ssoConfig.outbound,
      consumeState: async (state) => {
        consumed = await this.states.consume({ state, organizationId, providerId: provider.entity.id, bindingValue: bindingCookie(req) });
        return consumed;
      },
    };
    let identity: ProviderIdentity;
    try {
      identity = await runOrgSso<ProviderIdentity>(req, res, flow);
    } catch (error) {
      const test = consumed?.purpose === 'test';
      await this.recordFailure(req, organizationId, provider.entity.id, slug, test, error);
      if (test && error instanceof DomainError) return { kind: 'test', report: failedReport(slug, provider, error) };
      throw error;
    }

    const evaluation = await evaluateSignIn(provider.entity, identity.claims, (email, subject) => this.lookup(organizationId, provider.entity.id, email, subject));
    const attempt: Attempt = {
      organizationId,
      providerId: provider.entity.id,
      providerSlug: slug,
      email: evaluation.email,
      subject: evaluation.subject,
      claims: identity.claims,
      warnings: [...identity.warnings, ...overageWarnings(identity.claims)],
      request: req,
    };
    if (identity.state.purpose === 'test') return this.finishTest(attempt, provider, identity, evaluation);
    return this.finishLogin(res, attempt, provider, identity, evaluation);
  }

  /** A test sign-in ends with its report: nothing is written except the audit entry. */
  private async finishTest(attempt: Attempt, provider: SignInProvider, identity: ProviderIdentity, evaluation: SignInEvaluation): Promise<CallbackOutcome> {
    const error = evaluation.failure;
    const message = error ? error.message : `Test sign-in passed; the role would be ${evaluation.role}.`;
    await this.audit.record({ ...attempt, test: true, errorCode: error?.code ?? null, message, role: evaluation.role });
    return { kind: 'test', report: testReport(attempt.providerSlug, provider, identity, evaluation, attempt.warnings) };
  }

  /** A real sign-in: refuse (audited), or write user, link and membership and start the organization's session. */
  private async finishLogin(res: Response, attempt: Attempt, provider: SignInProvider, identity: ProviderIdentity, evaluation: SignInEvaluation): Promise<CallbackOutcome> {
    const refusal = !provider.entity.enabled ? providerDisabled(attempt.providerSlug) : evaluation.failure;
    if (refusal || !evaluation.plan) {
      const error = refusal ?? new Error('The sign-in decision produced no plan.');
      await this.recordFailure(attempt.request, attempt.organizationId, attempt.providerId, attempt.providerSlug, false, error, attempt);
      throw error;
    }
    let applied: { userId: string; role: string };
    try {
      applied = await this.apply(attempt.organizationId, provider.entity.id, evaluation.plan, attempt.request.ip ?? null);
    } catch (error) {
      await this.recordFailure(attempt.request, attempt.organizationId, attempt.providerId, attempt.providerSlug, false, error, attempt);
      throw error;
    }
    const replacing = sessionCookieOf(attempt.request);
    await this.sessions.startSession(res, { userId: applied.userId, organizationId: attempt.organizationId, replacing });
    await this.audit.record({ ...attempt, test: false, errorCode: null, message: `Signed in as ${applied.role} (${roleSourceText(evaluation.plan)}).`, userId: applied.userId, role: applied.role });
    return { kind: 'signed-in', redirectPath: safeRedirectPath(identity.state.redirectPath, defaultRedirect(attempt.organizationId)) };
  }

  private async lookup(organizationId: string, providerId: string, email: string, subject: string) {
    const user = await this.users.findByEmail(email);
    const [membership, linkBySubject, linkByUser] = await Promise.all([
      user ? this.memberships.find(organizationId, user.id) : null,
      this.identities.findBySubject(providerId, subject),
      user ? this.identities.findByUser(providerId, user.id) : null,
    ]);
    return { user, membership, linkBySubject, linkByUser };
  }

  /**
   * Writes the sign-in: the user (created when sign-up allowed it) and the identity link in one
   * transaction, re-checking the link under it; then the SSO membership. A concurrent first sign-in of
   * the same person loses a unique index race and simply runs again.
   */
  private async apply(organizationId: string, providerId: string, plan: SignInPlan, clientAddress: string | null, attempt = 0): Promise<{ userId: string; role: string }> {
    try {
      // The name claim fills in a missing display name only for a person no other organization knows: this
      // provider speaks for this organization, not for the names other organizations show.
      const fillMissingName = !plan.user || (await this.memberships.listForUser(plan.user.id)).every((membership) => membership.organizationId === organizationId);
      const user = await this.dataSource.transaction(async (manager) => {
        const { user } = await this.users.findOrCreate({ email: plan.email, displayName: plan.name, fillMissingName }, manager);
        const [bySubject, byUser] = await Promise.all([this.identities.findBySubject(providerId, plan.subject, manager), this.identities.findByUser(providerId, user.id, manager)]);
        if ((byUser && byUser.subject !== plan.subject) || (bySubject && bySubject.userId !== user.id)) {
          throw ssoError(SsoErrorCode.IdentityConflict, `The account ${plan.email} is already linked to a different identity at this provider; an administrator must resolve it (no account is taken over silently).`);
        }
        const now = this.clock.now();
        if (byUser) {
          await this.identities.touch(byUser.id, { email: plan.email, lastLoginAt: now }, manager);
        } else {
          const link = Object.assign(new SsoIdentity(), { id: randomUUID(), organizationId, providerId, userId: user.id, subject: plan.subject, email: plan.email, createdAt: now, lastLoginAt: now });
          await this.identities.insert(link, manager);
        }
        return user;
      });
      if (!plan.applyRole && plan.membership) return { userId: user.id, role: plan.membership.role };
      const membership = await this.members.applySsoMembership({ organizationId, userId: user.id, role: plan.role, clientAddress });
      return { userId: user.id, role: membership.role };
    } catch (error) {
      if (attempt === 0 && isUniqueViolation(error)) return this.apply(organizationId, providerId, plan, clientAddress, attempt + 1);
      throw error;
    }
  }

  private async recordFailure(req: Request, organizationId: string, providerId: string | null, slug: string, test: boolean, error: unknown, extra: Partial<AuditRecord> = {}): Promise<void> {
    const code = error instanceof DomainError ? error.code : CommonErrorCode.InternalError;
    const reason = error instanceof DomainError && error.details[0]?.code && code === SsoErrorCode.InvalidOrExpiredState ? ` (${error.details[0].message})` : '';
    const message = error instanceof DomainError ? `${error.message}${reason}` : 'Unexpected server error during sign-in.';
    await this.audit.record({ ...extra, organizationId, providerId, providerSlug: slug, test, errorCode: code, message, request: req });
  }

  private bindingCookieOptions(provider: SignInProvider, maxAgeMs: number): CookieOptions {
    // Lax: the provider's redirect back is a top-level GET navigation, which carries Lax cookies.
    return { httpOnly: true, sameSite: 'lax', secure: this.appConfig.secureCookies, path: ssoCallbackPath(provider.entity.organizationId, provider.entity.slug), maxAge: maxAgeMs };
  }
}

function bindingCookie(req: Request): string | undefined {
  const value = (req.cookies as Record<string, string> | undefined)?.[SSO_BINDING_COOKIE];
  return typeof value === 'string' && value !== '' ? value : undefined;
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
