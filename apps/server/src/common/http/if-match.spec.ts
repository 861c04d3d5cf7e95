import { ifMatchVersion } from './if-match';

describe('ifMatchVersion', () => {
  it('reads one version, quoted, weak or bare, at least the minimum', () => {
    expect(ifMatchVersion('"3"')).toBe(3);
    expect(ifMatchVersion('W/"12"')).toBe(12);
    expect(ifMatchVersion(' 7 ')).toBe(7);
    expect(ifMatchVersion('"0"')).toBeNull();
    expect(ifMatchVersion('"0"', 0)).toBe(0);
  });

  it('refuses a missing header, lists, wildcards, text and leading zeros', () => {
    for (const header of [undefined, '', '*', '"1", "2"', 'abc', '"007"', '"1234567890"']) expect(ifMatchVersion(header, 0)).toBeNull();
  });
});
