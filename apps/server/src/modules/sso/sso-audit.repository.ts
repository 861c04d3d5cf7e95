import { Injectable } from '@nestjs/common';
import type { SsoAuditOutcome } from '@sc/contracts';
import { SsoAuditEvent } from './entities/sso-audit-event.entity';
import { TransactionalRepository } from '../../database/unit-of-work';

export interface AuditPageQuery {
  organizationId: string;
  limit: number;
  before?: { at: Date; id: string };
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
    const builder = this.manager
      .createQueryBuilder(SsoAuditEvent, 'e')
      .where('e.organization_id = :organizationId', { organizationId: query.organizationId })
      .orderBy('e.created_at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .limit(query.limit);
    if (query.providerSlug) builder.andWhere('e.provider_slug = :slug', { slug: query.providerSlug });
    if (query.outcome) builder.andWhere('e.outcome = :outcome', { outcome: query.outcome });
    if (query.before) {
      builder.andWhere('(e.created_at < :beforeAt OR (e.created_at = :beforeAt AND e.id < :beforeId))', { beforeAt: query.before.at, beforeId: query.before.id });
    }
    return builder.getMany();
  }
}
