import { SsoErrorCode, SsoTestDecision, SsoTestReport } from '@sc/contracts';

/** What a person can do about each callback failure; shown under the error's own message. */
const WHAT_TO_DO: Partial<Record<string, string>> = {
  [SsoErrorCode.InvalidOrExpiredState]: 'Go back to the sign-in page and start again. A sign-in works once, within 10 minutes, in the browser where it started.',
  [SsoErrorCode.ProviderError]: 'If you cancelled at the provider, simply start again. Otherwise ask your administrator to check the application registered at the identity provider.',
  [SsoErrorCode.MissingCode]: 'Start the sign-in again from the sign-in page.',
  [SsoErrorCode.TokenExchangeFailed]: 'Ask an administrator to check the provider settings: client ID, client secret, and that the client uses client_secret_post. The callback URL registered at the provider must equal the one shown in the SSO settings.',
  [SsoErrorCode.InvalidIdToken]: 'Try again. If it keeps failing, an administrator should check the provider\'s issuer and JWKS settings (discovery fills them).',
  [SsoErrorCode.UserinfoFailed]: 'Try again. If it keeps failing, an administrator should check the UserInfo URL and the scopes.',
  [SsoErrorCode.SubjectMismatch]: 'Sign in again. If it keeps failing, an administrator should check the provider configuration.',
  [SsoErrorCode.NoEmail]: 'Make sure your account at the provider has a visible, confirmed email address, or ask an administrator to check the email scope and the Email claim setting.',
  [SsoErrorCode.NoSubject]: 'Ask an administrator to check the Subject claim setting of this provider.',
  [SsoErrorCode.EmailDomainNotAllowed]: 'Sign in with an account from one of the organization\'s allowed email domains.',
  [SsoErrorCode.AccountDisabled]: 'Contact an administrator of the organization to re-enable your account.',
  [SsoErrorCode.SignupDisabled]: 'Ask an administrator to add you to the organization, then sign in again.',
  [SsoErrorCode.IdentityConflict]: 'Contact an administrator: your account is linked to another identity at this provider.',
  [SsoErrorCode.ProviderNotFound]: 'Go back to the sign-in page and choose one of the listed providers.',
  [SsoErrorCode.ProviderDisabled]: 'Use another sign-in option, or ask an administrator to turn this provider on.',
  [SsoErrorCode.ClientSecretUnreadable]: 'An administrator must enter the provider\'s client secret again in the SSO settings.',
};

