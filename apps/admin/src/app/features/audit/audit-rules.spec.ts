import type { AuditEntry } from '@sc/contracts';
import { EMPTY_FILTER, actorLabel, changeLines, formFromParams, paramsFromForm, toAuditFilter } from './audit-rules';

const base: AuditEntry = {
  id: 'e',
  createdAt: '2026-01-01T00:00:00Z',
  action: 'member.added',
  actor: { type: 'user', userId: 'u1', email: 'ann@acme.test', tokenId: null, tokenPrefix: null },
  target: { type: 'member', id: 'u2', label: 'bob@acme.test' },
  before: null,
  after: { role: 'viewer', disabled: false },
  ipAddress: null,
};

describe('audit rules', () => {
  it('turns the form into API filters: trimmed text, whole days with the last day included', () => {
    expect(toAuditFilter(EMPTY_FILTER)).toEqual({});
    expect(toAuditFilter({ action: 'token.revoked', actor: ' ann@acme.test ', target: '', fromDay: '2026-03-01', toDay: '2026-03-01' })).toEqual({
      action: 'token.revoked',
      actor: 'ann@acme.test',
      from: new Date(2026, 2, 1).toISOString(),
      to: new Date(2026, 2, 2).toISOString(),
    });
  });

  it('names the actor as a person reads it', () => {
    expect(actorLabel(base)).toBe('ann@acme.test');
    expect(actorLabel({ ...base, actor: { ...base.actor, type: 'sso' } })).toBe('ann@acme.test via SSO sign-in');
    expect(actorLabel({ ...base, actor: { ...base.actor, type: 'setup' } })).toBe('ann@acme.test via first-run setup');
    expect(actorLabel({ ...base, actor: { ...base.actor, type: 'host' } })).toBe('sign-in-link command on the server host, for ann@acme.test');
    expect(actorLabel({ ...base, actor: { type: 'token', userId: null, email: null, tokenId: 't1', tokenPrefix: 'sct_ab12cd34' } })).toBe('API token sct_ab12cd34');
  });

  it('lists created, changed and deleted fields in words: field: before → after', () => {
    expect(changeLines(base)).toEqual(['Role: viewer', 'Disabled: no']);
    expect(changeLines({ ...base, before: { role: 'viewer' }, after: { role: 'admin' } })).toEqual(['Role: viewer → admin']);
    expect(changeLines({ ...base, before: { scopes: ['read', 'sync'] }, after: null })).toEqual(['Scopes: read, sync']);
    expect(changeLines({ ...base, before: { revokedAt: null }, after: { revokedAt: '2026-01-01T00:00:00.000Z' } })).toEqual(['Revoked: — → 2026-01-01 00:00:00 UTC']);
    expect(changeLines({ ...base, before: { allowSignUp: false, allowedDomains: [] }, after: { allowSignUp: true, allowedDomains: ['acme.test'] } })).toEqual([
      'Sign-up allowed: no → yes',
      'Allowed domains: none → acme.test',
    ]);
  });

  it('shows names instead of user ids where the member is known', () => {
    const nameOf = (id: string) => ({ u1: 'Ann', u9: 'Olga' })[id] ?? null;
    expect(actorLabel(base, nameOf)).toBe('Ann (ann@acme.test)');
    const tokenCreated = { ...base, action: 'token.created' as const, after: { name: 'deploy', createdByUserId: 'u9' } };
    expect(changeLines(tokenCreated, nameOf)).toEqual(['Name: deploy', 'Created by: Olga']);
    // An id nobody knows stays as it is; a field that is no user id is never replaced.
    expect(changeLines({ ...tokenCreated, after: { createdByUserId: 'u-gone', name: 'u9' } }, nameOf)).toEqual(['Created by: u-gone', 'Name: u9']);
  });

  it('reads a sync as who, which token and where from', () => {
    const synced: AuditEntry = {
      ...base,
      action: 'service.synced',
      actor: { type: 'token', userId: 'u1', email: 'ann@acme.test', tokenId: 't1', tokenPrefix: 'sct_ab12cd34' },
      target: { type: 'service', id: 's1', label: 'orders' },
      // In the database's key order; shown revision and outcome first, empty fields of the new entry left out.
      after: { branch: 'main', commit: 'a1b2c3d', status: 'created', revision: 3, ciRunUrl: 'https://ci.example/runs/9', tokenName: 'orders CI', repositoryUrl: null },
    };
    expect(actorLabel(synced, () => 'Ann')).toBe('API token “orders CI” sct_ab12cd34 (created by Ann)');
    expect(changeLines(synced)).toEqual(['Revision: 3', 'Status: created', 'Token: orders CI', 'Commit: a1b2c3d', 'Branch: main', 'CI run: https://ci.example/runs/9']);
  });

  it('keeps the filters in the URL: read back into the form, unknown values ignored', () => {
    const form = { action: 'member.added', actor: ' ann ', target: 'ord', fromDay: '2026-03-01', toDay: '' };
    expect(paramsFromForm(form)).toEqual({ action: 'member.added', actor: 'ann', target: 'ord', from: '2026-03-01', to: null });
    expect(formFromParams({ action: 'member.added', actor: 'ann', target: 'ord', from: '2026-03-01' })).toEqual({ ...form, actor: 'ann' });
    expect(formFromParams({ action: 'nope', from: 'yesterday' })).toEqual(EMPTY_FILTER);
  });
});
