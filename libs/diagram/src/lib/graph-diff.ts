import type { GraphElementChange, GraphElementDiff } from '@sc/contracts';

/** The parts of a (possibly overlaid) graph model a diff compares. */
export interface DiffableGraph<Node extends { id: string }, Edge extends { source: string; target: string }, Group extends { id: string }> {
  nodes: Node[];
  edges: Edge[];
  groups: Group[];
}

export interface GraphDiff<Node, Edge, Group> {
  changed: boolean;
  nodes: GraphElementDiff<Node>;
  edges: GraphElementDiff<Edge>;
  groups: GraphElementDiff<Group>;
}

/**
 * Nodes and groups are matched by id. Edges are matched by `source->target#n`, the n-th edge between that
 * pair in source order: Mermaid's generated edge ids are not stable, and parallel edges are legitimate.
 * An element present on both sides is "changed" when any field (label, shape, parent, overlay...) differs.
 */
export function diffGraphs<Node extends { id: string }, Edge extends { source: string; target: string }, Group extends { id: string }>(
  before: DiffableGraph<Node, Edge, Group>,
  after: DiffableGraph<Node, Edge, Group>,
): GraphDiff<Node, Edge, Group> {
  const nodes = diffKeyed(keyById(before.nodes), keyById(after.nodes));
  const edges = diffKeyed(keyEdges(before.edges), keyEdges(after.edges));
  const groups = diffKeyed(keyById(before.groups), keyById(after.groups));
  const changed = [nodes, edges, groups].some((diff) => diff.added.length + diff.removed.length + diff.changed.length > 0);
  return { changed, nodes, edges, groups };
}

function keyById<T extends { id: string }>(elements: T[]): Map<string, T> {
  return new Map(elements.map((element) => [element.id, element]));
}

export function keyEdges<T extends { source: string; target: string }>(edges: T[]): Map<string, T> {
  const occurrences = new Map<string, number>();
  const keyed = new Map<string, T>();
  for (const edge of edges) {
    const pair = `${edge.source}->${edge.target}`;
    const index = occurrences.get(pair) ?? 0;
    occurrences.set(pair, index + 1);
    keyed.set(`${pair}#${index}`, edge);
  }
  return keyed;
}

/** Elements matched by key: added, removed, and changed with the top-level fields that differ. */
export function diffKeyed<T>(before: Map<string, T>, after: Map<string, T>): GraphElementDiff<T> {
  const diff: GraphElementDiff<T> = { added: [], removed: [], changed: [] };
  for (const [key, element] of after) {
    const previous = before.get(key);
    if (previous === undefined) {
      diff.added.push(element);
      continue;
    }
    const fields = differingFields(previous, element);
    if (fields.length > 0) diff.changed.push({ key, before: previous, after: element, fields } satisfies GraphElementChange<T>);
  }
  for (const [key, element] of before) if (!after.has(key)) diff.removed.push(element);
  return diff;
}

function differingFields(before: unknown, after: unknown): string[] {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((key) => !deepEqual(a[key], b[key])).sort();
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  const otherKeys = Object.keys(right).filter((key) => right[key] !== undefined);
  return keys.length === otherKeys.length && keys.every((key) => deepEqual(left[key], right[key]));
}
