import { Entity, PrimaryColumn } from 'typeorm';
import type { ArrangedEdge, ArrangedGroup, ArrangedNode } from '@sc/contracts';
import { IntegerColumn, JsonColumn, OrganizationIdColumn, WithLastEdit } from '../../database/columns';

/** Where people put a synced diagram's nodes, frames and edge bends; one row per service and diagram name. */
@Entity({ name: 'diagram_arrangements' })
export class ArrangementRecord extends WithLastEdit(class {}) {
  @PrimaryColumn({ name: 'service_id', type: 'uuid' })
  serviceId!: string;

  @PrimaryColumn({ name: 'diagram', type: 'varchar', length: 100 })
  diagram!: string;

  @OrganizationIdColumn()
  organizationId!: string;

  @IntegerColumn()
  version!: number;

  @JsonColumn()
  nodes!: ArrangedNode[];

  @JsonColumn()
  groups!: ArrangedGroup[];

  @JsonColumn()
  edges!: ArrangedEdge[];
}
