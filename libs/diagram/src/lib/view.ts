import type { OverlaidEdge, OverlaidGraph, OverlaidGroup, OverlaidNode } from './overlay';

/** A group as displayed: collapsed groups show only their label and list no members. */
export interface VisibleGroup extends OverlaidGroup {
  collapsed: boolean;
}

/** An edge as displayed. `from` lists the indices (into the full graph's edges) it stands for. */
export interface VisibleEdge extends OverlaidEdge {
  from: number[];
}

export interface VisibleGraph {
  nodes: OverlaidNode[];
  edges: VisibleEdge[];
  groups: VisibleGroup[];
}

/**
 * What the admin SPA renders: the full graph (never modified), the ids of the collapsed
 * groups (sorted, so equal states are deep-equal), and the visible graph derived from both.
 */
export interface DiagramView {
  graph: OverlaidGraph;
  collapsed: string[];
  visible: VisibleGraph;
}
