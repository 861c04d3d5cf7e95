import type { ClaimRule } from '@sc/contracts';
import type { Membership } from '../../members/membership.entity';
import type { User } from '../../users/user.entity';
import { evaluateSignIn, SignInLookups } from '../domain/sign-in-decision';
import type { SsoProvider } from '../entities/sso-provider.entity';
import type { ProviderIdentity } from '../passport/org-sso.strategy';
import { ssoError, SsoErrorCode } from '../sso.errors';
import { failedReport, testReport } from '../sso-test-report';
import { renderErrorPage, renderTestReport } from './sso-pages';

const rules: ClaimRule[] = [{ claim: 'groups', operator: 'equals', value: 'editors', role: 'editor' }];
const provider = {
  entity: { id: 'p1', slug: 'corp', emailClaim: 'email', nameClaim: 'name', subjectClaim: 'sub', allowedDomains: [], allowSignUp: true, defaultRole: 'viewer', claimRules: rules } as unknown as SsoProvider,
};
const nobody: SignInLookups = { user: null, membership: null, linkBySubject: null, linkByUser: null };

function identity(claims: Record<string, unknown>): ProviderIdentity {
  return {
    kind: 'identity',
    state: {} as ProviderIdentity['state'],
    claims,
    idTokenClaimNames: ['sub'],
    userinfoClaimNames: Object.keys(claims),
    githubEmailsUsed: false,
    idTokenCheck: 'aud, exp and nonce verified',
    warnings: [],
  };
}

async function passingReport(claims: Record<string, unknown>, found: Partial<SignInLookups>) {
  const evaluation = await evaluateSignIn(provider.entity, claims, async () => ({ ...nobody, ...found }));
  return testReport('corp', provider, identity(claims), evaluation, []);
}

