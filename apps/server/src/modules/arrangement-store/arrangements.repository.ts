import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { TransactionalRepository } from '../../database/unit-of-work';
import { ArrangementRecord } from './arrangement.entity';

export type ArrangementChanges = Pick<ArrangementRecord, 'nodes' | 'groups' | 'edges' | 'updatedAt' | 'updatedByUserId' | 'updatedByTokenId'>;

/** TypeORM's deep-partial type does not follow the JSON lists; the json columns take them whole. */
const asColumns = (values: Partial<ArrangementRecord>) => values as QueryDeepPartialEntity<ArrangementRecord>;

@Injectable()
export class ArrangementsRepository extends TransactionalRepository {
  find(organizationId: string, serviceId: string, diagram: string): Promise<ArrangementRecord | null> {
    return this.manager.findOneBy(ArrangementRecord, { organizationId, serviceId, diagram });
  }

  /** By the service's id alone: for callers that looked the service up in its organization already. */
  findOfService(serviceId: string, diagram: string): Promise<ArrangementRecord | null> {
    return this.manager.findOneBy(ArrangementRecord, { serviceId, diagram });
  }

  /**
   * The stored version and whether its lists place anything (a reset stores empty lists), without reading the lists:
   * what an image read needs to find its rendering in the cache (DiagramLayoutService.image). Null: no row.
   */
  async versionOfService(serviceId: string, diagram: string): Promise<{ version: number; arranged: boolean } | null> {
    const row = await this.manager
      .createQueryBuilder(ArrangementRecord, 'arrangement')
      .select('arrangement.version', 'version')
      .addSelect('json_array_length(arrangement.nodes::json) + json_array_length(arrangement."groups"::json) + json_array_length(arrangement.edges::json) > 0', 'arranged')
      .where('arrangement.service_id = :serviceId AND arrangement.diagram = :diagram', { serviceId, diagram })
      .getRawOne<{ version: number | string; arranged: boolean | string }>();
    return row ? { version: Number(row.version), arranged: row.arranged === true || row.arranged === 't' || row.arranged === 'true' } : null;
  }

  /**
   * Writes `changes` as version `version + 1` only if the stored version is still `version` (0: no row yet). One
   * conditional statement, so two saves of the same version cannot both win. False when nothing matched.
   */
  async saveIfVersion(organizationId: string, serviceId: string, diagram: string, version: number, changes: ArrangementChanges): Promise<boolean> {
    if (version === 0) {
      // The first save: a row only if none exists (another first save, or a save after it, wins otherwise).
      const inserted: unknown[] = await this.manager.query(
        `INSERT INTO diagram_arrangements (service_id, diagram, organization_id, version, nodes, "groups", edges, updated_at, updated_by_user_id, updated_by_token_id)
         VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING version`,
        [serviceId, diagram, organizationId, JSON.stringify(changes.nodes), JSON.stringify(changes.groups), JSON.stringify(changes.edges), changes.updatedAt, changes.updatedByUserId, changes.updatedByTokenId],
      );
      return inserted.length > 0;
    }
    const result = await this.manager
      .createQueryBuilder()
      .update(ArrangementRecord)
      .set({ ...asColumns(changes), version: () => 'version + 1' })
      .where('service_id = :serviceId AND diagram = :diagram AND organization_id = :organizationId AND version = :version', { serviceId, diagram, organizationId, version })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
