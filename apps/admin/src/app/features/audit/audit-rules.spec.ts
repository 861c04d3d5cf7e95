import type { AuditEntry } from '@sc/contracts';
import { EMPTY_FILTER, actorLabel, changeLines, toAuditFilter } from './audit-rules';

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

  it('lists created, changed and deleted fields', () => {
    expect(changeLines(base)).toEqual(['role: viewer', 'disabled: false']);
    expect(changeLines({ ...base, before: { role: 'viewer' }, after: { role: 'admin' } })).toEqual(['role: viewer → admin']);
    expect(changeLines({ ...base, before: { scopes: ['read'] }, after: null })).toEqual(['scopes: ["read"]']);
    expect(changeLines({ ...base, before: { revokedAt: null }, after: { revokedAt: '2026-01-01T00:00:00.000Z' } })).toEqual(['revokedAt: — → 2026-01-01T00:00:00.000Z']);
  });
});