/** The text a person reads: tags dropped, entities decoded, whitespace collapsed. */
function visibleText(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('test sign-in report page', () => {
  it('says the claim rules were not evaluated when the test stopped before the claims were read', () => {
    const report = failedReport('corp', provider, ssoError(SsoErrorCode.TokenExchangeFailed, 'The token endpoint refused the code exchange: invalid_client.'));
    expect(report.failedStep).toBe('the token exchange');
    expect(report.claimRules).toEqual([expect.objectContaining({ index: 0, evaluated: false, matched: false, selected: false })]);
    expect(report.domain.detail).toBe('Not reached: the test stopped at the token exchange.');

    const text = visibleText(renderTestReport(report, 'acme'));
    expect(text).toContain('The claim rules were not evaluated: the test stopped at the token exchange ( token_exchange_failed ), before the claims were read.');
    expect(text).toContain('The sign-in would fail at the token exchange:');
    expect(text).toMatch(/groups equals editors → editor not evaluated/);
    expect(text).not.toContain('No claim rules');
    expect(text).not.toContain('default role applies');
  });

  it('says so when a provider has no claim rules at all', () => {
    const bare = { entity: { ...provider.entity, claimRules: [] } as unknown as SsoProvider };
    const text = visibleText(renderTestReport(failedReport('corp', bare, ssoError(SsoErrorCode.UserinfoFailed, 'UserInfo failed.')), 'acme'));
    expect(text).toContain('No claim rules are configured.');
    expect(text).toContain('at the UserInfo call');
  });

  it('explains that a manual membership (an owner) keeps its role although a rule matched, without raw codes', async () => {
    const owner = { id: 'u1', email: 'olga@acme.test', disabled: false } as User;
    const membership = { id: 'm1', organizationId: 'acme', userId: 'u1', role: 'owner', source: 'manual', disabled: false } as Membership;
    const report = await passingReport({ sub: 'olga', email: 'olga@acme.test', groups: ['editors'] }, { user: owner, membership });
    expect(report).toMatchObject({ ok: true, role: 'owner', roleSource: 'manual_membership_unchanged' });
    expect(report.claimRules[0]).toMatchObject({ matched: true, selected: false });

    const html = renderTestReport(report, 'acme');
    const text = visibleText(html);
    expect(text).toContain("The sign-in would succeed with the role owner : this person's membership was created by hand (or is an owner's), and SSO never changes the role of such a membership.");
    expect(text).not.toContain('manual_membership_unchanged');
    expect(text).not.toContain('selected → editor');
    expect(text).toContain('match, not applied');
    expect(text).toContain("Not applied: the membership was created by hand (or is an owner's) and keeps its role.");
  });

  it('words the identity link and sign-up as what a sign-in would do: a test stores nothing', async () => {
    const report = await passingReport({ sub: 'nina', email: 'nina@acme.test', groups: ['editors'] }, {});
    const text = visibleText(renderTestReport(report, 'acme'));
    expect(text).toContain('Identity link pass No identity link yet; a sign-in would store one for this subject.');
    expect(text).toContain('Sign-up is on: this person would become a member of this organization.');
    expect(text).not.toMatch(/link is stored|are created\./);
    expect(text).toContain('The sign-in would succeed with the role editor : claim rule 1 matched.');
    expect(text).toContain('selected → editor');
  });

  it('names the default role and why it applies', async () => {
    const report = await passingReport({ sub: 'bob', email: 'bob@acme.test', groups: [] }, {});
    expect(visibleText(renderTestReport(report, 'acme'))).toContain('with the role viewer : no claim rule matched, so the default role applies.');
  });

  it('links back to the provider page and offers to run the test again', async () => {
    const html = renderTestReport(await passingReport({ sub: 'bob', email: 'bob@acme.test' }, {}), 'acme');
    expect(html).toContain('<a class="button" href="/orgs/acme/settings/sso/corp?tab=configuration">Run the test again</a>');
    expect(html).toContain('<a class="button secondary" href="/orgs/acme/settings/sso/corp">Back to SSO settings</a>');
    expect(html).not.toMatch(/<script/i);
  });

  it('escapes everything that comes from the provider or the configuration', async () => {
    const claims = { sub: '<b>s</b>', email: 'x@acme.test', name: '<img src=x onerror=alert(1)>', 'evil"claim': '</td><script>alert(1)</script>' };
    const report = await passingReport(claims, {});
    const html = renderTestReport({ ...report, providerSlug: 'a"b<c' }, 'acme"><script>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>s</b>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('href="/orgs/acme%22%3E%3Cscript%3E/settings/sso/a%22b%3Cc"');
  });
});

describe('sign-in error page', () => {
  const page = (input: Partial<Parameters<typeof renderErrorPage>[0]>) =>
    renderErrorPage({ code: 'invalid_or_expired_state', message: 'This sign-in attempt cannot be completed.', status: 400, organizationId: 'acme', ...input });
  const part = (html: string, attribute: string) => visibleText(html.match(new RegExp(`<p ${attribute}>([\\s\\S]*?)</p>`))?.[1] ?? '');

  it('explains a replayed state with a title, message and advice that say different things', () => {
    const html = page({ reason: 'consumed' });
    const title = visibleText(html.match(/<h1>(.*?)<\/h1>/)?.[1] ?? '');
    const message = part(html, 'data-error-message');
    const advice = part(html, 'data-what-to-do');
    expect(title).toBe('This sign-in cannot be completed');
    expect(message).toMatch(/^This sign-in attempt was already used: each attempt can be finished only once/);
    expect(advice).toMatch(/^Start a new sign-in from the sign-in page/);
    expect(html).not.toContain('link is no longer valid');
    // No sentence of the message is repeated as advice.
    for (const sentence of message.split(/(?<=\.) /)) expect(advice).not.toContain(sentence);
  });

  it.each([
    ['expired', /More than 10 minutes passed/],
    ['binding_missing', /did not start this sign-in attempt/],
    ['binding_mismatch', /A newer sign-in was started/],
    ['unknown', /not known here/],
  ])('says why a state was refused (%s)', (reason, expected) => {
    expect(part(page({ reason }), 'data-error-message')).toMatch(expected);
  });

  it('falls back to the error message for other codes and unknown reasons', () => {
    expect(part(page({ reason: 'something-new' }), 'data-error-message')).toBe('This sign-in attempt cannot be completed.');
    const html = page({ code: 'no_email', message: 'No "email" claim <here>.', reason: 'consumed' });
    expect(part(html, 'data-error-message')).toBe('No "email" claim <here>.');
    expect(html).toContain('No &quot;email&quot; claim &lt;here&gt;.');
  });

  it('sends the person back to the sign-in page with the code, escaped', () => {
    expect(page({ code: 'email_domain_not_allowed' })).toContain('<a class="button" href="/orgs/acme/sign-in?error=email_domain_not_allowed">Back to sign-in</a>');
    const hostile = page({ code: 'x"><script>', organizationId: 'a b' });
    expect(hostile).toContain('href="/orgs/a%20b/sign-in?error=x%22%3E%3Cscript%3E"');
    expect(hostile).not.toContain('<script');
  });
});
