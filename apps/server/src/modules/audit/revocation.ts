import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { Clock } from '../../common/clock';
import { UnitOfWork } from '../../database/unit-of-work';
import { AuditService, type AuditChange } from './audit.service';

/** A record revoked by stamping revokedAt (API token, SCIM token, embed link). */
export interface Revocable {
  id: string;
  revokedAt: Date | null;
}

/** Where an organization's revocable records are found and their revocation stored (a HashedTokenRepository). */
export interface RevocableStore<T extends Revocable> {
  findInOrganization(organizationId: string, id: string): Promise<T | null>;
  revoke(id: string, revokedAt: Date): Promise<unknown>;
}

/** The audit entry of a revocation without its before/after (revokeOnce writes revokedAt there). */
export type RevocationChange = Omit<AuditChange, 'before' | 'after'>;

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
    change: RevocationChange;
    after?: Record<string, unknown>;
  },
): Promise<void> {
  if (record.revokedAt) return;
  record.revokedAt = now;
  await store(record.id, now);
  await audit.record({ ...change, before: { revokedAt: null }, after: { revokedAt: now.toISOString(), ...after } });
}

/** The revoke routes of API tokens, SCIM tokens and embed links: one record of the organization, by id. */
@Injectable()
export class RevocationService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /**
   * Revokes the organization's record `id` once (revokeOnce) in one transaction and returns it as it now is. A
   * malformed id names no record; no record is `notFound()`, thrown before anything is written.
   */
  async revokeInOrganization<T extends Revocable>(
    store: RevocableStore<T>,
    organizationId: string,
    id: string,
    { notFound, change, after }: { notFound: () => Error; change: (record: T) => RevocationChange; after?: Record<string, unknown> },
  ): Promise<T> {
    return this.unitOfWork.run(async () => {
      const record = isUUID(id) ? await store.findInOrganization(organizationId, id) : null;
      if (!record) throw notFound();
      await revokeOnce(record, { now: this.clock.now(), store: (recordId, revokedAt) => store.revoke(recordId, revokedAt), audit: this.audit, change: change(record), after });
      return record;
    });
  }
}
