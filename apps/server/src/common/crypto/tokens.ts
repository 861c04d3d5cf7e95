import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random value for cookies and one-time links: `bytes` random bytes as base64url (32 bytes → 43 chars). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

const PREFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A bearer value `<marker>_<8 visible chars>_<secret>` (`sct_…` API tokens, `scim_…` SCIM tokens, `sce_…` embed links): the marker lets
 * secret scanners find a leaked one, the visible part names it in a list (`prefix`, stored beside the hash).
 */
export function prefixedToken(marker: string, secretBytes: number): { token: string; prefix: string } {
  const visible = Array.from(randomBytes(8), (byte) => PREFIX_ALPHABET[byte % PREFIX_ALPHABET.length]).join('');
  const prefix = `${marker}_${visible}`;
  return { token: `${prefix}_${randomToken(secretBytes)}`, prefix };
}

/**
 * SHA-256 hex digest of UTF-8 text: what the database stores instead of a bearer secret (session, API token, link),
 * and the checksum of a synced file.
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time string comparison (different lengths compare unequal without leaking where). */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right) && a.length === b.length;
}
