import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport';
import OAuth2Strategy, { AuthorizationError, InternalOAuthError, TokenError } from 'passport-oauth2';
import { SsoErrorCode } from '@sc/contracts';
import { Clock } from '../../../common/clock';
import { DomainError } from '../../../common/errors/domain-error';
import { OutboundFetchError, OutboundPolicy } from '../../../common/http/bounded-fetch';
import type { ConsumedState } from '../../oauth-state/oauth-state.service';
import { Claims, mergeClaims, subjectClaim } from '../domain/claims';
import { sentence } from '../domain/sentence';
import { ssoError } from '../sso.errors';
import type { SignInProvider } from '../sso-providers.service';
import { BoundedOAuth2, fetchUserinfo, UserinfoResult, verifyIdToken } from './provider-calls';

export const ORG_SSO_STRATEGY = 'org-sso';

/** What one request's flow needs; built by the sign-in service and handed to passport in the options. */
export interface SsoFlow {
  provider: SignInProvider;
  policy: OutboundPolicy;
  /** Login start: stores a state for the PKCE verifier passport generated and returns the state value. */
  issueState?: (codeVerifier: string) => Promise<string>;
  /** Login start: sent as `nonce` and checked in the ID token. */
  nonce?: string;
  /** Callback: consumes the state atomically (throws invalid_or_expired_state). */
  consumeState?: (state: unknown) => Promise<ConsumedState>;
}

/** The passport "user" of a login start. */
export interface AuthorizationRedirect {
  kind: 'authorization';
  url: string;
}

/** The passport "user" of a callback: claims only — provider tokens never leave the strategy. */
export interface ProviderIdentity {
  kind: 'identity';
  state: ConsumedState;
  claims: Claims;
  idTokenClaimNames: string[];
  userinfoClaimNames: string[];
  githubEmailsUsed: boolean;
  idTokenCheck: string | null;
  /** SAML: the attribute names the assertion carried (the claims come from it alone). */
  assertionClaimNames?: string[];
  warnings: string[];
}

const flows = new WeakMap<Request, { flow: SsoFlow; state?: ConsumedState }>();

type Verify = (...args: unknown[]) => void;

/**
 * The registered passport strategy. Providers are configured per organization at runtime, so it builds
 * a passport-oauth2 strategy for the request's provider and delegates to it, keeping passport's own
 * redirect, state-store, PKCE and code-exchange machinery.
 */
class OrgSsoDispatchStrategy extends Strategy {
  constructor(private readonly verifyIdentity: Verify) {
    super();
  }

  override authenticate(req: Request, options: { ssoFlow: SsoFlow }): void {
    const flow = options.ssoFlow;
    const context: { flow: SsoFlow; state?: ConsumedState } = { flow };
    flows.set(req, context);
    const inner = new ProviderOAuth2Strategy(flow, context, this.verifyIdentity);
    // Passport augments the registered strategy with success/fail/error/redirect; the inner one reports through them.
    const delegate = Object.create(inner) as ProviderOAuth2Strategy & Strategy;
    delegate.success = (user: unknown, info?: unknown) => this.success(user as Express.User, info as object);
    delegate.fail = () => this.error(ssoError(SsoErrorCode.InvalidOrExpiredState, 'The sign-in state was refused.'));
    delegate.error = (error: unknown) => this.error(mapProviderError(error));
    delegate.redirect = (url: string) => this.success({ kind: 'authorization', url } satisfies AuthorizationRedirect as unknown as Express.User);

    if (flow.consumeState) {
      // Callback: the state is checked before anything the provider sent is believed (rule 1 before rule 2).
      const query = req.query as Record<string, unknown>;
      if (query['error'] !== undefined || typeof query['code'] !== 'string' || query['code'] === '') {
        flow.consumeState(query['state']).then(
          () => this.error(query['error'] !== undefined ? providerError(query) : ssoError(SsoErrorCode.MissingCode, 'The provider returned to the callback without an authorization code; start the sign-in again.')),
          (error: unknown) => this.error(mapProviderError(error)),
        );
        return;
      }
    }
    delegate.authenticate(req, { nonce: flow.nonce });
  }
}

class ProviderOAuth2Strategy extends OAuth2Strategy {
  constructor(
    private readonly flow: SsoFlow,
    context: { state?: ConsumedState },
    verify: Verify,
  ) {
    const { provider } = flow;
    super(
      {
        authorizationURL: provider.endpoints.authorizationUrl ?? '',
        tokenURL: provider.endpoints.tokenUrl ?? '',
        clientID: provider.entity.clientId,
        clientSecret: provider.clientSecret,
        callbackURL: provider.callbackUrl,
        scope: provider.entity.scopes,
        pkce: true,
        state: true,
        passReqToCallback: true,
        store: {
          // Arity 5: passport hands over the PKCE verifier it generated.
          store: (_req: unknown, verifier: string, _state: unknown, _meta: unknown, done: (err: Error | null, state?: string) => void) => {
            if (!flow.issueState) return done(new Error('Login start without a state issuer.'));
            flow.issueState(verifier).then((state) => done(null, state), done);
          },
          // Arity 4: the verifier goes back to passport for the token request.
          verify: (_req: unknown, state: string, _meta: unknown, done: (err: Error | null, ok?: string | false, info?: unknown) => void) => {
            if (!flow.consumeState) return done(new Error('Callback without a state consumer.'));
            flow.consumeState(state).then((consumed) => {
              context.state = consumed;
              done(null, consumed.codeVerifier, { purpose: consumed.purpose });
            }, done);
          },
        } as unknown as OAuth2Strategy.StateStore,
      },
      verify as OAuth2Strategy.VerifyFunctionWithRequest,
    );
    this._oauth2 = new BoundedOAuth2(provider.entity.clientId, provider.clientSecret, provider.endpoints.authorizationUrl ?? '', provider.endpoints.tokenUrl ?? '', flow.policy);
  }