const TITLES: Partial<Record<string, string>> = {
  [SsoErrorCode.InvalidOrExpiredState]: 'This sign-in link is no longer valid',
  [SsoErrorCode.EmailDomainNotAllowed]: 'This email domain is not allowed',
  [SsoErrorCode.AccountDisabled]: 'Your account is disabled',
  [SsoErrorCode.SignupDisabled]: 'You are not a member yet',
  [SsoErrorCode.NoEmail]: 'The provider returned no email address',
};

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f5f6f8;color:#1f2328}
main{max-width:760px;margin:48px auto;background:#fff;border-radius:8px;padding:32px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.4rem;margin-top:0}code{background:#eef0f3;padding:2px 6px;border-radius:4px}
table{border-collapse:collapse;width:100%;margin:8px 0 16px}td,th{border-bottom:1px solid #e3e5e8;padding:6px 8px;text-align:left;vertical-align:top;font-size:.92rem}
.pass{color:#1a7f37}.fail{color:#cf222e}.muted{color:#656d76}a.button{display:inline-block;margin-top:16px;padding:8px 16px;background:#0969da;color:#fff;border-radius:6px;text-decoration:none}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f8fa;padding:8px;border-radius:6px;margin:0}
</style></head><body><main>${body}</main></body></html>`;
}

/** The readable page a browser gets when a sign-in fails. */
export function renderErrorPage(input: { code: string; message: string; status: number; organizationId: string }): string {
  const title = TITLES[input.code] ?? 'Sign-in failed';
  const advice = WHAT_TO_DO[input.code] ?? 'Start the sign-in again. If it keeps failing, contact an administrator and mention the code below.';
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(input.message)}</p>
<h2 style="font-size:1rem">What to do</h2>
<p>${escapeHtml(advice)}</p>
<p class="muted">Error code: <code data-error-code>${escapeHtml(input.code)}</code> (HTTP ${input.status})</p>
<a class="button" href="/orgs/${encodeURIComponent(input.organizationId)}/sign-in">Back to sign-in</a>`,
  );
}

function decision(label: string, d: SsoTestDecision): string {
  const css = d.outcome === 'pass' ? 'pass' : d.outcome === 'fail' ? 'fail' : 'muted';
  return `<tr><th>${escapeHtml(label)}</th><td class="${css}">${escapeHtml(d.outcome.replace('_', ' '))}</td><td>${escapeHtml(d.detail)}</td></tr>`;
}

/** The test sign-in report: shown only to the administrator who started it; nothing was created. */
export function renderTestReport(report: SsoTestReport, organizationId: string): string {
  const claims = Object.entries(report.claims)
    .map(([name, value]) => `<tr><th><code>${escapeHtml(name)}</code></th><td><pre>${escapeHtml(JSON.stringify(value, null, 1))}</pre></td></tr>`)
    .join('');
  const rules = report.claimRules
    .map((r) => `<tr><td>${r.index + 1}</td><td><code>${escapeHtml(r.rule.claim)}</code> ${escapeHtml(r.rule.operator)} ${escapeHtml(r.rule.value ?? '')} → ${escapeHtml(r.rule.role)}</td><td class="${r.matched ? 'pass' : 'muted'}">${r.selected ? 'selected' : r.matched ? 'match' : 'no match'}</td><td>${escapeHtml(r.explanation)}</td></tr>`)
    .join('');
  const outcome = report.ok
    ? `<p class="pass"><strong>The sign-in would succeed</strong> with the role <code>${escapeHtml(report.role)}</code> (${escapeHtml(report.roleSource ?? '')}).</p>`
    : `<p class="fail"><strong>The sign-in would fail:</strong> <code data-error-code>${escapeHtml(report.errorCode)}</code> — ${escapeHtml(report.errorMessage)}</p>`;
  return layout(
    `Test sign-in: ${report.providerSlug}`,
    `<h1>Test sign-in report: ${escapeHtml(report.providerSlug)}</h1>
<p class="muted">Nothing was created: no user, membership or session. Provider tokens are never shown.</p>
${outcome}
<h2 style="font-size:1rem">Decisions</h2>
<table>
<tr><th>Email</th><td>${escapeHtml(report.email.value ?? '(none)')}</td><td>claim <code>${escapeHtml(report.email.claim)}</code></td></tr>
<tr><th>Name</th><td>${escapeHtml(report.name.value ?? '(none)')}</td><td>claim <code>${escapeHtml(report.name.claim)}</code>${report.name.fallbackToEmail ? ' — the email is used as display name' : ''}</td></tr>
<tr><th>Subject</th><td>${escapeHtml(report.subject.value ?? '(none)')}</td><td>claim <code>${escapeHtml(report.subject.claim)}</code></td></tr>
<tr><th>ID token</th><td colspan="2">${escapeHtml(report.idTokenVerification ?? 'none returned')}</td></tr>
${decision('Allowed domains', report.domain)}${decision('Disabled', report.disabled)}${decision('Sign-up', report.signUp)}${decision('Identity link', report.identityLink)}
</table>
<h2 style="font-size:1rem">Claim rules (in order)</h2>
${rules ? `<table>${rules}</table>` : '<p class="muted">No claim rules: the default role applies.</p>'}
${report.warnings.length ? `<h2 style="font-size:1rem">Warnings</h2><ul>${report.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>` : ''}
<h2 style="font-size:1rem">Merged claims</h2>
<p class="muted">ID token: ${escapeHtml(report.claimSources.idToken.join(', ') || 'none')}. UserInfo: ${escapeHtml(report.claimSources.userinfo.join(', ') || 'none')}.${report.claimSources.githubEmails ? ' Email from the GitHub emails endpoint.' : ''} UserInfo wins on duplicate names.</p>
<table>${claims || '<tr><td class="muted">No claims (the sign-in failed before they were read).</td></tr>'}</table>
<a class="button" href="/orgs/${encodeURIComponent(organizationId)}/settings/sso">Back to SSO settings</a>`,
  );
}
