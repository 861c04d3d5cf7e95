import { generateApiToken, looksLikeApiToken } from './token-format';

describe('API token format', () => {
  it('generates sct_<8 visible>_<43 secret> tokens with their prefix', () => {
    const { token, prefix } = generateApiToken();
    expect(token).toMatch(/^sct_[a-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
    expect(token.startsWith(`${prefix}_`)).toBe(true);
    expect(looksLikeApiToken(token)).toBe(true);
    expect(generateApiToken().token).not.toBe(token);
  });

  it('recognises only well-formed tokens', () => {
    expect(looksLikeApiToken('sct_ABCDEFGH_' + 'a'.repeat(43))).toBe(false);
    expect(looksLikeApiToken('sct_abcdefgh_' + 'a'.repeat(42))).toBe(false);
    expect(looksLikeApiToken('ghp_' + 'a'.repeat(40))).toBe(false);
  });
});
