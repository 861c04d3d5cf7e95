import type { SqlColumn } from '@sc/contracts';
import type { NodeType } from '../context/context-types';
import type { OverlaidEdge, OverlaidGroup, OverlaidNode } from '../overlay';
import type { DiagramView, VisibleEdge } from '../view';
import type { LayoutDirection } from './layout';
import type { DrawnShape } from './shapes';

/**
 * What the canvas draws, derived from the diagram's visible graph (after collapses), the databases synced with
 * it and the changes being highlighted: one entry per node, group and edge with its kind, text, colours, markers
 * and size. Sizes come from measuring the text, so the layout leaves room for every label without breaking words.
 */

export type NodeKind = NodeType | 'mermaid' | 'c4' | 'start' | 'end';
export type ChangeStatus = 'added' | 'changed' | 'removed';
export type StrokeDash = 'solid' | 'dashed' | 'dotted';

export interface NodeLook {
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
  dash?: StrokeDash;
  radius?: number;
  animated?: boolean;
  color?: string;
}

export interface DataRow {
  label: string;
  value: string;
}

export interface TableColumns {
  /** Null when the database or table is not in the synced schema. */
  columns: SqlColumn[] | null;
  /** Table names, for a data source (no table). */
  tables: string[];
}

export interface CanvasNode {
  id: string;
  kind: NodeKind;
  title: string;
  titleLines: string[];
  shape: DrawnShape;
  width: number;
  height: number;
  parent?: string;
  look: NodeLook;
  /** Up to three data fields, shown on the node; all of them are in the details panel. */
  fields: DataRow[];
  /** Kind-specific content: text/code value, table, cloud, image, component, database columns, C4 parts. */
  body: NodeBody;
  source?: OverlaidNode;
  status?: ChangeStatus;
}

export interface NodeBody {
  lines?: string[];
  code?: string;
  table?: { columns: string[]; rows: string[][]; widths: number[] };
  cloud?: { provider: string; service: string };
  imageSrc?: string | null;
  animatedIcon?: string;
  componentId?: string;
  database?: { name: string; table: string; columns: SqlColumn[] | null; tables: string[] };
  c4?: { type: string; external: boolean; description: string[]; technology?: string };
}

export interface CanvasGroup {
  id: string;
  title: string;
  /** C4 boundaries: the type as Mermaid draws it beside the name, e.g. `[SYSTEM]`. */
  typeLabel?: string;
  parent?: string;
  collapsed: boolean;
  /**
   * The least width of the frame: its header row (name, type, Hide/Show details button) in full, the name cut with an
   * ellipsis only when it is wider than both GROUP_NAME_ROOM and the widest member (see groupBox). A collapsed group is
   * a box of this size; an expanded one is laid out at least this wide.
   */
  width: number;
  height: number;
  /** An expanded group's header row: how far its name and type reach from the left, its button from the right. */
  header?: { left: number; right: number };
  depth: number;
  source?: OverlaidGroup;
  status?: ChangeStatus;
}

export type MarkerType = 'arrow' | 'arrow-open' | 'circle' | 'cross' | 'diamond';

export interface MarkerSpec {
  type: MarkerType;
  color: string;
}

export interface CanvasEdge {
  /** `source->target#n` for edges as written (the diff API's key); `*` prefixes a merged edge of a collapse. */
  key: string;
  source: string;
  target: string;
  label?: string;
  labelLines: string[];
  labelWidth: number;
  labelHeight: number;
  color: string;
  width: number;
  dash: StrokeDash;
  animated: boolean;
  invisible: boolean;
  markerStart?: MarkerSpec;
  markerEnd?: MarkerSpec;
  edge?: VisibleEdge;
  status?: ChangeStatus;
}

export interface CanvasModel {
  kind: string;
  direction: LayoutDirection;
  nodes: CanvasNode[];
  groups: CanvasGroup[];
  edges: CanvasEdge[];
}

/** Which elements of the shown graph changed, and the removed ones to draw as ghosts. */
export interface Highlights {
  nodes: ReadonlyMap<string, ChangeStatus>;
  groups: ReadonlyMap<string, ChangeStatus>;
  /** By edge key (`source->target#n`). */
  edges: ReadonlyMap<string, ChangeStatus>;
  removedNodes: OverlaidNode[];
  removedGroups: OverlaidGroup[];
  removedEdges: OverlaidEdge[];
}

export interface ModelInput {
  view: DiagramView;
  /** Synced databases of the same revision, by name. */
  databases: ReadonlyMap<string, { tables: { name: string; columns: SqlColumn[] }[]; collections: string[] }>;
  highlights?: Highlights | null;
}
