import { SsoErrorCode, SsoTestReport } from '@sc/contracts';
import type { DomainError } from '../../common/errors/domain-error';
import type { SignInEvaluation } from './domain/sign-in-decision';
import type { ProviderIdentity } from './passport/org-sso.strategy';
import type { SignInProvider } from './sso-providers.service';

/** The report of a test sign-in that got the claims: every decision up to the first failure, or the role. */
export function testReport(slug: string, provider: Pick<SignInProvider, 'entity'>, identity: ProviderIdentity, evaluation: SignInEvaluation, warnings: string[]): SsoTestReport {
  const settings = provider.entity;
  return {
    providerSlug: slug,
    ok: evaluation.failure === null,
    errorCode: evaluation.failure?.code ?? null,
    errorMessage: evaluation.failure?.message ?? null,
    failedStep: evaluation.failure ? failedStep(evaluation.failure.code) : null,
    claims: identity.claims,
    claimSources: { idToken: identity.idTokenClaimNames, userinfo: identity.userinfoClaimNames, githubEmails: identity.githubEmailsUsed, assertion: identity.assertionClaimNames ?? [] },
    idTokenVerification: identity.idTokenCheck,
    email: { claim: settings.emailClaim, value: evaluation.email },
    name: { claim: settings.nameClaim, value: evaluation.name, fallbackToEmail: evaluation.name === null },
    subject: { claim: settings.subjectClaim, value: evaluation.subject },
    domain: evaluation.domain,
    disabled: evaluation.disabled,
    signUp: evaluation.signUp,
    identityLink: evaluation.identityLink,
    claimRules: evaluation.rules,
    role: evaluation.role,
    roleSource: evaluation.roleSource,
    warnings,
  };
}

/** Where a test stopped, in words: the report names the step, not only the code. */
const FAILED_STEPS: Partial<Record<string, string>> = {
  [SsoErrorCode.ProviderError]: 'the identity provider\'s answer',
  [SsoErrorCode.MissingCode]: 'the identity provider\'s answer',
  [SsoErrorCode.ClientSecretUnreadable]: 'reading the client secret',
  [SsoErrorCode.TokenExchangeFailed]: 'the token exchange',
  [SsoErrorCode.InvalidIdToken]: 'the ID token check',
  [SsoErrorCode.UserinfoFailed]: 'the UserInfo call',
  [SsoErrorCode.SubjectMismatch]: 'the comparison of the ID token and UserInfo subjects',
  [SsoErrorCode.NoEmail]: 'the email claim',
  [SsoErrorCode.NoSubject]: 'the subject claim',
  [SsoErrorCode.EmailDomainNotAllowed]: 'the allowed domains check',
  [SsoErrorCode.AccountDisabled]: 'the disabled account check',
  [SsoErrorCode.SignupDisabled]: 'the sign-up check',
  [SsoErrorCode.IdentityConflict]: 'the identity link check',
  [SsoErrorCode.SamlResponseInvalid]: 'reading the SAML response',
  [SsoErrorCode.SamlSignatureInvalid]: 'the SAML signature check',
  [SsoErrorCode.SamlAssertionExpired]: 'the SAML validity period check',
  [SsoErrorCode.SamlAudienceMismatch]: 'the SAML audience check',
  [SsoErrorCode.SamlDestinationMismatch]: 'the SAML destination and recipient check',
  [SsoErrorCode.SamlAssertionReplayed]: 'the SAML replay check',
};

export function failedStep(code: string): string {
  return FAILED_STEPS[code] ?? 'an unexpected error';
}

/** A test that failed before the claims were read (provider answer, token exchange, ID token, UserInfo). */
export function failedReport(slug: string, provider: Pick<SignInProvider, 'entity'>, error: DomainError): SsoTestReport {
  const step = failedStep(error.code);
  const notReached = { outcome: 'not_reached' as const, detail: `Not reached: the test stopped at ${step}.` };
  const settings = provider.entity;
  return {
    providerSlug: slug,
    ok: false,
    errorCode: error.code,
    errorMessage: error.message,
    failedStep: step,
    claims: {},
    claimSources: { idToken: [], userinfo: [], githubEmails: false, assertion: [] },
    idTokenVerification: null,
    email: { claim: settings.emailClaim, value: null },
    name: { claim: settings.nameClaim, value: null, fallbackToEmail: false },
    subject: { claim: settings.subjectClaim, value: null },
    domain: notReached,
    disabled: notReached,
    signUp: notReached,
    identityLink: notReached,
    // Listed so the admin sees the provider has rules, each marked as not evaluated.
    claimRules: settings.claimRules.map((rule, index) => ({
      index,
      rule,
      evaluated: false,
      matched: false,
      selected: false,
      explanation: `Not evaluated: the test stopped at ${step}, before the claims were read.`,
    })),
    role: null,
    roleSource: null,
    warnings: [],
  };
}
