import { Injectable } from '@nestjs/common';
import type { FindOptionsSelect } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { DraftRecord } from './draft.entity';
import { keysetPage, type KeysetPosition } from '../../database/record-repository';
import { TransactionalRepository } from '../../database/unit-of-work';

/** Every column but the (large) graph and layout: what a list needs. */
const SUMMARY_COLUMNS: FindOptionsSelect<DraftRecord> = {
  id: true, organizationId: true, name: true, kind: true, version: true, nodeCount: true, edgeCount: true, source: true,
  createdAt: true, createdByUserId: true, createdByTokenId: true, updatedAt: true, updatedByUserId: true, updatedByTokenId: true,
};

/** TypeORM's deep-partial type does not follow the graph's recursive JSON types; the jsonb columns take them whole. */
const asColumns = (values: Partial<DraftRecord>) => values as QueryDeepPartialEntity<DraftRecord>;

export type DraftChanges = Pick<DraftRecord, 'name' | 'graph' | 'layout' | 'nodeCount' | 'edgeCount' | 'updatedAt' | 'updatedByUserId' | 'updatedByTokenId'>;

@Injectable()
export class DraftsRepository extends TransactionalRepository {
  async insert(draft: DraftRecord): Promise<void> {
    await this.manager.insert(DraftRecord, asColumns(draft));
  }

  find(organizationId: string, id: string): Promise<DraftRecord | null> {
    return this.manager.findOneBy(DraftRecord, { organizationId, id });
  }

  /**
   * At most `limit` of the organization's drafts without graph and layout, most recently saved first (the lower id
   * first among drafts saved at the same time), only those after the (updated time, id) position `after`: keyset
   * paging in the order of diagram_drafts_org_updated_idx (organization_id, updated_at DESC, id).
   */
  list(organizationId: string, { limit, after }: { limit: number; after?: KeysetPosition }): Promise<DraftRecord[]> {
    const query = this.manager
      .createQueryBuilder(DraftRecord, 'd')
      .select(Object.keys(SUMMARY_COLUMNS).map((column) => `d.${column}`))
      .where('d.organization_id = :organizationId', { organizationId });
    return keysetPage(query, 'd', { time: 'updated_at', timeOrder: 'DESC', idOrder: 'ASC', limit, after }).getMany();
  }

  /**
   * Saves `changes` and bumps the version only if the stored version is still `version` (one conditional
   * UPDATE, so two saves of the same version cannot both win). False when nothing matched.
   */
  async updateIfVersion(organizationId: string, id: string, version: number, changes: DraftChanges): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(DraftRecord)
      .set({ ...asColumns(changes), version: () => 'version + 1' })
      .where('id = :id AND organization_id = :organizationId AND version = :version', { id, organizationId, version })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Deletes the draft (only at `version` when given); false when nothing matched. */
  async delete(organizationId: string, id: string, version?: number): Promise<boolean> {
    const result = await this.manager.delete(DraftRecord, { organizationId, id, ...(version !== undefined ? { version } : {}) });
    return (result.affected ?? 0) > 0;
  }
}
