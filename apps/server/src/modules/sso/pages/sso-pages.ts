import { SsoClaimRuleEvaluation, SsoErrorCode, SsoTestDecision, SsoTestReport, ssoErrorWording } from '@sc/contracts';
import type { StateRefusal } from '../../oauth-state/oauth-state.service';
import { escapeHtml } from '../../../common/http/html';

/**
 * The person clicked a sign-in button and came back from the provider: say which of the refusal reasons
 * happened (the state module reports it in the error's details) instead of one sentence for all of them.
 */
const STATE_REFUSAL_MESSAGES: Record<StateRefusal, string> = {
  consumed: 'This sign-in attempt was already used: each attempt can be finished only once, so reloading this page or coming back to it cannot complete it again.',
  expired: 'More than 10 minutes passed between starting the sign-in and coming back from the identity provider, so the attempt expired.',
  binding_missing: 'This browser did not start this sign-in attempt, or it did not keep the cookie that ties the attempt to it (another browser or private window, or cookies are blocked).',
  binding_mismatch: 'A newer sign-in was started in this browser after this one, so this older attempt can no longer be completed.',
  missing: 'The identity provider sent the browser back without the sign-in attempt\'s state, so it cannot be matched to a sign-in started here.',
  unknown: 'This sign-in attempt is not known here: the address may be incomplete, or copied from somewhere else.',
  other_organization: 'This sign-in attempt was started for another organization.',
  other_provider: 'This sign-in attempt was started with another sign-in provider.',
};


