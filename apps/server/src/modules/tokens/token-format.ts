import { prefixedToken } from '../../common/crypto/tokens';

const TOKEN_PATTERN = /^sct_[a-z0-9]{8}_[A-Za-z0-9_-]{43}$/;

/**
 * API tokens look like `sct_<8 visible chars>_<43 chars secret>`. The `sct_` marker makes leaked tokens
 * easy to find by secret scanners; the visible part lets people recognise a token in the list.
 */
export function generateApiToken(): { token: string; prefix: string } {
  return prefixedToken('sct', 32);
}

export function looksLikeApiToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}
