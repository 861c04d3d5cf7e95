import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { AuditAction } from '@sc/contracts';
import { AuditEvent } from './audit-event.entity';
import { TransactionalRepository } from '../../database/unit-of-work';

export interface AuditEventQuery {
  organizationId: string;
  limit: number;
  /** Only entries older than this sequence number (the cursor). */
  beforeSeq?: string;
  action?: AuditAction;
  /** A user id, token id, email or token prefix. */
  actor?: string;
  /** A target id or label. */
  target?: string;
  from?: Date;
  to?: Date;
}

@Injectable()
export class AuditRepository extends TransactionalRepository {
  async insert(event: AuditEvent): Promise<void> {
    // TypeORM's insert type cannot express the jsonb columns' `unknown` values.
    await this.manager.insert(AuditEvent, event as QueryDeepPartialEntity<AuditEvent>);
  }

  /** Newest first, at most `limit` rows. */
  find(query: AuditEventQuery): Promise<AuditEvent[]> {
    const builder = this.manager
      .createQueryBuilder(AuditEvent, 'e')
      .where('e.organization_id = :organizationId', { organizationId: query.organizationId })
      .orderBy('e.seq', 'DESC')
      .limit(query.limit);
    if (query.beforeSeq) builder.andWhere('e.seq < :beforeSeq', { beforeSeq: query.beforeSeq });
    if (query.action) builder.andWhere('e.action = :action', { action: query.action });
    if (query.actor) {
      // Ids compare as text: the filter may be an email, which is no valid uuid.
      builder.andWhere('(e.actor_user_id::text = lower(:actor) OR e.actor_token_id::text = lower(:actor) OR e.actor_email = lower(:actor) OR e.actor_token_prefix = :actor)', { actor: query.actor });
    }
    // A part of the target's id or label ("rders" finds the service orders): people rarely remember a whole name.
    if (query.target) builder.andWhere('(strpos(lower(e.target_id), lower(:target)) > 0 OR strpos(lower(e.target_label), lower(:target)) > 0)', { target: query.target });
    if (query.from) builder.andWhere('e.created_at >= :from', { from: query.from });
    if (query.to) builder.andWhere('e.created_at < :to', { to: query.to });
    return builder.getMany();
  }
}
