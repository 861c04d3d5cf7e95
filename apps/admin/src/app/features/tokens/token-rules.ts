import type { ApiTokenResponse, TokenScope } from '@sc/contracts';

export type TokenStatus = 'active' | 'expired' | 'revoked';

/** Active, expired or revoked: of an API token, and of anything else that expires and is revoked alike (embed links). */
export function tokenStatus(token: Pick<ApiTokenResponse, 'revokedAt' | 'expiresAt'>, now: Date = new Date()): TokenStatus {
  if (token.revokedAt !== null) return 'revoked';
  if (token.expiresAt !== null && new Date(token.expiresAt).getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** What each scope lets a token do, in the words shown next to the checkboxes. */
export const SCOPE_DESCRIPTIONS: Record<TokenScope, string> = {
  sync: 'Push .service.yaml artifacts from CI with service-cli sync.',
  read: 'Read services, diagrams and other synced artifacts.',
  admin: 'Act as an organization admin: manage members and tokens.',
};

export const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'custom', label: 'Custom date' },
] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]['value'];

/**
 * The expiresAt to send: undefined for "never"; N days from now; or the end of the chosen day (local time) for a
 * custom date, so a token "expiring on the 31st" still works during the 31st. Null means the choice is incomplete
 * or already past, which the form reports.
 */
export function expiresAtFor(choice: ExpiryChoice, customDate: string, now: Date = new Date()): string | undefined | null {
  if (choice === 'never') return undefined;
  if (choice === 'custom') {
    // <input type="date"> yields YYYY-MM-DD; anything else means no date was picked.
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(customDate);
    if (match === null) return null;
    const end = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 0);
    return end.getTime() > now.getTime() ? end.toISOString() : null;
  }
  const days = Number(choice);
  return new Date(now.getTime() + days * 24 * 3600 * 1000).toISOString();
}
