import { Injectable, signal } from '@angular/core';

export interface RecentOrganization {
  id: string;
  name: string;
}

const STORAGE_KEY = 'sc.recent-organizations';
const MAX_ENTRIES = 10;

/**
 * The organizations this browser signed in to, most recent first, for the organization switcher. Kept in the
 * browser on purpose: the server does not list a person's other organizations (a session proves only its own
 * organization; see the SSO README, "Organization boundary"), and what this browser did is the person's own
 * knowledge. Only ids and names are kept, never roles or tokens.
 */
@Injectable({ providedIn: 'root' })
export class RecentOrganizationsService {
  private readonly entries = signal<RecentOrganization[]>(read());

  readonly list = this.entries.asReadonly();

  /** Puts the organization first (a session there just started or was confirmed). */
  remember(organization: RecentOrganization): void {
    const next = [{ id: organization.id, name: organization.name }, ...this.entries().filter((entry) => entry.id !== organization.id)].slice(0, MAX_ENTRIES);
    this.entries.set(next);
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    } catch {
      // Storage full or disabled (private mode): the switcher then only knows this visit.
    }
  }
}

function read(): RecentOrganization[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isEntry).slice(0, MAX_ENTRIES) : [];
  } catch {
    return [];
  }
}

function isEntry(value: unknown): value is RecentOrganization {
  const entry = value as Partial<RecentOrganization> | null;
  return typeof entry?.id === 'string' && typeof entry.name === 'string';
}
