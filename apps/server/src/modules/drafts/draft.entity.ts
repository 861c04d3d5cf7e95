import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DraftKind, DraftLayout, DraftSource } from '@sc/contracts';
import type { OverlaidGraph } from '@sc/diagram';

/** A diagram drawn in the dashboard: its graph (with overlays), canvas layout and version. */
@Entity({ name: 'diagram_drafts' })
export class DraftRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'organization_id', type: 'varchar', length: 63 })
  organizationId!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: DraftKind;

  /** `json`, not `jsonb`: the graph keeps the key order it was sent with, so exported context files keep it too. */
  @Column({ type: 'json' })
  graph!: OverlaidGraph;

  @Column({ type: 'json' })
  layout!: DraftLayout;

  @Column({ type: 'integer' })
  version!: number;

  @Column({ name: 'node_count', type: 'integer' })
  nodeCount!: number;

  @Column({ name: 'edge_count', type: 'integer' })
  edgeCount!: number;

  @Column({ type: 'json', nullable: true })
  source!: DraftSource | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'created_by_user_id', type: 'uuid', nullable: true })
  createdByUserId!: string | null;

  @Column({ name: 'created_by_token_id', type: 'uuid', nullable: true })
  createdByTokenId!: string | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'updated_by_user_id', type: 'uuid', nullable: true })
  updatedByUserId!: string | null;

  @Column({ name: 'updated_by_token_id', type: 'uuid', nullable: true })
  updatedByTokenId!: string | null;
}
