import { parseRevision } from './services.api';

describe('parseRevision', () => {
  it('reads positive revision numbers', () => {
    expect(parseRevision('1')).toBe(1);
    expect(parseRevision('42')).toBe(42);
  });

  it('treats anything else as "the current revision"', () => {
    for (const value of [undefined, '', '0', '-1', '1.5', 'abc', '1e3', '9999999999']) {
      expect(parseRevision(value)).toBeUndefined();
    }
  });
});
