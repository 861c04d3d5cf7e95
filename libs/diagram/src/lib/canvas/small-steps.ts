import { GROUP_HEADER, outlinesOf, type Box, type EdgeRoute, type LayoutInput, type Point } from './layout';
import { segmentEntersBox } from './route-check';

/**
 * Small steps in ELK's routes: two parallel stretches of a line joined by a step of a few pixels across. ELK leaves
 * them where a line between two boxes is kept apart from the box's other lines at one end only (`Still --> Moving`
 * beside `Moving --> Still`: a Z), and where a line crosses two nested frames whose ports the groups' own layouts put
 * a few pixels apart. Each is drawn straight where one of the two stretches can move onto the other's line: an end
 * stretch only by sliding its end along its node's side. Not a step of this size or more: that goes around something.
 */
const SMALL_STEP = 15;
/** An end keeps this far from its node's corners (a state's corners are rounded). */
const CORNER = 8;
/** Two lines side by side closer than this read as one (ELK keeps them 10 px apart). */
const LINE_GAP = 8;
/**
 * A line closer than this to a box or frame reads as running along its border (ELK keeps lines 14 px from boxes): a
 * straightened line may come no closer to anything than the stepped line was, where that is closer than this.
 */
const BOX_GAP = 8;
/** Steps taken out of one route at most (a route has a few; a bound all the same). */
const MAX_STEPS_PER_ROUTE = 8;
/**
 * Drawings with more lines than this are left as ELK drew them. They are generated or grown rather than drawn by hand
 * (as the layout's large containers are), and the pass runs with layoutDiagram on the page's main thread (only ELK
 * runs in the layout workers): on the generated 5,000-node diagram it made the longest main-thread task 446 ms
 * instead of 299 (npm run bench:dashboard).
 */
export const SMALL_STEPS_MAX_LINES = 500;

interface Segment {
  a: Point;
  b: Point;
}

const near = (a: number, b: number) => Math.abs(a - b) < 0.5;

/**
 * The axis a step goes along where a–b and c–d are two parallel stretches of an orthogonal route joined by b–c across
 * them ('x' between two vertical stretches, 'y' between two horizontal ones); undefined where the four points are not
 * such a step. Shared with layoutDiagram's `withoutJogs`.
 */
export function stepAcross(a: Point, b: Point, c: Point, d: Point): 'x' | 'y' | undefined {
  if (near(a.x, b.x) && near(c.x, d.x) && near(b.y, c.y)) return 'x';
  if (near(a.y, b.y) && near(c.y, d.y) && near(b.x, c.x)) return 'y';
  return undefined;
}

/**
 * `routes` with each small step taken out where the line that results passes through no box, frame, group header or
 * label that the stepped line did not, nor nearer to one than it where that is under BOX_GAP, and runs along or
 * beside (closer than LINE_GAP) no other line for longer than it did (a tree's shared trunk stays shared). Of the two
 * stretches the earlier moves where it can; routes are taken in `input.edges` order, each against the others as they
 * stand then. Routes that change are new objects; the others are returned as they were, and `routes` itself when
 * nothing changes, so a redrawing can tell what moved.
 */