  override authorizationParams(options: { nonce?: string }): object {
    return options.nonce ? { nonce: options.nonce } : {};
  }

  override userProfile(accessToken: string, done: (err?: unknown, profile?: UserinfoResult) => void): void {
    const url = this.flow.provider.endpoints.userinfoUrl;
    if (!url) return done(ssoError(SsoErrorCode.UserinfoFailed, 'The provider has no UserInfo URL configured.'));
    fetchUserinfo(url, accessToken, this.flow.policy).then((result) => done(null, result), done);
  }
}

/**
 * The strategy passport knows by name. `validate` receives the token response and the UserInfo result,
 * checks the ID token, merges the claims (UserInfo wins) and returns only claims: the access, refresh and
 * ID tokens end here, unstored.
 */
@Injectable()
export class OrgSsoStrategy extends PassportStrategy(OrgSsoDispatchStrategy, ORG_SSO_STRATEGY, 6) {
  constructor(private readonly clock: Clock) {
    super();
  }

  async validate(req: Request, _accessToken: string, _refreshToken: string, tokenResponse: Record<string, unknown>, profile: UserinfoResult): Promise<ProviderIdentity> {
    const context = flows.get(req);
    if (!context?.state) throw new Error('SSO callback without a consumed state.');
    const { flow, state } = context;
    const { provider } = flow;
    const warnings: string[] = [];
    let idTokenClaims: Claims | undefined;
    let idTokenCheck: string | null = null;
    const idToken = tokenResponse['id_token'];
    if (typeof idToken === 'string' && idToken !== '') {
      const verified = await verifyIdToken(idToken, {
        jwksUri: provider.endpoints.jwksUri,
        issuer: provider.endpoints.issuer,
        clientId: provider.entity.clientId,
        nonce: state.nonce,
        now: this.clock.now(),
        policy: flow.policy,
      });
      idTokenClaims = verified.claims;
      idTokenCheck = verified.check;
      warnings.push(...verified.warnings);
    }
    const userinfo = profile.claims;
    if (idTokenClaims) {
      const fromToken = subjectClaim(idTokenClaims, 'sub');
      const fromUserinfo = subjectClaim(userinfo, 'sub');
      if (fromToken !== undefined && fromUserinfo !== undefined && fromToken !== fromUserinfo) {
        throw ssoError(SsoErrorCode.SubjectMismatch, 'The ID token and UserInfo name different subjects (sub), so the response cannot be trusted; sign in again, and ask an administrator to check the provider if it persists.');
      }
    }
    return {
      kind: 'identity',
      state,
      claims: mergeClaims(stripTokenClaims(idTokenClaims), userinfo),
      idTokenClaimNames: Object.keys(stripTokenClaims(idTokenClaims) ?? {}),
      userinfoClaimNames: Object.keys(userinfo),
      githubEmailsUsed: profile.githubEmailsUsed,
      idTokenCheck,
      warnings,
    };
  }
}

/** Hashes of tokens (at_hash, c_hash) are of no use downstream; keep them out of reports. */
function stripTokenClaims(claims: Claims | undefined): Claims | undefined {
  if (!claims) return undefined;
  const { at_hash: _a, c_hash: _c, s_hash: _s, ...rest } = claims;
  return rest;
}

export function providerError(query: Record<string, unknown>) {
  const error = String(query['error']).slice(0, 100);
  const description = typeof query['error_description'] === 'string' ? query['error_description'].slice(0, 500) : '';
  return ssoError(SsoErrorCode.ProviderError, sentence(`The identity provider refused the sign-in: ${error}${description ? ` — ${description.trim()}` : ''}`), [
    { code: error, message: description || error },
  ]);
}

/** Turns what passport-oauth2 reports into the SSO codes. */
export function mapProviderError(error: unknown): Error {
  if (error instanceof DomainError) return error;
  if (error instanceof TokenError) {
    const code = String(error.code).slice(0, 100);
    const advice =
      code === 'invalid_client'
        ? ' Check the client ID and client secret, and that the client at the provider accepts client_secret_post (credentials in the form body, not HTTP Basic).'
        : code === 'invalid_grant'
          ? ' The code expired or was already used, or the redirect URI does not match; start the sign-in again.'
          : '';
    return ssoError(SsoErrorCode.TokenExchangeFailed, `The provider's token endpoint refused the code exchange: ${code}${error.message ? ` (${error.message.slice(0, 300)})` : ''}.${advice}`, [{ code, message: error.message || code }]);
  }
  if (error instanceof InternalOAuthError) {
    const oauthError = (error as { oauthError?: { statusCode?: number; outbound?: OutboundFetchError } }).oauthError;
    if (oauthError?.outbound) return ssoError(SsoErrorCode.TokenExchangeFailed, `The code exchange with the provider's token endpoint failed. ${oauthError.outbound.message}`);
    const reason = oauthError?.statusCode ? `HTTP ${oauthError.statusCode}` : 'no usable answer';
    return ssoError(SsoErrorCode.TokenExchangeFailed, `The code exchange with the provider's token endpoint failed: ${reason}.`);
  }
  if (error instanceof AuthorizationError) {
    return ssoError(SsoErrorCode.ProviderError, `The identity provider refused the sign-in: ${error.code}.`);
  }
  if (error instanceof Error && error.message === 'Failed to obtain access token') {
    return ssoError(SsoErrorCode.TokenExchangeFailed, 'The token endpoint answered without an access token.');
  }
  return error instanceof Error ? error : new Error(String(error));
}
