import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';

/**
 * Layered layout of a diagram with nested groups, one ELK run per group ("container") from the innermost out.
 *
 * Why not one ELK run over the whole compound graph (hierarchyHandling INCLUDE_CHILDREN)? On the benchmark's
 * 1,000-node diagram that takes 6–10 s; per container it takes a few hundred milliseconds, and each container's
 * result is cached by its exact input, so collapsing a group re-lays out only the containers above it, and expanding
 * it again finds every container's earlier result: the drawing comes back exactly as before.
 *
 * An edge is laid out in the innermost container holding both ends, between the members of that container that
 * hold them (a group box stands in for everything inside it); its drawn route then runs from the real ends to that
 * routed part. Pure: no DOM, so it runs in a Web Worker and in unit tests alike.
 */

export type LayoutDirection = 'RIGHT' | 'DOWN' | 'LEFT' | 'UP';

export interface LayoutInput {
  direction: LayoutDirection;
  nodes: { id: string; width: number; height: number; parent?: string }[];
  /** Visible groups; a collapsed group is a box of the given size, an expanded one wraps its members. */
  groups: { id: string; parent?: string; collapsed: boolean; width: number; height: number }[];
  edges: { key: string; source: string; target: string; labelWidth?: number; labelHeight?: number }[];
}

export interface Point {
  x: number;
  y: number;
}

export interface Box extends Point {
  width: number;
  height: number;
}

export interface EdgeRoute {
  points: Point[];
  /** Top-left corner of the label's box. */
  label?: Point;
}

export interface LayoutResult {
  width: number;
  height: number;
  /** Absolute boxes of nodes and groups. */
  boxes: Record<string, Box>;
  edges: Record<string, EdgeRoute>;
}

/** The part of elkjs this module uses, so tests and the worker pass the same engine. */
export interface ElkEngine {
  layout(graph: ElkNode): Promise<ElkNode>;
}

const ROOT = '\u0000root';
/** Room at the top of an expanded group for its name and the Hide details button. */
export const GROUP_HEADER = 40;
const GROUP_PADDING = 16;

/** Results per container input; bounded so a long session with many diagrams does not grow without end. */
export class LayoutCache {
  private readonly entries = new Map<string, ElkNode>();
  constructor(private readonly limit = 400) {}

  get(key: string): ElkNode | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: ElkNode): void {
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
  }
}

function layoutOptions(direction: LayoutDirection, container: string, childCount: number): Record<string, string> {
  const padding = container === ROOT ? GROUP_PADDING : GROUP_PADDING;
  const top = container === ROOT ? GROUP_PADDING : GROUP_HEADER + 8;
  return {
    'elk.algorithm': 'layered',
    'elk.direction': direction,
    'elk.edgeRouting': 'ORTHOGONAL',
    'elk.padding': `[top=${top},left=${padding},bottom=${padding},right=${padding}]`,
    'elk.spacing.nodeNode': '28',
    'elk.layered.spacing.nodeNodeBetweenLayers': '56',
    'elk.spacing.edgeNode': '14',
    'elk.spacing.edgeEdge': '10',
    'elk.spacing.edgeLabel': '4',
    'elk.edgeLabels.placement': 'CENTER',
    // Larger containers: one crossing-minimisation sweep instead of seven, a third of ELK's time there.
    'elk.layered.thoroughness': childCount > 30 ? '1' : '7',
  };
}