export function withoutSmallSteps(input: Pick<LayoutInput, 'nodes' | 'groups' | 'edges'>, boxes: Readonly<Record<string, Box>>, routes: Record<string, EdgeRoute>): Record<string, EdgeRoute> {
  if (input.edges.length > SMALL_STEPS_MAX_LINES) return routes;
  // An end slides along its node's outline: the node's box, or the part of it above its rows; not a drawn outline.
  const slidable = new Set(input.nodes.filter((node) => !node.shape).map((node) => node.id));
  const outline = outlinesOf(input);
  const sideOf = (id: string): Box | undefined => (slidable.has(id) && boxes[id] ? outline(id, boxes[id]) : undefined);
  // What a line must not newly pass through: boxes and frames, the name and the button of each group's header row,
  // labels; and the lines, each segment with the version of its route it belongs to (a route that changes gets a
  // new version and its new segments). Both in grids, so a check looks only at what is near the step.
  const boxList = Object.values(boxes);
  const size = Grid.sizeFor(boxList);
  const obstacles = new Grid<Box>(size);
  for (const box of boxList) obstacles.add(box, box);
  for (const group of input.groups) {
    const frame = boxes[group.id];
    if (!frame || group.collapsed || !group.header) continue;
    for (const header of [
      { x: frame.x, y: frame.y, width: group.header.left, height: GROUP_HEADER },
      { x: frame.x + frame.width - group.header.right, y: frame.y, width: group.header.right, height: GROUP_HEADER },
    ]) {
      obstacles.add(header, header);
    }
  }
  for (const edge of input.edges) {
    const label = routes[edge.key]?.label;
    if (label && edge.labelWidth && edge.labelHeight) {
      const box = { ...label, width: edge.labelWidth, height: edge.labelHeight };
      obstacles.add(box, box);
    }
  }
  const lines = new Grid<{ key: string; version: number; segment: Segment }>(size);
  const versions = new Map<string, number>();
  const addLine = (key: string, route: EdgeRoute) => {
    const version = (versions.get(key) ?? -1) + 1;
    versions.set(key, version);
    for (const segment of pathOf(route.points)) lines.add(boundsOf([segment]), { key, version, segment });
  };
  for (const [key, route] of Object.entries(routes)) addLine(key, route);

  /**
   * Whether `after` (the changed part of the route of `key`) is as clear as `before` (the part it replaces): it passes
   * through nothing and runs along or beside no other line's segment for longer than `before` did (a tree's shared
   * trunk stays shared).
   */
  const asClear = (key: string, before: Segment[], after: Segment[]): boolean => {
    const region = boundsOf([...before, ...after], Math.max(LINE_GAP, BOX_GAP));
    const enters = (path: Segment[], box: Box) => path.some(({ a, b }) => segmentEntersBox(a, b, box));
    for (const box of obstacles.near(region)) {
      if (enters(after, box) && !enters(before, box)) return false;
      const closer = distanceTo(after, box);
      if (closer < BOX_GAP && closer < distanceTo(before, box) - 0.5) return false;
    }
    for (const other of lines.near(region)) {
      if (other.key === key || other.version !== versions.get(other.key)) continue;
      const [beforeOn, beforeBeside] = alongside(before, other.segment);
      const [afterOn, afterBeside] = alongside(after, other.segment);
      if (afterOn > beforeOn + 1 || afterBeside > beforeBeside + 1) return false;
    }
    return true;
  };

  let result = routes;
  for (const edge of input.edges) {
    const route = result[edge.key];
    if (!route || route.points.length < 4) continue;
    // Where a line crosses nested frames its route has a point at each (on one line): those go, as they draw nothing.
    let points = withoutMidpoints(route.points);
    const [source, target] = [sideOf(edge.source), sideOf(edge.target)];
    const clear = (before: Segment[], after: Segment[]) => asClear(edge.key, before, after);
    let taken = 0;
    for (; taken < MAX_STEPS_PER_ROUTE; taken++) {
      const next = withoutOneStep(points, source, target, clear);
      if (!next) break;
      points = next;
    }
    if (taken === 0) continue;
    if (result === routes) result = { ...routes };
    result[edge.key] = { ...route, points };
    addLine(edge.key, result[edge.key]);
  }
  return result;
}

/**
 * `points` with its first small step that can go taken out, or undefined. `source` and `target`: the sides the ends
 * may slide along (undefined: an end that stays). `clear(before, after)`: whether the changed segments may replace
 * the ones they replace.
 */
function withoutOneStep(points: Point[], source: Box | undefined, target: Box | undefined, clear: (before: Segment[], after: Segment[]) => boolean): Point[] | undefined {
  const last = points.length - 1;
  for (let i = 1; i + 2 <= last; i++) {
    const [a, b, c, d] = [points[i - 1], points[i], points[i + 1], points[i + 2]];
    const across = stepAcross(a, b, c, d);
    if (!across) continue;
    const step = Math.abs(c[across] - b[across]);
    if (step < 0.5 || step >= SMALL_STEP) continue;
    const before = points.slice(Math.max(i - 2, 0), Math.min(i + 4, last + 1));
    // a–b moves onto c–d's line (its start sliding where a starts the route), or c–d onto a–b's (its end sliding).
    const moves: Point[][] = [];
    if (i - 1 > 0 || slides(source, a, across, c[across])) {
      moves.push([...points.slice(0, i - 1), { ...a, [across]: c[across] }, ...points.slice(i + 2)]);
    }
    if (i + 2 < last || slides(target, d, across, b[across])) {
      moves.push([...points.slice(0, i), { ...d, [across]: b[across] }, ...points.slice(i + 3)]);
    }
    for (const moved of moves) {
      const after = moved.slice(Math.max(i - 2, 0), Math.min(i + 2, moved.length));
      // A corner next to the step that is no corner (three points on one line) would turn the line slanted.
      const orthogonal = pathOf(after).every(({ a: from, b: to }) => near(from.x, to.x) || near(from.y, to.y));
      if (orthogonal && clear(pathOf(before), pathOf(after))) return moved;
    }
  }
  return undefined;
}

/** `points` without those between two others on one line with them (a straight stretch drawn through them). */
function withoutMidpoints(points: Point[]): Point[] {
  const kept = points.filter((point, i) => {
    if (i === 0 || i === points.length - 1) return true;
    const [before, after] = [points[i - 1], points[i + 1]];
    return !((near(before.x, point.x) && near(point.x, after.x)) || (near(before.y, point.y) && near(point.y, after.y)));
  });
  return kept.length === points.length ? points : kept;
}

function pathOf(points: Point[]): Segment[] {
  return points.slice(1).map((b, i) => ({ a: points[i], b }));
}

interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** How near the path comes to the box: 0 where it touches or enters it. */
function distanceTo(path: readonly Segment[], box: Box): number {
  let least = Number.POSITIVE_INFINITY;
  for (const { a, b } of path) {
    const dx = Math.max(box.x - Math.max(a.x, b.x), Math.min(a.x, b.x) - (box.x + box.width), 0);
    const dy = Math.max(box.y - Math.max(a.y, b.y), Math.min(a.y, b.y) - (box.y + box.height), 0);
    least = Math.min(least, Math.hypot(dx, dy));
  }
  return least;
}

/** The bounds of `path`'s segments, grown by `margin` on every side. */
function boundsOf(path: Segment[], margin = 0): Bounds {
  const bounds = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
  for (const { a, b } of path) {
    bounds.left = Math.min(bounds.left, a.x - margin, b.x - margin);
    bounds.top = Math.min(bounds.top, a.y - margin, b.y - margin);
    bounds.right = Math.max(bounds.right, a.x + margin, b.x + margin);
    bounds.bottom = Math.max(bounds.bottom, a.y + margin, b.y + margin);
  }
  return bounds;
}

/**
 * Items by the cells of a square grid their bounds touch, to find those near a place without looking at every one.
 * `size`: a cell's side; at least 128 px, and larger in a larger drawing, so that a frame or a long line across it
 * is in a bounded number of cells (the generated 5,000-node diagram is some 100,000 px across).
 */
class Grid<T> {
  private readonly cells = new Map<number, T[]>();
  constructor(private readonly size: number) {}

  static sizeFor(boxes: Iterable<Box>): number {
    let extent = 0;
    for (const box of boxes) extent = Math.max(extent, box.x + box.width, box.y + box.height);
    return Math.max(128, Math.ceil(extent / 256));
  }

  add(at: Box | Bounds, item: T): void {
    for (const cell of this.cellsOf(at)) {
      const items = this.cells.get(cell);
      if (items) items.push(item);
      else this.cells.set(cell, [item]);
    }
  }

  /** The items in the cells `at` touches (some may lie outside `at` itself), each once. */
  near(at: Bounds): Set<T> {
    const found = new Set<T>();
    for (const cell of this.cellsOf(at)) for (const item of this.cells.get(cell) ?? []) found.add(item);
    return found;
  }

  private cellsOf(at: Box | Bounds): number[] {
    const bounds = 'width' in at ? { left: at.x, top: at.y, right: at.x + at.width, bottom: at.y + at.height } : at;
    const cells: number[] = [];
    // A cell's key: its column and row, each offset to be positive (a drawing may reach left of or above 0).
    for (let x = Math.floor(bounds.left / this.size); x <= Math.floor(bounds.right / this.size); x++) {
      for (let y = Math.floor(bounds.top / this.size); y <= Math.floor(bounds.bottom / this.size); y++) cells.push((x + 32768) * 65536 + (y + 32768));
    }
    return cells;
  }
}

/**
 * How far `path` runs along `other` on its line (a shared trunk) and how far beside it closer than LINE_GAP: parallel
 * stretches, by the length along which they overlap.
 */
function alongside(path: Segment[], other: Segment): [on: number, beside: number] {
  let on = 0;
  let beside = 0;
  const otherVertical = near(other.a.x, other.b.x);
  // A slanted line (drawn straight between two boxes) runs along nothing.
  if (!otherVertical && !near(other.a.y, other.b.y)) return [0, 0];
  for (const one of path) {
    const vertical = near(one.a.x, one.b.x);
    if (vertical !== otherVertical || (!vertical && !near(one.a.y, one.b.y))) continue;
    const gap = vertical ? Math.abs(other.a.x - one.a.x) : Math.abs(other.a.y - one.a.y);
    if (gap >= LINE_GAP) continue;
    const span = (s: Segment) => (vertical ? [Math.min(s.a.y, s.b.y), Math.max(s.a.y, s.b.y)] : [Math.min(s.a.x, s.b.x), Math.max(s.a.x, s.b.x)]);
    const [from, to] = span(one);
    const [otherFrom, otherTo] = span(other);
    const overlap = Math.max(0, Math.min(to, otherTo) - Math.max(from, otherFrom));
    if (gap < 0.5) on += overlap;
    else beside += overlap;
  }
  return [on, beside];
}

/** Whether `end`, on a side of `box` across `across`, can move to `to` along that side, clear of its corners. */
function slides(box: Box | undefined, end: Point, across: 'x' | 'y', to: number): boolean {
  if (!box) return false;
  const onSide = across === 'x' ? near(end.y, box.y) || near(end.y, box.y + box.height) : near(end.x, box.x) || near(end.x, box.x + box.width);
  const [from, length] = across === 'x' ? [box.x, box.width] : [box.y, box.height];
  return onSide && to >= from + CORNER && to <= from + length - CORNER;
}
