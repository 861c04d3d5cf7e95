import { edgeKeys, type ChangeStatus, type GraphEdge, type GraphGroup, type GraphNode, type Highlights, type OverlaidEdge, type OverlaidGraph, type OverlaidGroup, type OverlaidNode } from '@sc/diagram';
import type { GraphChanges } from '@sc/contracts';

/** A diff between revisions (DiagramDiff) or between the current revision and a preview. */
type Changes = GraphChanges<GraphNode, GraphEdge, GraphGroup>;

/** One changed element for the list beside the drawing: its id (an edge's `source → target`) and what happened. */
export interface ChangeEntry {
  element: 'node' | 'edge' | 'group';
  status: ChangeStatus;
  id: string;
  label: string;
  /** Changed elements: the fields that differ. */
  fields?: string[];
}

/** JSON with object keys sorted, so the same edge serializes alike whatever order its fields came in. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

/** Which elements of the shown graph were added or changed, and the removed ones to draw ghosted. */
export function changeHighlights(changes: Changes, graph: OverlaidGraph): Highlights {
  const nodes = new Map<string, ChangeStatus>();
  for (const node of changes.nodes.added) nodes.set(node.id, 'added');
  for (const change of changes.nodes.changed) nodes.set(change.key, 'changed');
  const groups = new Map<string, ChangeStatus>();
  for (const group of changes.groups.added) groups.set(group.id, 'added');
  for (const change of changes.groups.changed) groups.set(change.key, 'changed');

  // Added edges come without their key: find each among the graph's edges (the same edge, serialized alike).
  const keys = edgeKeys(graph.edges);
  const edges = new Map<string, ChangeStatus>();
  const unmatched = changes.edges.added.map(stable);
  graph.edges.forEach((edge, index) => {
    const at = unmatched.indexOf(stable(edge));
    if (at >= 0) {
      unmatched.splice(at, 1);
      edges.set(keys[index], 'added');
    }
  });
  for (const change of changes.edges.changed) edges.set(change.key, 'changed');
  return {
    nodes,
    groups,
    edges,
    removedNodes: changes.nodes.removed as OverlaidNode[],
    removedGroups: changes.groups.removed as OverlaidGroup[],
    removedEdges: changes.edges.removed as OverlaidEdge[],
  };
}

/** Every change, by id, in the order added, changed, removed. */
export function describeChanges(changes: Changes): ChangeEntry[] {
  const label = (element: { label?: string; id?: string }) => element.label || element.id || '';
  const edgeId = (edge: GraphEdge) => `${edge.source} → ${edge.target}`;
  const edgeKeyId = (key: string) => key.replace(/#\d+$/, '').replace('->', ' → ');
  return [
    ...changes.nodes.added.map((n): ChangeEntry => ({ element: 'node', status: 'added', id: n.id, label: label(n) })),
    ...changes.groups.added.map((g): ChangeEntry => ({ element: 'group', status: 'added', id: g.id, label: label(g) })),
    ...changes.edges.added.map((e): ChangeEntry => ({ element: 'edge', status: 'added', id: edgeId(e), label: e.label ?? '' })),
    ...changes.nodes.changed.map((c): ChangeEntry => ({ element: 'node', status: 'changed', id: c.key, label: label(c.after), fields: c.fields })),
    ...changes.groups.changed.map((c): ChangeEntry => ({ element: 'group', status: 'changed', id: c.key, label: label(c.after), fields: c.fields })),
    ...changes.edges.changed.map((c): ChangeEntry => ({ element: 'edge', status: 'changed', id: edgeKeyId(c.key), label: c.after.label ?? '', fields: c.fields })),
    ...changes.nodes.removed.map((n): ChangeEntry => ({ element: 'node', status: 'removed', id: n.id, label: label(n) })),
    ...changes.groups.removed.map((g): ChangeEntry => ({ element: 'group', status: 'removed', id: g.id, label: label(g) })),
    ...changes.edges.removed.map((e): ChangeEntry => ({ element: 'edge', status: 'removed', id: edgeId(e), label: e.label ?? '' })),
  ];
}
