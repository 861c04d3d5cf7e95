import type { ClaimRule } from '@sc/contracts';
import { RE2JS } from 're2js';
import { claimRuleMatches, claimRuleProblem, compileClaimPattern, evaluateClaimRules, mergeClaims, overageWarnings, redactClaims, resolveClaim, stringClaim, subjectClaim } from './claims';

const claims = {
  sub: 'abc',
  email: 'Ada@Example.com',
  name: '',
  groups: ['eng', 'platform-admins'],
  realm_access: { roles: ['offline', 'sc-editor'] },
  'https://example.com/roles': ['architect'],
  orgs: [{ name: 'alpha' }, { name: 'beta' }],
  id: 42,
  nested: { deep: { value: 'x' } },
  nothing: null,
  empty: [],
};

const rule = (operator: ClaimRule['operator'], claim: string, value?: string): ClaimRule => ({ claim, operator, value, role: 'editor' });

describe('resolveClaim', () => {
  it('walks dot paths, namespaced names and arrays of objects', () => {
    expect(resolveClaim(claims, 'realm_access.roles')).toEqual(['offline', 'sc-editor']);
    expect(resolveClaim(claims, 'https://example.com/roles')).toEqual(['architect']);
    expect(resolveClaim(claims, 'orgs.name')).toEqual(['alpha', 'beta']);
    expect(resolveClaim(claims, 'nested.deep.value')).toBe('x');
    expect(resolveClaim(claims, 'nested.missing')).toBeUndefined();
    expect(resolveClaim(claims, 'email.length')).toBeUndefined();
  });

  it('reads strings and subjects strictly', () => {
    expect(stringClaim(claims, 'email')).toBe('Ada@Example.com');
    expect(stringClaim(claims, 'name')).toBeUndefined();
    expect(stringClaim(claims, 'groups')).toBeUndefined();
    expect(subjectClaim(claims, 'id')).toBe('42');
    expect(subjectClaim(claims, 'sub')).toBe('abc');
    expect(subjectClaim(claims, 'groups')).toBeUndefined();
  });
});

describe('claim rules', () => {
  it.each([
    [rule('equals', 'groups', 'eng'), true],
    [rule('equals', 'groups', 'en'), false],
    [rule('equals', 'id', '42'), true],
    [rule('notEquals', 'groups', 'eng'), false],
    [rule('notEquals', 'groups', 'ops'), true],
    [rule('notEquals', 'missing', 'ops'), false],
    [rule('contains', 'groups', 'admin'), true],
    [rule('startsWith', 'realm_access.roles', 'sc-'), true],
    [rule('endsWith', 'email', '@Example.com'), true],
    [rule('endsWith', 'email', '@example.com'), false],
    [rule('regex', 'groups', '^platform-(admins|owners)$'), true],
    [rule('regex', 'orgs.name', '^gam'), false],
    [rule('exists', 'https://example.com/roles'), true],
    [rule('exists', 'nothing'), false],
    [rule('exists', 'empty'), false],
    [rule('exists', 'missing'), false],
    [rule('equals', 'nothing', 'null'), false],
  ])('%j → %s', (r, expected) => {
    expect(claimRuleMatches(r, claims)).toBe(expected);
  });

  it('evaluates every rule and selects the first match', () => {
    const rules: ClaimRule[] = [
      { claim: 'groups', operator: 'equals', value: 'nobody', role: 'admin' },
      { claim: 'groups', operator: 'equals', value: 'eng', role: 'editor' },
      { claim: 'groups', operator: 'contains', value: 'admin', role: 'admin' },
    ];
    const { evaluations, selected } = evaluateClaimRules(rules, claims);
    expect(selected).toBe(rules[1]);
    expect(evaluations.map((e) => [e.matched, e.selected])).toEqual([[false, false], [true, true], [true, false]]);
    expect(evaluations[1].explanation).toContain('match → editor');
    expect(evaluations[1].explanation).not.toContain('platform-admins');
    expect(evaluateClaimRules([], claims).selected).toBeNull();
  });

  it('matches regex rules with the linear-time RE2 engine, so a catastrophic pattern cannot stall sign-in', () => {
    // JavaScript's backtracking engine needs about 2^28 steps (over a second) for this input; RE2 never backtracks.
    expect(compileClaimPattern('^(a+)+$')).toBeInstanceOf(RE2JS);
    const catastrophic = rule('regex', 'name', '^(a+)+$');
    expect(claimRuleMatches(catastrophic, { name: `${'a'.repeat(28)}!` })).toBe(false);
    expect(claimRuleMatches(catastrophic, { name: 'a'.repeat(28) })).toBe(true);
    expect(claimRuleMatches(rule('regex', 'groups', 'platform-\\w+'), claims)).toBe(true);
  });

  it('treats a stored pattern RE2 cannot run as no match, and says why', () => {
    // Saved before patterns were checked against RE2; JavaScript would match "eng" here.
    const legacy = rule('regex', 'groups', '(e)ng(?!x)');
    expect(claimRuleMatches(legacy, claims)).toBe(false);
    expect(evaluateClaimRules([legacy], claims).evaluations[0]?.explanation).toMatch(/^groups regex "\(e\)ng\(\?!x\)": no match, the rule's value uses lookaround .* Edit the rule\.$/);
  });

  it('checks rule values at save time', () => {
    expect(claimRuleProblem(rule('regex', 'groups', '(unclosed'))).toBe('value is not a regular expression RE2 accepts (error parsing regexp: missing closing ): `(unclosed`).');
    expect(claimRuleProblem(rule('regex', 'groups', '^(a)\\1$'))).toBe(
      'value uses a backreference (\\1 or \\k<name>), which claim-rule patterns do not support: they run on RE2, a linear-time engine, so that no pattern can stall sign-in.',
    );
    expect(claimRuleProblem(rule('regex', 'groups', '(?<=a)b'))).toMatch(/^value uses lookaround/);
    expect(claimRuleProblem(rule('regex', 'groups', 'admin(?=s)'))).toMatch(/^value uses lookaround/);
    expect(claimRuleProblem(rule('regex', 'groups', '^(a+)+$'))).toBeUndefined();
    expect(claimRuleProblem(rule('equals', 'groups'))).toMatch(/value is required/);
    expect(claimRuleProblem(rule('exists', 'groups', 'x'))).toMatch(/left out/);
    expect(claimRuleProblem(rule('exists', 'groups'))).toBeUndefined();
  });
});

describe('merging and redaction', () => {
  it('lets UserInfo win on duplicate names', () => {
    expect(mergeClaims({ sub: '1', email: 'id@x', acr: '1' }, { email: 'ui@x', name: 'N' })).toEqual({ sub: '1', email: 'ui@x', acr: '1', name: 'N' });
  });

  it('keeps names and kinds, never values', () => {
    const redacted = redactClaims(claims);
    expect(redacted).toMatchObject({ email: 'string', groups: 'array(2)', id: 'number', nothing: 'null', realm_access: 'object' });
    expect(JSON.stringify(redacted)).not.toContain('Ada');
  });

  it('reports overage indicators', () => {
    expect(overageWarnings({ _claim_names: { groups: 'src1' }, _claim_sources: {} })[0]).toMatch(/groups/);
    expect(overageWarnings({ hasgroups: true })).toHaveLength(1);
    expect(overageWarnings(claims)).toEqual([]);
  });
});
