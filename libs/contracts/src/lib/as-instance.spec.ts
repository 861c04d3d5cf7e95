import { asInstance } from './as-instance';

class Owner {
  email = '';
}

describe('asInstance', () => {
  it('turns a plain object into an instance of the class, keeping its fields', () => {
    const owner = asInstance(Owner, { email: 'a@example.com' });
    expect(owner).toBeInstanceOf(Owner);
    expect(owner).toEqual({ email: 'a@example.com' });
  });

  it('leaves arrays, null and scalars for the validators to refuse', () => {
    const list = [{ email: 'a@example.com' }];
    expect(asInstance(Owner, list)).toBe(list);
    expect([asInstance(Owner, null), asInstance(Owner, 'x'), asInstance(Owner, undefined)]).toEqual([null, 'x', undefined]);
  });
});
