import type { DiagramKind } from '../lib/model';
import type { OverlaidEdge, OverlaidGraph, OverlaidGroup, OverlaidNode } from '../lib/overlay';

/**
 * A graph for specs, written the way a reader thinks of it: nodes as `id: label`, each group with its members
 * (which sets their `parent`, so membership is stated once), edges as `source -> target: label`.
 * Test code only: the package entries do not export it.
 */
export interface GraphSketch {
  kind?: DiagramKind;
  direction?: string;
  contextName?: string;
  /** In graph order: the label, or the node without its id and parent. */
  nodes: Record<string, string | Omit<OverlaidNode, 'id' | 'parent'>>;
  /** In graph order: `source -> target` or `source -> target: label`, or the edge itself. */
  edges?: (string | OverlaidEdge)[];
  /** In graph order. Members of a context-only group (`origin: 'context'`) keep their Mermaid parent. */
  groups?: Record<string, Omit<OverlaidGroup, 'id' | 'parent'>>;
}

const EDGE = /^(\S+) -> (\S+?)(?:: (.+))?$/;

export function buildGraph(sketch: GraphSketch): OverlaidGraph {
  const groups = inOrder(sketch.groups ?? {});
  const parentOf = new Map<string, string>();
  for (const [id, group] of groups) if (group.origin !== 'context') for (const member of group.nodes) parentOf.set(member, id);
  const withParent = <T extends { id: string }>(element: T): T & { parent?: string } => {
    const parent = parentOf.get(element.id);
    return parent === undefined ? element : { ...element, parent };
  };
  return {
    kind: sketch.kind ?? 'flowchart',
    ...(sketch.direction === undefined ? {} : { direction: sketch.direction }),
    ...(sketch.contextName === undefined ? {} : { contextName: sketch.contextName }),
    nodes: inOrder(sketch.nodes).map(([id, node]) => withParent(typeof node === 'string' ? { id, label: node } : { id, ...node })),
    edges: (sketch.edges ?? []).map(edgeOf),
    groups: groups.map(([id, group]) => withParent({ id, ...group })),
  };
}

/** The record's entries as written: JavaScript would list integer-like keys first, so they are refused. */
function inOrder<T>(record: Record<string, T>): [string, T][] {
  const entries = Object.entries(record);
  const numeric = entries.find(([id]) => /^\d+$/.test(id));
  if (numeric) throw new Error(`Id ${numeric[0]} would move to the front of the graph: write that graph out as a literal.`);
  return entries;
}

function edgeOf(edge: string | OverlaidEdge): OverlaidEdge {
  if (typeof edge !== 'string') return edge;
  const match = EDGE.exec(edge);
  if (!match) throw new Error(`Write an edge as "source -> target" or "source -> target: label", not ${JSON.stringify(edge)}.`);
  const [, source, target, label] = match;
  return label === undefined ? { source, target } : { source, target, label };
}
