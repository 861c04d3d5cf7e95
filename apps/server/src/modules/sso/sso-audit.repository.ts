import { Injectable } from '@nestjs/common';
import type { SsoAuditOutcome } from '@sc/contracts';
import { SsoAuditEvent } from './entities/sso-audit-event.entity';
import { keysetPage, type KeysetPosition } from '../../database/record-repository';
import { TransactionalRepository } from '../../database/unit-of-work';

export interface AuditPageQuery {
  organizationId: string;
  limit: number;
  before?: KeysetPosition;
  providerSlug?: string;
  outcome?: SsoAuditOutcome;
}

@Injectable()
export class SsoAuditRepository extends TransactionalRepository {
  async insert(event: SsoAuditEvent): Promise<void> {
    await this.manager.insert(SsoAuditEvent, event);
  }

  /** The ids among `providerIds` with at least one successful sign-in or passed test sign-in. */
  async providersWithSuccess(organizationId: string, providerIds: string[]): Promise<string[]> {
    if (providerIds.length === 0) return [];
    const rows = (await this.manager.query(
      `SELECT DISTINCT provider_id FROM sso_audit_events WHERE organization_id = $1 AND outcome = 'success' AND provider_id = ANY($2::uuid[])`,
      [organizationId, providerIds],
    )) as Array<{ provider_id: string }>;
    return rows.map((row) => row.provider_id);
  }

  /** Newest first, at most `limit` rows; keyset pagination on (created_at, id), only rows after the position `before`. */
  page(query: AuditPageQuery): Promise<SsoAuditEvent[]> {
    const builder = this.manager.createQueryBuilder(SsoAuditEvent, 'e').where('e.organization_id = :organizationId', { organizationId: query.organizationId });
    if (query.providerSlug) builder.andWhere('e.provider_slug = :slug', { slug: query.providerSlug });
    if (query.outcome) builder.andWhere('e.outcome = :outcome', { outcome: query.outcome });
    return keysetPage(builder, 'e', { time: 'created_at', timeOrder: 'DESC', limit: query.limit, after: query.before }).getMany();
  }
}
