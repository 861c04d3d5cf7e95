import type { User } from './user.entity';

/** Email addresses compare case-insensitively: `Ann@Example.com` and `ann@example.com` are one user. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The name to show: the display name, or the email when there is none. */
export function displayNameOf(user: Pick<User, 'displayName' | 'email'>): string {
  return user.displayName?.trim() || user.email;
}
