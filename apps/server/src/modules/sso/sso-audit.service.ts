import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SsoAuditEntry, SsoAuditPage, SsoAuditQuery } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { normalizeEmail } from '../users/users.service';
import { Claims, redactClaims } from './domain/claims';
import { SsoAuditEvent } from './entities/sso-audit-event.entity';
import { SsoAuditRepository } from './sso-audit.repository';
import { SsoErrorCode, ssoError } from './sso.errors';

/** Where a sign-in attempt came from, as the audit log keeps it (plain values, taken from the request by the controller). */
export interface SignInClient {
  ipAddress: string | null;
  userAgent: string | null;
}

/** One SSO sign-in attempt as the SSO audit log keeps it (a change to the organization goes to AuditService.record as an AuditChange). */
export interface SignInAttemptRecord {
  organizationId: string;
  providerId: string | null;
  providerSlug: string;
  test: boolean;
  errorCode: string | null;
  message: string;
  email?: string | null;
  userId?: string | null;
  subject?: string | null;
  role?: string | null;
  /** Only names and value kinds are stored. */
  claims?: Claims;
  warnings?: string[];
  client: SignInClient;
}

const DEFAULT_PAGE = 50;

@Injectable()
export class SsoAuditService {
  private readonly logger = new Logger(SsoAuditService.name);

  constructor(
    private readonly audit: SsoAuditRepository,
    private readonly clock: Clock,
  ) {}

  /** Records one attempt. A failure to write the audit entry is logged, never shown to the person signing in. */
  async record(entry: SignInAttemptRecord): Promise<void> {
    const event = new SsoAuditEvent();
    event.id = randomUUID();
    event.organizationId = entry.organizationId;
    event.providerId = entry.providerId;
    event.providerSlug = entry.providerSlug.slice(0, 63);
    event.test = entry.test;
    event.outcome = entry.errorCode ? 'failure' : 'success';
    event.errorCode = entry.errorCode;
    event.message = entry.message.slice(0, 2000);
    event.email = entry.email ? normalizeEmail(entry.email).slice(0, 320) : null;
    event.userId = entry.userId ?? null;
    event.subject = entry.subject?.slice(0, 255) ?? null;
    event.role = entry.role ?? null;
    event.claimNames = entry.claims ? redactClaims(entry.claims) : {};
    event.warnings = entry.warnings ?? [];
    event.ipAddress = entry.client.ipAddress?.slice(0, 64) ?? null;
    event.userAgent = entry.client.userAgent?.slice(0, 512) ?? null;
    event.createdAt = this.clock.now();
    try {
      await this.audit.insert(event);
    } catch (error) {
      this.logger.error(`Could not write the SSO audit entry (${entry.errorCode ?? 'success'}): ${(error as Error).message}`);
    }
  }

  async page(organizationId: string, query: SsoAuditQuery): Promise<SsoAuditPage> {
    const limit = query.limit ?? DEFAULT_PAGE;
    const rows = await this.audit.page({ organizationId, limit, before: decodeCursor(query.before), providerSlug: query.provider, outcome: query.outcome });
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items: items.map(toEntry), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
  }
}

function toEntry(event: SsoAuditEvent): SsoAuditEntry {
  return {
    id: event.id,
    createdAt: event.createdAt.toISOString(),
    providerSlug: event.providerSlug,
    providerId: event.providerId,
    test: event.test,
    outcome: event.outcome,
    errorCode: event.errorCode,
    message: event.message,
    email: event.email,
    userId: event.userId,
    subject: event.subject,
    role: event.role,
    claimNames: event.claimNames,
    warnings: event.warnings,
    ipAddress: event.ipAddress,
    userAgent: event.userAgent,
  };
}

function encodeCursor(event: SsoAuditEvent): string {
  return Buffer.from(`${event.createdAt.toISOString()}|${event.id}`).toString('base64url');
}

function decodeCursor(cursor: string | undefined): { createdAt: Date; id: string } | undefined {
  if (!cursor) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/.test(id ?? '')) {
    throw ssoError(SsoErrorCode.InvalidCursor, 'The "before" cursor is not one this endpoint returned; pass nextCursor from the previous page.', [{ path: 'before', message: 'unknown cursor' }]);
  }
  return { createdAt, id: id as string };
}
