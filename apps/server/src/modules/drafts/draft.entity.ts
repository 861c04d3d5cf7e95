import { Entity } from 'typeorm';
import type { DraftKind, DraftLayout, DraftSource } from '@sc/contracts';
import type { OverlaidGraph } from '@sc/diagram';
import { IntegerColumn, JsonColumn, OrganizationRecord, UuidColumn, VarcharColumn, WithLastEdit } from '../../database/columns';

/** A diagram drawn in the dashboard: its graph (with overlays), canvas layout and version. */
@Entity({ name: 'diagram_drafts' })
export class DraftRecord extends WithLastEdit(OrganizationRecord) {
  @VarcharColumn(200)
  name!: string;

  @VarcharColumn(16)
  kind!: DraftKind;

  /** `json`, not `jsonb`: the graph keeps the key order it was sent with, so exported context files keep it too. */
  @JsonColumn()
  graph!: OverlaidGraph;

  @JsonColumn()
  layout!: DraftLayout;

  @IntegerColumn()
  version!: number;

  @IntegerColumn()
  nodeCount!: number;

  @IntegerColumn()
  edgeCount!: number;

  @JsonColumn({ nullable: true })
  source!: DraftSource | null;

  @UuidColumn({ nullable: true })
  createdByUserId!: string | null;

  @UuidColumn({ nullable: true })
  createdByTokenId!: string | null;
}
