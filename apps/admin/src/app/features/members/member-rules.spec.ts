import type { MemberResponse, Role } from '@sc/contracts';
import { assignableRoles, sortMembers } from './member-rules';

function member(displayName: string, role: Role): MemberResponse {
  return {
    userId: displayName,
    email: `${displayName.toLowerCase()}@example.com`,
    displayName,
    role,
    source: 'manual',
    disabled: false,
    userDisabled: false,
    addedBy: { kind: 'unknown' },
    createdAt: '2026-01-01T00:00:00Z',
  };
}

describe('assignableRoles', () => {
  it('lets an owner hand out every role', () => {
    expect(assignableRoles('owner')).toEqual(['owner', 'admin', 'editor', 'viewer']);
  });

  it('never lets an admin make owners', () => {
    expect(assignableRoles('admin')).toEqual(['admin', 'editor', 'viewer']);
  });

  it('gives nothing without a role (token callers)', () => {
    expect(assignableRoles(null)).toEqual([]);
  });
});

describe('sortMembers', () => {
  it('orders by role strength, then by name ignoring case', () => {
    const sorted = sortMembers([member('zoe', 'viewer'), member('Bob', 'admin'), member('alice', 'viewer'), member('Olga', 'owner')]);
    expect(sorted.map((m) => m.displayName)).toEqual(['Olga', 'Bob', 'alice', 'zoe']);
  });

  it('does not change the list it was given', () => {
    const members = [member('b', 'viewer'), member('a', 'owner')];
    sortMembers(members);
    expect(members.map((m) => m.displayName)).toEqual(['b', 'a']);
  });
});
