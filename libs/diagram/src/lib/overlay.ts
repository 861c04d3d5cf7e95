import type { ContextEdge, ContextGroup, ContextNode, DiagramContext } from './context/context-types';
import type { DiagramIssue, GraphEdge, GraphGroup, GraphModel, GraphNode } from './model';

/** A graph with the context overlays attached to the elements they matched. */
export interface OverlaidNode extends GraphNode {
  overlay?: ContextNode;
}
export interface OverlaidEdge extends GraphEdge {
  overlay?: ContextEdge;
}
export interface OverlaidGroup extends GraphGroup {
  overlay?: ContextGroup;
  /** `context` for a group that only the context file defines (no Mermaid subgraph of that id). */
  origin?: 'mermaid' | 'context';
}
export interface OverlaidGraph extends Omit<GraphModel, 'nodes' | 'edges' | 'groups'> {
  nodes: OverlaidNode[];
  edges: OverlaidEdge[];
  groups: OverlaidGroup[];
  /** Context-level name and description, when a context was applied. */
  contextName?: string;
  contextDescription?: string;
}

export interface UnmatchedKey {
  /** The context key as written, e.g. `nodes.Api`, `edges.B-A`, `groups.core.nodes[2]`. */
  key: string;
  /** JSON path of the key. */
  path: string;
  reason: string;
  hint?: string;
}

export interface ApplyReport {
  /** JSON paths of the overlays that were applied. */
  applied: string[];
  unmatched: UnmatchedKey[];
  errors: DiagramIssue[];
  warnings: DiagramIssue[];
}

export interface ApplyContextOptions {
  /** Names of the databases synced together with the diagram; dbConfig.databaseName must be one. */
  databaseNames?: readonly string[];
}

export interface ApplyContextResult {
  graph: OverlaidGraph;
  report: ApplyReport;
}

export interface ParseContextResult {
  context?: DiagramContext;
  errors: DiagramIssue[];
  warnings: DiagramIssue[];
}
