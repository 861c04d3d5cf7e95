import { ENTERPRISE_USER_SCHEMA, PATCH_OP_SCHEMA, applyPatch } from './scim-patch';

const patch = (resource: Record<string, unknown>, ...operations: unknown[]) => applyPatch(resource, { schemas: [PATCH_OP_SCHEMA], Operations: operations });

describe('applyPatch', () => {
  it('replaces a value path, creating the element when none matches (Entra ID)', () => {
    expect(patch({ emails: [{ type: 'work', value: 'a@x' }] }, { op: 'Replace', path: 'emails[type eq "work"].value', value: 'b@x' })).toEqual({ emails: [{ type: 'work', value: 'b@x' }] });
    expect(patch({}, { op: 'replace', path: 'emails[type eq "work"].value', value: 'b@x' })).toEqual({ emails: [{ type: 'work', value: 'b@x' }] });
  });

  it('reads path-less values whose keys are paths or the enterprise extension', () => {
    expect(patch({ name: { familyName: 'F' } }, { op: 'replace', value: { 'name.givenName': 'G', active: 'False', [ENTERPRISE_USER_SCHEMA]: { department: 'D' } } })).toEqual({
      name: { familyName: 'F', givenName: 'G' },
      active: 'False',
      [ENTERPRISE_USER_SCHEMA]: { department: 'D' },
    });
    expect(patch({}, { op: 'add', path: `${ENTERPRISE_USER_SCHEMA}:manager`, value: { value: 'm-1' } })).toEqual({ [ENTERPRISE_USER_SCHEMA]: { manager: { value: 'm-1' } } });
  });

  it('adds to and removes from multi-valued attributes', () => {
    const group = { members: [{ value: '1' }, { value: '2' }] };
    expect(patch(group, { op: 'add', path: 'members', value: [{ value: '2' }, { value: '3' }] })).toEqual({ members: [{ value: '1' }, { value: '2' }, { value: '3' }] });
    expect(patch(group, { op: 'remove', path: 'members[value eq "1"]' })).toEqual({ members: [{ value: '2' }] });
    expect(patch(group, { op: 'Remove', path: 'members', value: [{ value: '2' }] })).toEqual({ members: [{ value: '1' }] });
    expect(patch(group, { op: 'remove', path: 'members' })).toEqual({});
  });

  it('leaves the input untouched and refuses malformed bodies', () => {
    const resource = { title: 'a' };
    patch(resource, { op: 'replace', path: 'title', value: 'b' });
    expect(resource).toEqual({ title: 'a' });
    expect(() => applyPatch(resource, { Operations: [] })).toThrow(expect.objectContaining({ scimType: 'invalidSyntax' }));
    expect(() => patch(resource, { op: 'remove' })).toThrow(expect.objectContaining({ scimType: 'noTarget' }));
    expect(() => patch(resource, { op: 'add', path: 'a b', value: 1 })).toThrow(expect.objectContaining({ scimType: 'invalidPath' }));
  });
});
