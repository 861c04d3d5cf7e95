import type { Box, EdgeRoute, Point } from '@sc/diagram';
import { ARRANGEMENT_MAX_POINTS } from '@sc/contracts';

/**
 * Arrange mode's edits of edge bends and its selection, as plain geometry (the canvas calls them with the drawing
 * on screen). An edge's bends are the points of its drawn route between its two ends: an automatic route's corners
 * become bends the first time the edge is edited, so editing one bend keeps the rest of the line as it was drawn.
 */

/** The bends of a drawn route: its points between the two ends. */
export function bendsOf(route: EdgeRoute): Point[] {
  return route.points.slice(1, -1).map(({ x, y }) => ({ x, y }));
}

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** The segment of `points` nearest `point`: i for the one from points[i] to points[i + 1]. */
export function nearestSegment(points: readonly Point[], point: Point): number {
  let best = 0;
  let distance = Infinity;
  for (let i = 0; i + 1 < points.length; i++) {
    const d = distanceToSegment(point, points[i], points[i + 1]);
    if (d < distance) {
      distance = d;
      best = i;
    }
  }
  return best;
}

/**
 * The bends after adding one at `point` on segment `segment` of the drawn route (the nearest one by default); null
 * when the edge has ARRANGEMENT_MAX_POINTS bends already (the server would refuse more).
 */
export function withBendAdded(route: EdgeRoute, point: Point, segment = nearestSegment(route.points, point)): Point[] | null {
  const bends = bendsOf(route);
  if (bends.length >= ARRANGEMENT_MAX_POINTS) return null;
  // Segment i runs from bend i - 1 (the source's end for i = 0) to bend i: the new bend goes between them.
  bends.splice(Math.max(0, Math.min(segment, bends.length)), 0, { x: point.x, y: point.y });
  return bends;
}

export function withBendMoved(route: EdgeRoute, index: number, point: Point): Point[] {
  const bends = bendsOf(route);
  if (index >= 0 && index < bends.length) bends[index] = { x: point.x, y: point.y };
  return bends;
}

export function withBendRemoved(route: EdgeRoute, index: number): Point[] {
  const bends = bendsOf(route);
  if (index >= 0 && index < bends.length) bends.splice(index, 1);
  return bends;
}

/** A rectangle from two corners in any order. */
export function spanned(a: Point, b: Point): Box {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
}

/** Ids of the boxes lying wholly inside `area` (a box select takes what it encloses, not what it touches). */
export function boxesWithin(boxes: Readonly<Record<string, Box>>, ids: Iterable<string>, area: Box): string[] {
  const out: string[] = [];
  for (const id of ids) {
    const box = boxes[id];
    if (box && box.x >= area.x && box.y >= area.y && box.x + box.width <= area.x + area.width && box.y + box.height <= area.y + area.height) out.push(id);
  }
  return out;
}

/** The id of the smallest box holding `point` among `ids` (a node inside a frame before the frame), or null. */
export function boxAt(boxes: Readonly<Record<string, Box>>, ids: Iterable<string>, point: Point): string | null {
  let best: string | null = null;
  let area = Infinity;
  for (const id of ids) {
    const box = boxes[id];
    if (!box || point.x < box.x || point.y < box.y || point.x > box.x + box.width || point.y > box.y + box.height) continue;
    if (box.width * box.height < area) {
      area = box.width * box.height;
      best = id;
    }
  }
  return best;
}

/** `selection` with `id` added, or taken out when it was in it (a shift-click). */
export function toggled(selection: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(selection);
  if (!next.delete(id)) next.add(id);
  return next;
}

/** How far an arrow key moves the focused node in arrange mode (the keyboard's grid); Shift moves ten steps. */
export const ARRANGE_KEY_STEP = 8;

/**
 * Where an arrow key in arrange mode moves a box (its new top-left corner): one ARRANGE_KEY_STEP that way, ten with
 * Shift; null for any other key and with Ctrl, Alt or Meta held (those stay the browser's and the system's).
 */
export function keyboardMove(box: Point, key: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey'>): Point | null {
  if (key.ctrlKey || key.altKey || key.metaKey) return null;
  const step = key.shiftKey ? ARRANGE_KEY_STEP * 10 : ARRANGE_KEY_STEP;
  const direction: Record<string, Point> = { ArrowLeft: { x: -1, y: 0 }, ArrowRight: { x: 1, y: 0 }, ArrowUp: { x: 0, y: -1 }, ArrowDown: { x: 0, y: 1 } };
  const way = direction[key.key];
  return way ? { x: box.x + way.x * step, y: box.y + way.y * step } : null;
}
