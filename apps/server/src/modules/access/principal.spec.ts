// The server always runs with reflect-metadata loaded (main.ts); some contracts classes need it at declaration.
import 'reflect-metadata';
import { ROLE_RANK, type Role } from '@sc/contracts';
import { effectiveRank, type Principal } from './principal';

const token = (scopes: ('sync' | 'read' | 'admin')[], creatorRole: Role | null = null): Principal => ({
  kind: 'token',
  organizationId: 'acme',
  scopes,
  tokenId: 't',
  tokenPrefix: 'sct_abcdefgh',
  tokenName: 'ci',
  creatorEmail: null,
  clientAddress: null,
  createdByUserId: creatorRole ? 'u' : null,
  creatorRole,
});

describe('effectiveRank', () => {
  it('is the role for sessions', () => {
    expect(effectiveRank({ kind: 'session', organizationId: 'acme', userId: 'u', role: 'editor', sessionId: 's', clientAddress: null }, 'POST')).toBe(ROLE_RANK.editor);
  });

  it('maps token scopes: admin → admin, read → viewer on safe methods only, sync → nothing', () => {
    expect(effectiveRank(token(['admin']), 'DELETE')).toBe(ROLE_RANK.admin);
    expect(effectiveRank(token(['read']), 'GET')).toBe(ROLE_RANK.viewer);
    expect(effectiveRank(token(['read']), 'POST')).toBe(0);
    expect(effectiveRank(token(['sync']), 'GET')).toBe(0);
    expect(effectiveRank(token(['read', 'sync']), 'HEAD')).toBe(ROLE_RANK.viewer);
  });

  it("never exceeds the creator's current role", () => {
    expect(effectiveRank(token(['admin'], 'owner'), 'POST')).toBe(ROLE_RANK.admin);
    expect(effectiveRank(token(['admin'], 'editor'), 'POST')).toBe(ROLE_RANK.editor);
    expect(effectiveRank(token(['admin'], 'viewer'), 'GET')).toBe(ROLE_RANK.viewer);
    expect(effectiveRank(token(['read'], 'viewer'), 'GET')).toBe(ROLE_RANK.viewer);
  });
});
