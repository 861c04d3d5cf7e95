import type { Role, SsoClaimRuleEvaluation, SsoRole, SsoTestDecision } from '@sc/contracts';
import { DomainError } from '../../../common/errors/domain-error';
import type { Membership } from '../../members/membership.entity';
import type { User } from '../../users/user.entity';
import type { SsoIdentity } from '../entities/sso-identity.entity';
import type { SsoProvider } from '../entities/sso-provider.entity';
import { SsoErrorCode, ssoError } from '../sso.errors';
import { Claims, evaluateClaimRules, stringClaim, subjectClaim } from './claims';

export type SignInSettings = Pick<SsoProvider, 'id' | 'emailClaim' | 'nameClaim' | 'subjectClaim' | 'allowedDomains' | 'allowSignUp' | 'defaultRole' | 'claimRules'>;

/** What the database knows about the person, read by the caller once email and subject are known. */
export interface SignInLookups {
  user: User | null;
  membership: Membership | null;
  linkBySubject: SsoIdentity | null;
  linkByUser: SsoIdentity | null;
}

export type RoleSource = 'claim_rule' | 'default_role' | 'manual_membership_unchanged';

/** What a successful sign-in writes: the caller applies it in one transaction. */
export interface SignInPlan {
  email: string;
  /** The name claim, or null when absent or empty (the email is then shown). */
  name: string | null;
  subject: string;
  user: User | null;
  membership: Membership | null;
  link: SsoIdentity | null;
  role: Role;
  /** False for manual memberships (owners included): SSO manages only the memberships it created. */
  applyRole: boolean;
  roleSource: RoleSource;
}

export interface SignInEvaluation {
  email: string | null;
  name: string | null;
  subject: string | null;
  domain: SsoTestDecision;
  disabled: SsoTestDecision;
  signUp: SsoTestDecision;
  identityLink: SsoTestDecision;
  rules: SsoClaimRuleEvaluation[];
  role: Role | null;
  roleSource: RoleSource | null;
  failure: DomainError | null;
  plan: SignInPlan | null;
}

const NOT_REACHED: SsoTestDecision = { outcome: 'not_reached', detail: 'Not reached: an earlier step failed.' };

/**
 * Callback rules 6–9 as one decision, shared by real and test sign-in: email, subject, allowed domains,
 * disabled accounts, sign-up, identity links, role. It never writes and never throws a rule failure:
 * the failure is returned, so a test sign-in can show every step up to it.
 */
