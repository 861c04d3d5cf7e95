import type { ClaimRule, SsoClaimRuleEvaluation } from '@sc/contracts';
import { RE2JS } from 're2js';

export type Claims = Record<string, unknown>;

/** The longest string a rule looks at; longer values never match (keeps admin regexes cheap). */
const MAX_MATCHED_VALUE_LENGTH = 2048;

/** ID-token claims first, UserInfo on top: UserInfo wins on duplicate names (callback rule 3). */
export function mergeClaims(idTokenClaims: Claims | undefined, userinfoClaims: Claims): Claims {
  return { ...(idTokenClaims ?? {}), ...userinfoClaims };
}

/**
 * Resolves a dot path in the claims. At each level the longest key that exists wins, so namespaced claim
 * names containing dots (`https://example.com/roles`) resolve as a whole while `realm_access.roles` walks
 * into objects. Walking through an array applies the rest of the path to each element and flattens.
 */
export function resolveClaim(claims: unknown, path: string): unknown {
  return resolveParts(claims, path.split('.'));
}

function resolveParts(value: unknown, parts: string[]): unknown {
  if (parts.length === 0) return value;
  if (Array.isArray(value)) {
    const resolved = value.map((element) => resolveParts(element, parts)).filter((v) => v !== undefined && v !== null);
    return resolved.length > 0 ? resolved.flat() : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  for (let take = parts.length; take >= 1; take--) {
    const key = parts.slice(0, take).join('.');
    if (Object.prototype.hasOwnProperty.call(record, key)) {
      const found = resolveParts(record[key], parts.slice(take));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** A string claim, or undefined when the path does not resolve to one (an empty string counts as absent). */
export function stringClaim(claims: Claims, path: string): string | undefined {
  const value = resolveClaim(claims, path);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Subjects are identifiers; some providers (GitHub's `id`) send numbers. */
export function subjectClaim(claims: Claims, path: string): string | undefined {
  const value = resolveClaim(claims, path);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The scalar values a rule compares against: arrays are flattened element by element, null dropped. */
function comparableValues(value: unknown): string[] {
  const values = Array.isArray(value) ? value.flat(Infinity) : [value];
  return values
    .filter((v): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
    .map(String)
    .filter((v) => v.length <= MAX_MATCHED_VALUE_LENGTH);
}

function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  return !Array.isArray(value) || value.length > 0;
}

export function claimRuleMatches(rule: ClaimRule, claims: Claims): boolean {
  const value = resolveClaim(claims, rule.claim);
  if (rule.operator === 'exists') return isPresent(value);
  if (!isPresent(value)) return false;
  const expected = rule.value ?? '';
  const values = comparableValues(value);
  switch (rule.operator) {
    case 'equals':
      return values.includes(expected);
    case 'notEquals':
      return !values.includes(expected);
    case 'contains':
      return values.some((v) => v.includes(expected));
    case 'startsWith':
      return values.some((v) => v.startsWith(expected));
    case 'endsWith':
      return values.some((v) => v.endsWith(expected));
    case 'regex': {
      // A pattern saved before patterns were checked against RE2 may not compile: it matches nothing (explainRule says why).
      const pattern = compileOrUndefined(expected);
      return pattern !== undefined && values.some((v) => pattern.test(v));
    }
  }
}

/** Evaluates every rule in order (the test report shows all of them); the first match selects the role. */
export function evaluateClaimRules(rules: readonly ClaimRule[], claims: Claims): { evaluations: SsoClaimRuleEvaluation[]; selected: ClaimRule | null } {
  let selected: ClaimRule | null = null;
  const evaluations = rules.map((rule, index) => {
    const matched = claimRuleMatches(rule, claims);
    const isSelected = matched && selected === null;
    if (isSelected) selected = rule;
    return { index, rule, evaluated: true, matched, selected: isSelected, explanation: explainRule(rule, claims, matched) };
  });
  return { evaluations, selected };
}

function explainRule(rule: ClaimRule, claims: Claims, matched: boolean): string {
  const value = resolveClaim(claims, rule.claim);
  const shape = describeValue(value);
  const condition = rule.operator === 'exists' ? `${rule.claim} exists` : `${rule.claim} ${rule.operator} "${rule.value ?? ''}"`;
  const patternProblem = rule.operator === 'regex' ? regexProblem(rule.value ?? '') : undefined;
  if (patternProblem) return `${condition}: no match, the rule's ${patternProblem} Edit the rule.`;
  if (!isPresent(value) && rule.operator !== 'exists') return `${condition}: no match, the claim is missing (${shape}).`;
  return `${condition}: ${matched ? `match → ${rule.role}` : 'no match'} (claim is ${shape}).`;
}

/** A value's kind without its content, for audit entries and explanations: `string`, `array(3)`, `null`… */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array(${value.length})`;
  return typeof value;
}

/** Claim names with the kind of their values: what the audit log keeps instead of values. */
export function redactClaims(claims: Claims): Record<string, string> {
  return Object.fromEntries(Object.keys(claims).sort().map((name) => [name, describeValue(claims[name])]));
}

/**
 * Directory providers replace a large groups claim with an overage indicator (`_claim_names` /
 * `_claim_sources`, or Entra's `hasgroups`). The service does not follow those links (rule 13); it says so.
 */
export function overageWarnings(claims: Claims): string[] {
  const warnings: string[] = [];
  const names = claims['_claim_names'];
  if (names && typeof names === 'object') {
    const replaced = Object.keys(names as Record<string, unknown>);
    warnings.push(`Group overage: the provider replaced ${replaced.join(', ') || 'a claim'} with a link (_claim_names) that the service does not follow; rules on ${replaced.join(', ') || 'it'} cannot match.`);
  }
  if (claims['hasgroups'] === true || claims['hasgroups'] === 'true') {
    warnings.push('Group overage: the provider sent hasgroups instead of the groups claim; rules on groups cannot match.');
  }
  return warnings;
}

/** Checks a rule's value once at save time so sign-in never meets an invalid pattern. */
export function claimRuleProblem(rule: ClaimRule): string | undefined {
  if (rule.operator === 'exists') {
    return rule.value !== undefined && rule.value !== '' ? 'value must be left out for the exists operator' : undefined;
  }
  if (rule.value === undefined || rule.value === '') return `value is required for the ${rule.operator} operator`;
  if (rule.operator === 'regex') return regexProblem(rule.value);
  return undefined;
}

/**
 * Claim-rule patterns run on RE2 (re2js, a pure-JavaScript port): matching takes time linear in the claim's
 * length whatever the pattern, so no rule an admin saves can stall sign-in. JavaScript's own backtracking engine
 * takes exponential time on patterns such as `^(a+)+$`. RE2 syntax is JavaScript's without backreferences and
 * lookaround (the two features that need backtracking).
 */
export function compileClaimPattern(pattern: string): RE2JS {
  return RE2JS.compile(pattern);
}

function compileOrUndefined(pattern: string): RE2JS | undefined {
  try {
    return compileClaimPattern(pattern);
  } catch {
    return undefined;
  }
}

/** Why RE2 cannot run `pattern`, as the end of a sentence starting with "value", or undefined when it can. */
function regexProblem(pattern: string): string | undefined {
  try {
    compileClaimPattern(pattern);
    return undefined;
  } catch (error) {
    const feature = /\\[1-9]|\\k</.test(pattern)
      ? 'a backreference (\\1 or \\k<name>)'
      : /\(\?<?[=!]/.test(pattern)
        ? 'lookaround ((?=…), (?!…), (?<=…) or (?<!…))'
        : undefined;
    if (feature) {
      return `value uses ${feature}, which claim-rule patterns do not support: they run on RE2, a linear-time engine, so that no pattern can stall sign-in.`;
    }
    return `value is not a regular expression RE2 accepts (${(error as Error).message}).`;
  }
}
