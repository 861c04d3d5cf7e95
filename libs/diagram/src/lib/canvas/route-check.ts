import type { Box, LayoutInput, LayoutResult, Point } from './layout';

/**
 * Whether a drawing says what its graph says: no edge passes through a box it does not connect or runs along its
 * border, through a group frame it neither enters nor leaves, or through another edge's label, no label sits on a box,
 * and no two edges without a common end run along the same stretch (a reader could not tell which source goes to which
 * target). Used by the layout's specs, the browser tests (on the geometry the canvas drew) and the dashboard benchmark.
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
  /**
   * What it crosses: a node or collapsed group, a frame, another edge's label, or another edge it shares a stretch
   * with but no end (by that edge's key).
   */
  through: { kind: 'node' | 'frame' | 'label' | 'edge'; id: string };
}

/** Touching a box's border is not crossing it: routes end on their nodes' borders and run along frames. */
const TOLERANCE = 1.5;
/**
 * Running along a node's border for longer than this is: the line reads as part of the box's outline (a line from
 * `gateway` to `stock` drawn along the bottom of `orders` between them).
 */
const ALONG_BORDER = 4;

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
    for (const [id, box] of Object.entries(drawing.nodes)) {
      if (!allowed.has(id) && (crosses(box) || runsAlongBorder(edge.points, box))) crossings.push({ edge: edge.key, through: { kind: 'node', id } });
    }
    for (const [id, box] of Object.entries(drawing.frames)) if (!allowed.has(id) && crosses(box)) crossings.push({ edge: edge.key, through: { kind: 'frame', id } });
    for (const label of labels) if (label.key !== edge.key && crosses(label.box)) crossings.push({ edge: edge.key, through: { kind: 'label', id: label.key } });
    if (edge.label) {
      for (const [id, box] of Object.entries(drawing.nodes)) if (boxesOverlap(edge.label, box)) crossings.push({ edge: edge.key, through: { kind: 'node', id } });
    }
  }
  crossings.push(...sharedStretches(drawing.edges));
  return crossings;
}

/**
 * Pairs of edges with no end in common whose routes run along the same horizontal or vertical stretch, each pair
 * once (the later edge crosses the earlier). Edges that share an end may merge: a fan-out from one source or a
 * fan-in to one target still says who connects to whom. Segments are bucketed by their line, so a large drawing is
 * checked in about linear time.
 */
function sharedStretches(edges: readonly DrawnEdge[]): Crossing[] {
  /** Per line ('h' + y or 'v' + x, rounded): the stretches on it, as [from, to, edge index]. */
  const lines = new Map<string, [number, number, number][]>();
  edges.forEach((edge, index) => {
    for (let i = 1; i < edge.points.length; i++) {
      const a = edge.points[i - 1];
      const b = edge.points[i];
      const horizontal = Math.abs(a.y - b.y) < 0.5;
      if (!horizontal && Math.abs(a.x - b.x) >= 0.5) continue;
      const line = horizontal ? `h${Math.round(a.y)}` : `v${Math.round(a.x)}`;
      const [from, to] = horizontal ? [a.x, b.x] : [a.y, b.y];
      let stretches = lines.get(line);
      if (!stretches) lines.set(line, (stretches = []));
      stretches.push([Math.min(from, to), Math.max(from, to), index]);
    }
  });
  const found = new Map<string, Crossing>();
  for (const stretches of lines.values()) {
    stretches.sort((x, y) => x[0] - y[0]);
    for (let i = 0; i < stretches.length; i++) {
      const [, end, first] = stretches[i];
      for (let j = i + 1; j < stretches.length && stretches[j][0] < end - TOLERANCE; j++) {
        const second = stretches[j][2];
        if (first === second || Math.min(end, stretches[j][1]) - stretches[j][0] <= TOLERANCE) continue;
        const [earlier, later] = first < second ? [edges[first], edges[second]] : [edges[second], edges[first]];
        if (shareAnEnd(earlier, later)) continue;
        found.set(`${later.key}\u0000${earlier.key}`, { edge: later.key, through: { kind: 'edge', id: earlier.key } });
      }
    }
  }
  return [...found.values()];
}

function shareAnEnd(a: DrawnEdge, b: DrawnEdge): boolean {
  return a.source === b.source || a.source === b.target || a.target === b.source || a.target === b.target;
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

/** Whether a stretch of `points` longer than ALONG_BORDER runs on `box`'s border (within the tolerance of it). */
function runsAlongBorder(points: readonly Point[], box: Box): boolean {
  const [left, right, top, bottom] = [box.x, box.x + box.width, box.y, box.y + box.height];
  const near = (value: number, line: number) => Math.abs(value - line) <= TOLERANCE;
  /** How long the stretch from `from` to `to` overlaps the range `low` to `high`. */
  const overlap = (from: number, to: number, low: number, high: number) => Math.min(Math.max(from, to), high) - Math.max(Math.min(from, to), low);
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    if (near(a.y, b.y) && (near(a.y, top) || near(a.y, bottom)) && overlap(a.x, b.x, left, right) > ALONG_BORDER) return true;
    if (near(a.x, b.x) && (near(a.x, left) || near(a.x, right)) && overlap(a.y, b.y, top, bottom) > ALONG_BORDER) return true;
  }
  return false;
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
