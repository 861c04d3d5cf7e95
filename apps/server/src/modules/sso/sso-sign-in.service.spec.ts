import type { SsoRole } from '@sc/contracts';
import { DomainError } from '../../common/errors/domain-error';
import { oidcProviderRequest, serviceSpec } from '../../testing/service-spec';
import { MembersService } from '../members/members.service';
import { SessionsService } from '../sessions/sessions.service';
import { UsersService } from '../users/users.service';
import type { Claims } from './domain/claims';
import type { AuthorizationRedirect, ProviderIdentity, SsoFlow } from './passport/org-sso.strategy';
import { SsoAuditService } from './sso-audit.service';
import { SsoModule } from './sso.module';
import { SsoProvidersService } from './sso-providers.service';
import { SsoSignInService, type SignInRequest } from './sso-sign-in.service';

const spec = serviceSpec([SsoModule]);

const CLIENT = { ipAddress: '203.0.113.9', userAgent: 'spec' };

/**
 * SsoSignInService on a real (in-memory PGlite) database, one per file, without HTTP or an identity provider: organization
 * "acme" with an owner and provider "corp". Passport is the only part replaced: `runFlow` stands in for the
 * provider's redirect and answer, and still goes through the service's own state issue and consumption.
 */
async function sut(provider: { allowSignUp?: boolean; defaultRole?: SsoRole; allowedDomains?: string[] } = {}) {
  const { app, ctx } = spec;
  const { owner, asOwner } = await ctx.newOrg({ id: 'acme', name: 'Acme', ownerEmail: 'owner@acme.example' });
  // These tests sign people in: enabled at once, which a provider never tested needs confirming.
  await app.get(SsoProvidersService).create('acme', oidcProviderRequest('corp', { displayName: 'Corp', enabled: true, confirmUntested: true, ...provider }), asOwner);
  const signIn = app.get(SsoSignInService);

  /** A browser's sign-in from start to callback; the provider answers with `claims`. */
  async function signInWith(claims: Claims, purpose: 'login' | 'test' = 'login') {
    let state = '';
    const start: SignInRequest = {
      organizationId: 'acme',
      slug: 'corp',
      client: CLIENT,
      runFlow: async <T>(flow: SsoFlow) => {
        state = await (flow.issueState as (verifier: string) => Promise<string>)('verifier');
        return { kind: 'authorization', url: `https://idp.example/authorize?state=${state}` } satisfies AuthorizationRedirect as T;
      },
    };
    const started = purpose === 'login' ? await signIn.startLogin(start, '/orgs/acme/services') : await signIn.startTest(start, asOwner);
    const callback: SignInRequest = {
      ...start,
      runFlow: async <T>(flow: SsoFlow) => {
        const consumed = await (flow.consumeState as (state: unknown) => Promise<ProviderIdentity['state']>)(state);
        return { kind: 'identity', state: consumed, claims, idTokenClaimNames: [], userinfoClaimNames: Object.keys(claims), githubEmailsUsed: false, idTokenCheck: null, warnings: [] } satisfies ProviderIdentity as T;
      },
    };
    return { started, outcome: await signIn.handleCallback(callback, started.binding.value, undefined) };
  }

  const auditLog = async () => (await app.get(SsoAuditService).page('acme', { limit: 100, after: undefined, filter: {} })).items;
  return { app, signIn, signInWith, auditLog, members: app.get(MembersService), users: app.get(UsersService), sessions: app.get(SessionsService), owner };
}

describe('SsoSignInService', () => {
  it('signs a new person up with the default role, links the identity, starts a session and audits it', async () => {
    const { signInWith, auditLog, members, users, sessions } = await sut({ allowSignUp: true, defaultRole: 'editor' });
    const { started, outcome } = await signInWith({ sub: 'ann-1', email: 'Ann@Acme.example', name: 'Ann' });
    // The binding cookie the controller sets is scoped to this provider's callback.
    expect(started.binding).toMatchObject({ organizationId: 'acme', slug: 'corp' });
    expect(started.authorizationUrl).toMatch(/^https:\/\/idp\.example\/authorize\?state=/);
    if (outcome.kind !== 'signed-in') throw new Error('expected a sign-in');
    expect(outcome.redirectPath).toBe('/orgs/acme/services');

    const user = await users.findByEmail('ann@acme.example');
    expect(user?.displayName).toBe('Ann');
    expect((await members.activeMember('acme', user?.id as string))?.role).toBe('editor');
    expect(await sessions.lookup(outcome.session.cookieValue)).toMatchObject({ status: 'valid', session: { userId: user?.id, organizationId: 'acme' } });
    expect((await auditLog())[0]).toMatchObject({ outcome: 'success', email: 'ann@acme.example', role: 'editor', ipAddress: CLIENT.ipAddress, userAgent: CLIENT.userAgent });
  });

  it('refuses a stranger when sign-up is off: nothing written, the refusal audited', async () => {
    const { signInWith, auditLog, users } = await sut({ allowSignUp: false });
    const refusal = await signInWith({ sub: 'bob-1', email: 'bob@acme.example' }).then(
      () => null,
      (error: unknown) => error as DomainError,
    );
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal?.code).toBe('signup_disabled');
    expect(await users.findByEmail('bob@acme.example')).toBeNull();
    expect((await auditLog())[0]).toMatchObject({ outcome: 'failure', errorCode: 'signup_disabled', email: 'bob@acme.example' });
  });

  it('a test sign-in reports the decision and writes nothing but its audit entry', async () => {
    const { signInWith, auditLog, users } = await sut({ allowSignUp: true, defaultRole: 'viewer' });
    const { outcome } = await signInWith({ sub: 'cy-1', email: 'cy@acme.example' }, 'test');
    expect(outcome.kind).toBe('test');
    expect(await users.findByEmail('cy@acme.example')).toBeNull();
    expect((await auditLog())[0]).toMatchObject({ test: true, outcome: 'success', role: 'viewer' });
  });

  it('a used state cannot be consumed twice (the callback is single-use)', async () => {
    const { signIn, signInWith } = await sut({ allowSignUp: true });
    let replayed: DomainError | null = null;
    const { started } = await signInWith({ sub: 'dee-1', email: 'dee@acme.example' });
    const replay: SignInRequest = {
      organizationId: 'acme',
      slug: 'corp',
      client: CLIENT,
      runFlow: async <T>(flow: SsoFlow) => {
        const state = new URL(started.authorizationUrl).searchParams.get('state');
        return (await (flow.consumeState as (state: unknown) => Promise<unknown>)(state)) as T;
      },
    };
    replayed = await signIn.handleCallback(replay, started.binding.value, undefined).then(
      () => null,
      (error: unknown) => error as DomainError,
    );
    expect(replayed?.code).toBe('invalid_or_expired_state');
  });
});
