import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ListPage, SsoAuditEntry, SsoAuditQuery } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { createdAtIdKey, pageFrom, type FilterOf, type PageRequest, type TimeIdPosition } from '../../common/http/paging';
import { normalizeEmail } from '../users/users.service';
import { Claims, redactClaims } from './domain/claims';
import { SsoAuditEvent } from './entities/sso-audit-event.entity';
import { SsoAuditRepository } from './sso-audit.repository';

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

  /** Newest first; the cursor is the (time, id) of the previous page's last entry (TIME_ID_CURSOR). */
  async page(organizationId: string, { limit, after, filter }: PageRequest<TimeIdPosition, FilterOf<SsoAuditQuery>>): Promise<ListPage<SsoAuditEntry>> {
    const rows = await this.audit.page({ organizationId, limit: limit + 1, before: after, providerSlug: filter.provider, outcome: filter.outcome });
    return pageFrom(rows, limit, toEntry, createdAtIdKey);
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