export async function evaluateSignIn(settings: SignInSettings, claims: Claims, lookup: (email: string, subject: string) => Promise<SignInLookups>): Promise<SignInEvaluation> {
  const email = stringClaim(claims, settings.emailClaim) ?? null;
  const name = stringClaim(claims, settings.nameClaim) ?? null;
  const subject = subjectClaim(claims, settings.subjectClaim) ?? null;
  const { evaluations, selected } = evaluateClaimRules(settings.claimRules, claims);
  const evaluation: SignInEvaluation = {
    email, name, subject,
    domain: NOT_REACHED, disabled: NOT_REACHED, signUp: NOT_REACHED, identityLink: NOT_REACHED,
    rules: evaluations, role: null, roleSource: null, failure: null, plan: null,
  };
  const fail = (error: DomainError) => ({ ...evaluation, failure: error });

  if (!email || !email.includes('@')) {
    return fail(ssoError(SsoErrorCode.NoEmail, `The provider returned no email address in the "${settings.emailClaim}" claim. Possible causes: the email scope is missing; the provider hides the address (a private address, an account registered with a phone number, an unconfirmed address); or the configured Email claim does not resolve to a string in the merged claims.`));
  }
  if (!subject) {
    return fail(ssoError(SsoErrorCode.NoSubject, `The provider returned no subject in the "${settings.subjectClaim}" claim, so the identity cannot be linked; an administrator should check the Subject claim setting (usually sub).`));
  }

  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (settings.allowedDomains.length > 0 && !settings.allowedDomains.includes(domain)) {
    evaluation.domain = { outcome: 'fail', detail: `${domain} is not in Allowed domains (${settings.allowedDomains.join(', ')}).` };
    return fail(ssoError(SsoErrorCode.EmailDomainNotAllowed, `Accounts from ${domain} may not sign in to this organization; sign in with an account from an allowed domain.`));
  }
  evaluation.domain = { outcome: 'pass', detail: settings.allowedDomains.length > 0 ? `${domain} is an allowed domain.` : 'Allowed domains is empty: no restriction.' };

  const found = await lookup(email, subject);
  if (found.user?.disabled || found.membership?.disabled) {
    evaluation.disabled = { outcome: 'fail', detail: found.user?.disabled ? 'The user account is disabled.' : 'The membership in this organization is disabled.' };
    return fail(ssoError(SsoErrorCode.AccountDisabled, 'Your account is disabled in this organization; contact an administrator.'));
  }
  // Worded by membership in this organization only: whether the address has an account through another
  // organization is not this organization's business (test reports would otherwise tell its admins).
  evaluation.disabled = { outcome: 'pass', detail: found.membership ? 'The membership in this organization is active.' : 'Not a member of this organization yet.' };

  // Sign-up off admits only people already in this organization: a user of another organization on the
  // same server must not gain access here just by existing.
  if (!found.membership && !settings.allowSignUp) {
    evaluation.signUp = { outcome: 'fail', detail: 'Sign-up is off and this person is not a member of this organization.' };
    return fail(ssoError(SsoErrorCode.SignupDisabled, `Sign-up is turned off for this provider and ${email} is not a member of this organization; ask an administrator to add you first.`));
  }
  evaluation.signUp = {
    outcome: 'pass',
    detail: found.membership ? 'Existing member of this organization.' : 'Sign-up is on: this person would become a member of this organization.',
  };

  const conflict =
    (found.linkByUser && found.linkByUser.subject !== subject) || (found.linkBySubject && (!found.user || found.linkBySubject.userId !== found.user.id));
  if (conflict) {
    evaluation.identityLink = { outcome: 'fail', detail: found.linkByUser && found.linkByUser.subject !== subject ? 'This user is linked to a different subject of this provider.' : 'This subject is linked to a different user.' };
    return fail(ssoError(SsoErrorCode.IdentityConflict, `The account ${email} is already linked to a different identity at this provider; an administrator must resolve it (no account is taken over silently).`));
  }
  // Worded as what a sign-in would do: these decisions are shown only in test reports, which write nothing.
  evaluation.identityLink = { outcome: 'pass', detail: found.linkByUser ? 'The identity link exists; a sign-in would refresh it.' : 'No identity link yet; a sign-in would store one for this subject.' };

  // Rule 9: SSO sets the role of the memberships it manages (source sso) at every login; a membership an
  // administrator created by hand keeps its role, and so does any owner (SSO never grants nor removes owner).
  const manual = found.membership !== null && (found.membership.source !== 'sso' || found.membership.role === 'owner');
  const ruleRole: SsoRole | undefined = selected ? (selected as { role: SsoRole }).role : undefined;
  const role: Role = manual && found.membership ? found.membership.role : (ruleRole ?? settings.defaultRole);
  const roleSource: RoleSource = manual ? 'manual_membership_unchanged' : ruleRole ? 'claim_rule' : 'default_role';
  return {
    ...evaluation,
    rules: manual ? evaluation.rules.map(notAppliedToManualMembership) : evaluation.rules,
    role,
    roleSource,
    plan: { email, name, subject, user: found.user, membership: found.membership, link: found.linkByUser, role, applyRole: !manual, roleSource },
  };
}

/** A matching rule does not decide the role of a membership SSO does not manage; the report says so. */
function notAppliedToManualMembership(rule: SsoClaimRuleEvaluation): SsoClaimRuleEvaluation {
  if (!rule.selected) return rule;
  return { ...rule, selected: false, explanation: `${rule.explanation} Not applied: the membership was created by hand (or is an owner's) and keeps its role.` };
}
