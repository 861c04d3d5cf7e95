import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AuditAction, AuditEntry, AuditFilter, AuditTargetType, ListPage } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { pageFrom, type PageRequest } from '../../common/http/paging';
import type { Principal } from '../access/principal';
import { UsersService } from '../users/users.service';
import { AuditEvent } from './audit-event.entity';
import { AuditErrorCode, auditError } from './audit.errors';
import { AuditEventQuery, AuditRepository } from './audit.repository';

/**
 * Who made a change: a request's principal, the server acting for a user (first-run setup, an SSO sign-in), or an
 * identity provider through a SCIM token (`userId`: the owner who created the token).
 */
export type AuditActorInput = Principal | { kind: 'setup' | 'sso' | 'host'; userId: string; clientAddress: string | null } | ScimActor;

/** An identity provider provisioning through a SCIM token. */
export interface ScimActor {
  kind: 'scim';
  tokenId: string;
  tokenPrefix: string;
  tokenName: string;
  userId: string | null;
  clientAddress: string | null;
}

/** The member answerable for an action: the user, or for an API token the member who created it. */
export function accountableUserId(actor: AuditActorInput): string | null {
  return actor.kind === 'token' ? actor.createdByUserId : actor.userId;
}

export interface AuditChange {
  organizationId: string;
  actor: AuditActorInput;
  action: AuditAction;
  target: { type: AuditTargetType; id: string; label?: string | null };
  /** The changed fields before and after; secrets are removed again here as a second line of defence. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

const EXPORT_PAGE = 500;

/**
 * Keys never stored in an entry, at any depth: callers pass no secrets, and this catches one passed by
 * mistake (a provider's client secret, a token or its hash, a sign-in link).
 */
const SECRET_KEYS = new Set(['clientSecret', 'clientSecretSealed', 'client_secret', 'token', 'tokenHash', 'token_hash', 'secret', 'password', 'url']);

/**
 * The organization audit log. Other modules call `record` inside the unit of work of the change (UnitOfWork.run),
 * so an entry exists exactly when the change does.
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly audit: AuditRepository,
    private readonly users: UsersService,
    private readonly clock: Clock,
  ) {}

  async record(change: AuditChange): Promise<void> {
    const { actor } = change;
    const actorUserId = accountableUserId(actor);
    const actorUser = actorUserId ? await this.users.findById(actorUserId) : null;
    const event = Object.assign(new AuditEvent(), {
      id: randomUUID(),
      organizationId: change.organizationId,
      action: change.action,
      actorType: actor.kind === 'session' ? 'user' : actor.kind,
      actorUserId,
      actorEmail: actorUser?.email ?? null,
      actorTokenId: actor.kind === 'token' || actor.kind === 'scim' ? actor.tokenId : null,
      actorTokenPrefix: actor.kind === 'token' || actor.kind === 'scim' ? actor.tokenPrefix : null,
      targetType: change.target.type,
      targetId: change.target.id.slice(0, 255),
      targetLabel: change.target.label?.slice(0, 320) ?? null,
      before: withoutSecrets(change.before ?? null),
      after: withoutSecrets(change.after ?? null),
      ipAddress: actor.clientAddress?.slice(0, 64) ?? null,
      createdAt: this.clock.now(),
    });
    await this.audit.insert(event);
  }

  /** Newest first; the cursor is the sequence number of the previous page's last entry (NUMBER_CURSOR). */
  async page(organizationId: string, { limit, after, filter }: PageRequest<string, AuditFilter>): Promise<ListPage<AuditEntry>> {
    const rows = await this.audit.find({ ...this.filter(organizationId, filter), limit: limit + 1, beforeSeq: after });
    // The bigint arrives as text from PostgreSQL and as a number from PGlite: the cursor holds it as text.
    return pageFrom(rows, limit, toEntry, (event) => [String(event.seq)]);
  }

  /** Every matching entry, newest first, read a page at a time. */
  async *entries(organizationId: string, filter: AuditFilter): AsyncGenerator<AuditEntry> {
    const base = this.filter(organizationId, filter);
    let beforeSeq: string | undefined;
    for (;;) {
      const rows = await this.audit.find({ ...base, limit: EXPORT_PAGE, beforeSeq });
      for (const row of rows) yield toEntry(row);
      if (rows.length < EXPORT_PAGE) return;
      beforeSeq = rows[rows.length - 1]?.seq;
    }
  }

  private filter(organizationId: string, filter: AuditFilter): Omit<AuditEventQuery, 'limit'> {
    const from = filter.from ? new Date(filter.from) : undefined;
    const to = filter.to ? new Date(filter.to) : undefined;
    if (from && to && from >= to) {
      throw auditError(AuditErrorCode.InvalidRange, '"from" must be earlier than "to".', [{ path: 'from', message: 'from must be earlier than to' }]);
    }
    return { organizationId, action: filter.action, actor: filter.actor?.trim() || undefined, target: filter.target?.trim() || undefined, from, to };
  }
}

function toEntry(event: AuditEvent): AuditEntry {
  return {
    id: event.id,
    createdAt: event.createdAt.toISOString(),
    action: event.action,
    actor: { type: event.actorType, userId: event.actorUserId, email: event.actorEmail, tokenId: event.actorTokenId, tokenPrefix: event.actorTokenPrefix },
    target: { type: event.targetType, id: event.targetId, label: event.targetLabel },
    before: event.before,
    after: event.after,
    ipAddress: event.ipAddress,
  };
}

export function withoutSecrets(value: Record<string, unknown> | null): Record<string, unknown> | null {
  if (value === null) return null;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, field]) => !SECRET_KEYS.has(key) && field !== undefined)
      .map(([key, field]) => [key, isPlainObject(field) ? withoutSecrets(field) : field]),
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
