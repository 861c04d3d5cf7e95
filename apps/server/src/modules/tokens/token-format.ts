import { randomBytes } from 'node:crypto';
import { randomToken } from '../../common/crypto/tokens';

const PREFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const TOKEN_PATTERN = /^sct_[a-z0-9]{8}_[A-Za-z0-9_-]{43}$/;

/**
 * API tokens look like `sct_<8 visible chars>_<43 chars secret>`. The `sct_` marker makes leaked tokens
 * easy to find by secret scanners; the visible part lets people recognise a token in the list.
 */
export function generateApiToken(): { token: string; prefix: string } {
  return generateBearerToken('sct');
}

/** `<marker>_<8 visible chars>_<43 chars secret>`: API tokens (`sct`) and SCIM tokens (`scim`). */
export function generateBearerToken(marker: string): { token: string; prefix: string } {
  const visible = Array.from(randomBytes(8), (byte) => PREFIX_ALPHABET[byte % PREFIX_ALPHABET.length]).join('');
  const prefix = `${marker}_${visible}`;
  return { token: `${prefix}_${randomToken(32)}`, prefix };
}

export function looksLikeApiToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}
