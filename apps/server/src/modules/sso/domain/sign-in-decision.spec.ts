import type { Membership } from '../../members/membership.entity';
import type { User } from '../../users/user.entity';
import type { SsoIdentity } from '../entities/sso-identity.entity';
import { evaluateSignIn, SignInLookups, SignInSettings } from './sign-in-decision';

const settings: SignInSettings = {
  id: 'p1',
  emailClaim: 'email',
  nameClaim: 'name',
  subjectClaim: 'sub',
  allowedDomains: [],
  allowSignUp: true,
  defaultRole: 'viewer',
  claimRules: [{ claim: 'groups', operator: 'equals', value: 'admins', role: 'admin' }],
};

const user = (extra: Partial<User> = {}) => ({ id: 'u1', email: 'ann@example.com', displayName: null, disabled: false, createdAt: new Date(), ...extra }) as User;
const membership = (extra: Partial<Membership> = {}) => ({ id: 'm1', organizationId: 'acme', userId: 'u1', role: 'editor', source: 'sso', disabled: false, ...extra }) as Membership;
const link = (extra: Partial<SsoIdentity> = {}) => ({ id: 'l1', providerId: 'p1', userId: 'u1', subject: 's1', ...extra }) as SsoIdentity;
const nobody: SignInLookups = { user: null, membership: null, linkBySubject: null, linkByUser: null };
const lookup = (found: Partial<SignInLookups>) => async () => ({ ...nobody, ...found });

describe('evaluateSignIn', () => {
  it('plans a new user with the default role and the name claim', async () => {
    const result = await evaluateSignIn(settings, { sub: 's1', email: 'Ann@Example.com', name: 'Ann' }, lookup({}));
    expect(result.failure).toBeNull();
    expect(result.plan).toMatchObject({ email: 'Ann@Example.com', name: 'Ann', subject: 's1', role: 'viewer', roleSource: 'default_role', applyRole: true, user: null });
    expect(result.signUp.outcome).toBe('pass');
  });

  it("words its decisions alike for an unknown address and for a user of another organization (no existence oracle in test reports)", async () => {
    const claims = { sub: 's1', email: 'ann@example.com' };
    const decisions = async (allowSignUp: boolean, found: Partial<SignInLookups>) => {
      const result = await evaluateSignIn({ ...settings, allowSignUp }, claims, lookup(found));
      return { disabled: result.disabled, signUp: result.signUp, failure: result.failure?.message ?? null };
    };
    for (const allowSignUp of [true, false]) {
      expect(await decisions(allowSignUp, { user: user() })).toEqual(await decisions(allowSignUp, {}));
    }
    expect((await decisions(false, {})).signUp.detail).toBe('Sign-up is off and this person is not a member of this organization.');
  });

  it('takes the first matching rule and updates SSO memberships', async () => {
    const result = await evaluateSignIn(settings, { sub: 's1', email: 'ann@example.com', groups: ['admins'] }, lookup({ user: user(), membership: membership(), linkByUser: link(), linkBySubject: link() }));
    expect(result.plan).toMatchObject({ role: 'admin', roleSource: 'claim_rule', applyRole: true });
    expect(result.identityLink.detail).toBe('The identity link exists; a sign-in would refresh it.');
    expect(result.rules[0]).toMatchObject({ matched: true, selected: true });
  });

  it('never changes manual memberships or owners', async () => {
    const manual = await evaluateSignIn(settings, { sub: 's1', email: 'ann@example.com', groups: ['admins'] }, lookup({ user: user(), membership: membership({ source: 'manual', role: 'viewer' }) }));
    expect(manual.plan).toMatchObject({ role: 'viewer', roleSource: 'manual_membership_unchanged', applyRole: false });
    // The rule matches but decides nothing: the report must not call it selected.
    expect(manual.rules[0]).toMatchObject({ evaluated: true, matched: true, selected: false });
    expect(manual.rules[0].explanation).toMatch(/Not applied: the membership was created by hand/);
    const owner = await evaluateSignIn(settings, { sub: 's1', email: 'ann@example.com' }, lookup({ user: user(), membership: membership({ source: 'sso', role: 'owner' }) }));
    expect(owner.plan).toMatchObject({ role: 'owner', applyRole: false });
  });

  it.each([
    [{ sub: 's1' }, nobody, 'no_email'],
    [{ sub: 's1', email: 42 }, nobody, 'no_email'],
    [{ email: 'ann@example.com' }, nobody, 'no_subject'],
  ])('fails %j with %s', async (claims, found, code) => {
    const result = await evaluateSignIn(settings, claims, lookup(found));
    expect(result.failure?.code).toBe(code);
    expect(result.plan).toBeNull();
  });

  it('checks domains case-insensitively before anything is looked up', async () => {
    let looked = false;
    const restricted = { ...settings, allowedDomains: ['example.com'] };
    const result = await evaluateSignIn(restricted, { sub: 's', email: 'x@Other.org' }, async () => ((looked = true), nobody));
    expect(result.failure?.code).toBe('email_domain_not_allowed');
    expect(looked).toBe(false);
    expect((await evaluateSignIn(restricted, { sub: 's', email: 'x@EXAMPLE.COM' }, lookup({}))).failure).toBeNull();
  });

  it('refuses disabled users and memberships', async () => {
    expect((await evaluateSignIn(settings, { sub: 's1', email: 'ann@example.com' }, lookup({ user: user({ disabled: true }) }))).failure?.code).toBe('account_disabled');
    const result = await evaluateSignIn(settings, { sub: 's1', email: 'ann@example.com' }, lookup({ user: user(), membership: membership({ disabled: true }) }));
    expect(result.failure?.code).toBe('account_disabled');
    expect(result.disabled.outcome).toBe('fail');
    expect(result.signUp.outcome).toBe('not_reached');
  });

  it('with sign-up off admits only members of the organization', async () => {
    const closed = { ...settings, allowSignUp: false };
    expect((await evaluateSignIn(closed, { sub: 's1', email: 'ann@example.com' }, lookup({}))).failure?.code).toBe('signup_disabled');
    expect((await evaluateSignIn(closed, { sub: 's1', email: 'ann@example.com' }, lookup({ user: user() }))).failure?.code).toBe('signup_disabled');
    expect((await evaluateSignIn(closed, { sub: 's1', email: 'ann@example.com' }, lookup({ user: user(), membership: membership() }))).failure).toBeNull();
  });

  it('refuses identity conflicts in both directions', async () => {
    const otherSubject = await evaluateSignIn(settings, { sub: 's2', email: 'ann@example.com' }, lookup({ user: user(), membership: membership(), linkByUser: link() }));
    expect(otherSubject.failure?.code).toBe('identity_conflict');
    const otherUser = await evaluateSignIn(settings, { sub: 's1', email: 'new@example.com' }, lookup({ linkBySubject: link({ userId: 'someone-else' }) }));
    expect(otherUser.failure?.code).toBe('identity_conflict');
  });
});