export async function layoutDiagram(elk: ElkEngine, input: LayoutInput, cache: LayoutCache): Promise<LayoutResult> {
  const parentOf = new Map<string, string>();
  const sizeOf = new Map<string, { width: number; height: number }>();
  const containers = new Map<string, string[]>([[ROOT, []]]);
  for (const group of input.groups) if (!group.collapsed) containers.set(group.id, []);
  const place = (id: string, parent: string | undefined) => {
    const container = parent !== undefined && containers.has(parent) ? parent : ROOT;
    parentOf.set(id, container);
    containers.get(container)?.push(id);
  };
  for (const group of input.groups) {
    place(group.id, group.parent);
    if (group.collapsed) sizeOf.set(group.id, { width: group.width, height: group.height });
  }
  for (const node of input.nodes) {
    place(node.id, node.parent);
    sizeOf.set(node.id, { width: node.width, height: node.height });
  }

  /** Containers enclosing an element, outermost first. */
  const enclosing = (id: string): string[] => {
    const chain: string[] = [];
    for (let current = parentOf.get(id); current !== undefined; current = current === ROOT ? undefined : parentOf.get(current)) {
      chain.unshift(current);
    }
    return chain;
  };

  // Each edge goes to the innermost container holding both ends, between the members standing for them. Edges
  // from inside different members of a container share one laid-out edge between those members (a bundle): the
  // layout of a container with a few large groups stays small however many edges run between them.
  const routed = new Map<string, ElkExtendedEdge[]>();
  const routedEnds = new Map<string, { container: string; source: string; target: string; elkId: string }>();
  const bundles = new Map<string, string>();
  for (const edge of input.edges) {
    if (!parentOf.has(edge.source) || !parentOf.has(edge.target)) continue;
    const sourceChain = [...enclosing(edge.source), edge.source];
    const targetChain = [...enclosing(edge.target), edge.target];
    let depth = 0;
    while (depth < sourceChain.length - 1 && depth < targetChain.length - 1 && sourceChain[depth + 1] === targetChain[depth + 1] && containers.has(sourceChain[depth + 1])) {
      depth++;
    }
    const container = sourceChain[depth];
    const source = sourceChain[depth + 1];
    const target = targetChain[depth + 1];
    // One end inside the other (an edge from a group to its own member): drawn straight, not laid out.
    if (source === undefined || target === undefined || (source === target && edge.source !== edge.target)) continue;
    const nested = source !== edge.source || target !== edge.target;
    const labelled = Boolean(edge.labelWidth && edge.labelHeight);
    const bundleKey = `${container}\u0000${source}\u0000${target}`;
    const bundled = nested && !labelled ? bundles.get(bundleKey) : undefined;
    if (bundled !== undefined) {
      routedEnds.set(edge.key, { container, source, target, elkId: bundled });
      continue;
    }
    routedEnds.set(edge.key, { container, source, target, elkId: edge.key });
    if (nested && !labelled) bundles.set(bundleKey, edge.key);
    const elkEdge: ElkExtendedEdge = { id: edge.key, sources: [source], targets: [target] };
    // ELK places a label only when it has text; the text itself is drawn by the canvas.
    if (labelled) elkEdge.labels = [{ id: `${edge.key}\u0000label`, text: 'label', width: edge.labelWidth ?? 0, height: edge.labelHeight ?? 0 }];
    const inContainer = routed.get(container);
    if (inContainer) inContainer.push(elkEdge);
    else routed.set(container, [elkEdge]);
  }

  // Innermost containers first, so each group's size is known when its parent is laid out. Containers of the same
  // height (longest path down to a group without nested groups) do not depend on each other: they are laid out
  // together, so an engine with several workers runs them in parallel.
  const order: string[] = [];
  const height = new Map<string, number>();
  const visit = (container: string): number => {
    let own = 0;
    for (const child of containers.get(container) ?? []) if (containers.has(child)) own = Math.max(own, visit(child) + 1);
    order.push(container);
    height.set(container, own);
    return own;
  };
  visit(ROOT);
  const laidOut = new Map<string, ElkNode>();
  const layOut = async (container: string): Promise<void> => {
    const children = containers.get(container) ?? [];
    const graph: ElkNode = {
      id: container,
      layoutOptions: layoutOptions(input.direction, container, children.length),
      children: children.map((id) => {
        const inner = laidOut.get(id);
        const size = inner ? { width: inner.width ?? 0, height: inner.height ?? 0 } : (sizeOf.get(id) ?? { width: 0, height: 0 });
        return { id, width: size.width, height: size.height };
      }),
      edges: routed.get(container) ?? [],
    };
    const key = JSON.stringify(graph);
    let result = cache.get(key);
    if (!result) {
      // ELK writes its result into the graph it is given: a fresh copy, from the key that is already a serialization.
      result = await elk.layout(JSON.parse(key) as ElkNode);
      cache.set(key, result);
    }
    laidOut.set(container, result);
  };
  for (let level = 0; level <= (height.get(ROOT) ?? 0); level++) {
    await Promise.all(order.filter((container) => height.get(container) === level).map(layOut));
  }

  // Absolute positions, outermost first.
  const boxes: Record<string, Box> = {};
  const origins = new Map<string, Point>([[ROOT, { x: 0, y: 0 }]]);
  for (const container of [...order].reverse()) {
    const origin = origins.get(container) ?? { x: 0, y: 0 };
    for (const child of laidOut.get(container)?.children ?? []) {
      const box = { x: origin.x + (child.x ?? 0), y: origin.y + (child.y ?? 0), width: child.width ?? 0, height: child.height ?? 0 };
      boxes[child.id] = box;
      if (containers.has(child.id)) origins.set(child.id, box);
    }
  }

  // ELK's edges by container and id (a search of the container's list for each edge was quadratic at the root).
  const elkEdges = new Map<string, Map<string, ElkExtendedEdge>>();
  for (const [container, result] of laidOut) {
    const byId = new Map<string, ElkExtendedEdge>();
    for (const elkEdge of result.edges ?? []) if (!byId.has(elkEdge.id)) byId.set(elkEdge.id, elkEdge);
    elkEdges.set(container, byId);
  }
  const edges: Record<string, EdgeRoute> = {};
  for (const edge of input.edges) {
    const ends = routedEnds.get(edge.key);
    const sourceBox = boxes[edge.source];
    const targetBox = boxes[edge.target];
    if (!sourceBox || !targetBox) continue;
    if (!ends) {
      edges[edge.key] = { points: [borderPoint(sourceBox, centre(targetBox)), borderPoint(targetBox, centre(sourceBox))] };
      continue;
    }
    const origin = origins.get(ends.container) ?? { x: 0, y: 0 };
    const elkEdge = elkEdges.get(ends.container)?.get(ends.elkId);
    const section = elkEdge?.sections?.[0];
    const shift = (point: Point) => ({ x: origin.x + point.x, y: origin.y + point.y });
    let points = section ? [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map(shift) : [];
    if (points.length === 0) points = [centre(boxes[ends.source] ?? sourceBox), centre(boxes[ends.target] ?? targetBox)];
    // The routed part ends on the border of the box standing in for a nested end: continue to the real node.
    if (ends.source !== edge.source) points.unshift(...elbow(sourceBox, points[0]));
    if (ends.target !== edge.target) points.push(...elbow(targetBox, points[points.length - 1]).reverse());
    const label = ends.elkId === edge.key ? elkEdge?.labels?.[0] : undefined;
    edges[edge.key] = { points, ...(label ? { label: shift({ x: label.x ?? 0, y: label.y ?? 0 }) } : {}) };
  }

  const root = laidOut.get(ROOT);
  return { width: root?.width ?? 0, height: root?.height ?? 0, boxes, edges };
}

/**
 * From a node's border to a point outside it with one right angle (vertical first when the point lies more above or
 * below than beside the node), so the part of a route inside a group stays orthogonal like ELK's.
 */
function elbow(box: Box, to: Point): Point[] {
  const c = centre(box);
  const vertical = Math.abs(to.y - c.y) * box.width >= Math.abs(to.x - c.x) * box.height;
  const corner = vertical ? { x: c.x, y: to.y } : { x: to.x, y: c.y };
  const insideBox = corner.x >= box.x && corner.x <= box.x + box.width && corner.y >= box.y && corner.y <= box.y + box.height;
  return insideBox ? [borderPoint(box, to)] : [borderPoint(box, corner), corner];
}

export function centre(box: Box): Point {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Where the line from the box's centre towards `toward` leaves the box. */
export function borderPoint(box: Box, toward: Point): Point {
  const c = centre(box);
  const dx = toward.x - c.x;
  const dy = toward.y - c.y;
  if (dx === 0 && dy === 0) return c;
  const scale = Math.min(dx === 0 ? Infinity : box.width / 2 / Math.abs(dx), dy === 0 ? Infinity : box.height / 2 / Math.abs(dy));
  return { x: c.x + dx * scale, y: c.y + dy * scale };
}