function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f5f6f8;color:#1f2328}
main{max-width:760px;margin:48px auto;background:#fff;border-radius:8px;padding:32px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.4rem;margin-top:0}h2{font-size:1rem;margin-top:24px}code{background:#eef0f3;padding:2px 6px;border-radius:4px}
table{border-collapse:collapse;width:100%;margin:8px 0 16px}td,th{border-bottom:1px solid #e3e5e8;padding:6px 8px;text-align:left;vertical-align:top;font-size:.92rem}
.pass{color:#1a7f37}.fail{color:#cf222e}.muted{color:#656d76}a.button{display:inline-block;margin:16px 12px 0 0;padding:8px 16px;background:#0969da;color:#fff;border-radius:6px;text-decoration:none}a.button.secondary{background:#fff;color:#0969da;border:1px solid #0969da}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f8fa;padding:8px;border-radius:6px;margin:0}
</style></head><body><main>${body}</main></body></html>`;
}

export interface ErrorPageInput {
  code: string;
  message: string;
  status: number;
  organizationId: string;
  /** The first detail's code: for invalid_or_expired_state, why the state was refused. */
  reason?: string;
}

/** The readable page a browser gets when a sign-in fails. */
export function renderErrorPage(input: ErrorPageInput): string {
  const { title, whatToDo: advice } = ssoErrorWording(input.code);
  // The sign-in page shows its own sentence for the code (never text from the URL).
  const back = `/orgs/${encodeURIComponent(input.organizationId)}/sign-in?error=${encodeURIComponent(input.code)}`;
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p data-error-message>${escapeHtml(errorPageMessage(input))}</p>
<h2>What to do</h2>
<p data-what-to-do>${escapeHtml(advice)}</p>
<p class="muted">Error code: <code data-error-code>${escapeHtml(input.code)}</code> (HTTP ${input.status})</p>
<a class="button" href="${escapeHtml(back)}">Back to sign-in</a>`,
  );
}

function errorPageMessage(input: ErrorPageInput): string {
  if (input.code === SsoErrorCode.InvalidOrExpiredState && input.reason && input.reason in STATE_REFUSAL_MESSAGES) {
    return STATE_REFUSAL_MESSAGES[input.reason as StateRefusal];
  }
  return input.message;
}

function decision(label: string, d: SsoTestDecision): string {
  const css = d.outcome === 'pass' ? 'pass' : d.outcome === 'fail' ? 'fail' : 'muted';
  return `<tr data-decision="${escapeHtml(label)}"><th>${escapeHtml(label)}</th><td class="${css}">${escapeHtml(d.outcome.replace('_', ' '))}</td><td>${escapeHtml(d.detail)}</td></tr>`;
}

/** Why the resulting role is what it is, in words (the report's roleSource is a code). */
function roleReason(report: SsoTestReport): string {
  switch (report.roleSource) {
    case 'claim_rule': {
      const rule = report.claimRules.find((r) => r.selected);
      return rule ? `claim rule ${rule.index + 1} matched` : 'a claim rule matched';
    }
    case 'default_role':
      return report.claimRules.length > 0 ? 'no claim rule matched, so the default role applies' : 'no claim rules are configured, so the default role applies';
    case 'manual_membership_unchanged':
      return 'this person\'s membership was created by hand (or is an owner\'s), and SSO never changes the role of such a membership';
    default:
      return '';
  }
}

function ruleStatus(rule: SsoClaimRuleEvaluation, report: SsoTestReport): { text: string; css: string } {
  if (!rule.evaluated) return { text: 'not evaluated', css: 'muted' };
  if (rule.selected) return { text: `selected → ${rule.rule.role}`, css: 'pass' };
  if (!rule.matched) return { text: 'no match', css: 'muted' };
  if (report.roleSource === 'manual_membership_unchanged') return { text: 'match, not applied', css: 'muted' };
  return { text: 'match, not used (an earlier rule decides)', css: 'muted' };
}

function claimRulesSection(report: SsoTestReport): string {
  if (report.claimRules.length === 0) return '<p class="muted" data-claim-rules-summary>No claim rules are configured.</p>';
  const rows = report.claimRules
    .map((r) => {
      const status = ruleStatus(r, report);
      const condition = `<code>${escapeHtml(r.rule.claim)}</code> ${escapeHtml(r.rule.operator)}${r.rule.value !== undefined ? ` ${escapeHtml(r.rule.value)}` : ''} → ${escapeHtml(r.rule.role)}`;
      return `<tr data-claim-rule="${r.index + 1}"><td>${r.index + 1}</td><td>${condition}</td><td class="${status.css}">${escapeHtml(status.text)}</td><td>${escapeHtml(r.explanation)}</td></tr>`;
    })
    .join('');
  const summary = report.claimRules.every((r) => !r.evaluated)
    ? `<p class="muted" data-claim-rules-summary>The claim rules were not evaluated: the test stopped at ${escapeHtml(report.failedStep ?? 'an earlier step')} (<code>${escapeHtml(report.errorCode ?? '')}</code>), before the claims were read.</p>`
    : '';
  return `${summary}<table>${rows}</table>`;
}

/** The test sign-in report: shown only to the administrator who started it; nothing was created. */
export function renderTestReport(report: SsoTestReport, organizationId: string): string {
  const claims = Object.entries(report.claims)
    .map(([name, value]) => `<tr><th><code>${escapeHtml(name)}</code></th><td><pre>${escapeHtml(JSON.stringify(value, null, 1))}</pre></td></tr>`)
    .join('');
  const outcome = report.ok
    ? `<p class="pass" data-outcome><strong>The sign-in would succeed</strong> with the role <code>${escapeHtml(report.role)}</code>: ${escapeHtml(roleReason(report))}.</p>`
    : `<p class="fail" data-outcome><strong>The sign-in would fail</strong> at ${escapeHtml(report.failedStep ?? 'an unknown step')}: <code data-error-code>${escapeHtml(report.errorCode)}</code> — ${escapeHtml(report.errorMessage)}</p>`;
  const providerPage = `/orgs/${encodeURIComponent(organizationId)}/settings/sso/${encodeURIComponent(report.providerSlug)}`;
  return layout(
    `Test sign-in: ${report.providerSlug}`,
    `<h1>Test sign-in report: ${escapeHtml(report.providerSlug)}</h1>
<p class="muted">Nothing was created: no user, membership, identity link or session. Provider tokens are never shown.</p>
${outcome}
<h2>Decisions</h2>
<table>
<tr><th>Email</th><td>${escapeHtml(report.email.value ?? '(none)')}</td><td>claim <code>${escapeHtml(report.email.claim)}</code></td></tr>
<tr><th>Name</th><td>${escapeHtml(report.name.value ?? '(none)')}</td><td>claim <code>${escapeHtml(report.name.claim)}</code>${report.name.fallbackToEmail ? ' — the email is used as display name' : ''}</td></tr>
<tr><th>Subject</th><td>${escapeHtml(report.subject.value ?? '(none)')}</td><td>claim <code>${escapeHtml(report.subject.claim)}</code></td></tr>
<tr><th>${report.claimSources.assertion.length > 0 ? 'Signature' : 'ID token'}</th><td colspan="2">${escapeHtml(report.idTokenVerification ?? 'none returned')}</td></tr>
${decision('Allowed domains', report.domain)}${decision('Disabled', report.disabled)}${decision('Sign-up', report.signUp)}${decision('Identity link', report.identityLink)}
</table>
<h2>Claim rules (in order)</h2>
${claimRulesSection(report)}
${report.warnings.length ? `<h2>Warnings</h2><ul>${report.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>` : ''}
<h2>Merged claims</h2>
${claimSourcesLine(report)}
<table>${claims || '<tr><td class="muted">No claims (the test stopped before they were read).</td></tr>'}</table>
<a class="button" href="${escapeHtml(`${providerPage}?tab=configuration`)}">Run the test again</a>
<a class="button secondary" href="${escapeHtml(providerPage)}">Back to SSO settings</a>
<p class="muted">Run the test again opens this provider's Configuration tab, where Test sign-in starts a new test.</p>`,
  );
}

/** Where the claims came from: the SAML assertion's attributes, or the ID token and UserInfo. */
function claimSourcesLine(report: SsoTestReport): string {
  const sources = report.claimSources;
  if (sources.assertion.length > 0) return `<p class="muted">SAML assertion attributes: ${escapeHtml(sources.assertion.join(', '))}; the subject is the NameID (claim nameID).</p>`;
  return `<p class="muted">ID token: ${escapeHtml(sources.idToken.join(', ') || 'none')}. UserInfo: ${escapeHtml(sources.userinfo.join(', ') || 'none')}.${sources.githubEmails ? ' Email from the GitHub emails endpoint.' : ''} UserInfo wins on duplicate names.</p>`;
}
