import type { Box, LayoutInput, LayoutResult, Point } from './layout';

/**
 * Whether a drawing says what its graph says: no edge passes through a box it does not connect, through a group
 * frame it neither enters nor leaves, or through another edge's label, and no label sits on a box. Used by the
 * layout's specs, the browser tests (on the geometry the canvas drew) and the dashboard benchmark.
 */

export interface DrawnEdge {
  key: string;
  source: string;
  target: string;
  points: Point[];
  label?: Box;
}

export interface Drawing {
  /** Boxes of the drawn nodes and collapsed groups. */
  nodes: Record<string, Box>;
  /** Frames of the expanded groups. */
  frames: Record<string, Box>;
  /** Parent group of every drawn node and group that has one. */
  parentOf: Record<string, string | undefined>;
  edges: DrawnEdge[];
}

export interface Crossing {
  edge: string;
  /** What it crosses: a node or collapsed group, a frame, or another edge's label (by that edge's key). */
  through: { kind: 'node' | 'frame' | 'label'; id: string };
}

/** Touching a box's border is not crossing it: routes end on their nodes' borders and run along frames. */
const TOLERANCE = 1.5;

/** Every place where a route or a label misleads, in edge order. */
export function routeCrossings(drawing: Drawing): Crossing[] {
  const crossings: Crossing[] = [];
  const ancestors = (id: string): Set<string> => {
    const found = new Set<string>();
    for (let current = drawing.parentOf[id]; current !== undefined && !found.has(current); current = drawing.parentOf[current]) found.add(current);
    return found;
  };
  const labels = drawing.edges.filter((edge) => edge.label).map((edge) => ({ key: edge.key, box: edge.label as Box }));
  for (const edge of drawing.edges) {
    const allowed = new Set([edge.source, edge.target, ...ancestors(edge.source), ...ancestors(edge.target)]);
    const crosses = (box: Box) => edge.points.some((point, i) => i > 0 && segmentEntersBox(edge.points[i - 1], point, box));
    for (const [id, box] of Object.entries(drawing.nodes)) if (!allowed.has(id) && crosses(box)) crossings.push({ edge: edge.key, through: { kind: 'node', id } });
    for (const [id, box] of Object.entries(drawing.frames)) if (!allowed.has(id) && crosses(box)) crossings.push({ edge: edge.key, through: { kind: 'frame', id } });
    for (const label of labels) if (label.key !== edge.key && crosses(label.box)) crossings.push({ edge: edge.key, through: { kind: 'label', id: label.key } });
    if (edge.label) {
      for (const [id, box] of Object.entries(drawing.nodes)) if (boxesOverlap(edge.label, box)) crossings.push({ edge: edge.key, through: { kind: 'node', id } });
    }
  }
  return crossings;
}

/** Whether the segment from `a` to `b` passes through the inside of `box` (its border shrunk by the tolerance). */
export function segmentEntersBox(a: Point, b: Point, box: Box): boolean {
  const left = box.x + TOLERANCE;
  const right = box.x + box.width - TOLERANCE;
  const top = box.y + TOLERANCE;
  const bottom = box.y + box.height - TOLERANCE;
  if (left >= right || top >= bottom) return false;
  // Liang–Barsky: clip the segment's parameter range against each side.
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  for (const [p, q] of [
    [-dx, a.x - left],
    [dx, right - a.x],
    [-dy, a.y - top],
    [dy, bottom - a.y],
  ] as const) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return t0 < t1;
}

function boxesOverlap(a: Box, b: Box): boolean {
  return a.x + TOLERANCE < b.x + b.width && b.x + TOLERANCE < a.x + a.width && a.y + TOLERANCE < b.y + b.height && b.y + TOLERANCE < a.y + a.height;
}

/** The drawing a layout gives its input (labels as the boxes ELK made room for). */
export function drawingOf(input: LayoutInput, result: LayoutResult): Drawing {
  const nodes: Record<string, Box> = {};
  const frames: Record<string, Box> = {};
  const parentOf: Record<string, string | undefined> = {};
  for (const node of input.nodes) {
    parentOf[node.id] = node.parent;
    if (result.boxes[node.id]) nodes[node.id] = result.boxes[node.id];
  }
  for (const group of input.groups) {
    parentOf[group.id] = group.parent;
    const box = result.boxes[group.id];
    if (box) (group.collapsed ? nodes : frames)[group.id] = box;
  }
  const edges: DrawnEdge[] = [];
  for (const edge of input.edges) {
    const route = result.edges[edge.key];
    if (!route) continue;
    const label = route.label && edge.labelWidth && edge.labelHeight ? { ...route.label, width: edge.labelWidth, height: edge.labelHeight } : undefined;
    edges.push({ key: edge.key, source: edge.source, target: edge.target, points: route.points, ...(label ? { label } : {}) });
  }
  return { nodes, frames, parentOf, edges };
}
