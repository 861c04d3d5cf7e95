import { Injectable } from '@nestjs/common';
import type { SsoAuditOutcome } from '@sc/contracts';
import { SsoAuditEvent } from './entities/sso-audit-event.entity';
import { TransactionalRepository } from '../../database/unit-of-work';

export interface AuditPageQuery {
  organizationId: string;
  limit: number;
  before?: { createdAt: Date; id: string };
  providerSlug?: string;
  outcome?: SsoAuditOutcome;
}

@Injectable()
export class SsoAuditRepository extends TransactionalRepository {
  async insert(event: SsoAuditEvent): Promise<void> {
    await this.manager.insert(SsoAuditEvent, event);
  }

  /** Newest first; keyset pagination on (created_at, id). Reads one extra row to know whether more exist. */
  page(query: AuditPageQuery): Promise<SsoAuditEvent[]> {
    const builder = this.manager
      .createQueryBuilder(SsoAuditEvent, 'e')
      .where('e.organization_id = :organizationId', { organizationId: query.organizationId })
      .orderBy('e.created_at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .limit(query.limit + 1);
    if (query.providerSlug) builder.andWhere('e.provider_slug = :slug', { slug: query.providerSlug });
    if (query.outcome) builder.andWhere('e.outcome = :outcome', { outcome: query.outcome });
    if (query.before) {
      builder.andWhere('(e.created_at < :beforeAt OR (e.created_at = :beforeAt AND e.id < :beforeId))', { beforeAt: query.before.createdAt, beforeId: query.before.id });
    }
    return builder.getMany();
  }
}
