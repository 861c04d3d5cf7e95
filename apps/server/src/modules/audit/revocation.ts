import type { AuditChange, AuditService } from './audit.service';

/** A record revoked by stamping revokedAt (API token, SCIM token, embed link). */
export interface Revocable {
  id: string;
  revokedAt: Date | null;
}

/**
 * Revokes `record` at `now` unless it already is (revoking twice keeps the first time and records one entry):
 * `store` saves the time, and the audit entry is `change` with revokedAt null before and `now` after (then `after`'s
 * own fields). Runs in the caller's unit of work, so the entry exists exactly when the revocation does.
 */
export async function revokeOnce(
  record: Revocable,
  { now, store, audit, change, after = {} }: {
    now: Date;
    store: (id: string, revokedAt: Date) => Promise<unknown>;
    audit: Pick<AuditService, 'record'>;
    change: Omit<AuditChange, 'before' | 'after'>;
    after?: Record<string, unknown>;
  },
): Promise<void> {
  if (record.revokedAt) return;
  record.revokedAt = now;
  await store(record.id, now);
  await audit.record({ ...change, before: { revokedAt: null }, after: { revokedAt: now.toISOString(), ...after } });
}
