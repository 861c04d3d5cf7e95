import type { Box, EdgeRoute, LayoutInput, Point } from './layout';
import { segmentEntersBox } from './route-check';

/**
 * A line between two boxes that ELK draws as a Z: out of one box, a step of a few pixels across, into the other
 * (`Still --> Moving` beside `Moving --> Still`; `n2 --> Inner` into a port placed in the middle of the group's side).
 * ELK puts each end where its box's other lines leave room; where one end can slide along its box's side by the step,
 * the line is drawn straight instead. Not a step of this size or more: that is a way around something.
 */
const END_STEP = 15;
/** An end keeps this far from its box's corners (a state's corners are rounded). */
const CORNER = 8;
/** Two lines side by side closer than this read as one (ELK keeps them 10 px apart). */
const LINE_GAP = 8;

interface Segment {
  key: string;
  a: Point;
  b: Point;
}

const near = (a: number, b: number) => Math.abs(a - b) < 0.5;

/**
 * `routes` with each Z between two nodes drawn straight where one end can slide along its node's side (a node whose
 * lines end on its box, not on a drawn outline), and the straight line passes through no box, frame or label it did
 * not, and runs along no other line closer than LINE_GAP. The source's end slides first. Routes that change are new
 * objects; the others are returned as they were, so a redrawing can tell what moved.
 */
export function withoutEndSteps(input: Pick<LayoutInput, 'nodes' | 'groups' | 'edges'>, boxes: Readonly<Record<string, Box>>, routes: Record<string, EdgeRoute>): Record<string, EdgeRoute> {
  const slidable = new Set(input.nodes.filter((node) => !node.shape).map((node) => node.id));
  const parentOf = new Map<string, string | undefined>([...input.groups.map((g) => [g.id, g.parent] as const), ...input.nodes.map((n) => [n.id, n.parent] as const)]);
  const labelBoxes = new Map<string, Box>();
  for (const edge of input.edges) {
    const label = routes[edge.key]?.label;
    if (label && edge.labelWidth && edge.labelHeight) labelBoxes.set(edge.key, { ...label, width: edge.labelWidth, height: edge.labelHeight });
  }
  // The routes as straightened so far, and their segments (made again after each change).
  let result = routes;
  let segments: Segment[] | undefined;
  const allSegments = (): Segment[] =>
    (segments ??= Object.entries(result).flatMap(([key, route]) => route.points.slice(1).map((b, i) => ({ key, a: route.points[i], b }))));

  /** Whether the straight line `a`–`b` of `edge` stays clear of everything the drawing holds besides its own ends. */
  const clear = (edge: LayoutInput['edges'][number], a: Point, b: Point): boolean => {
    const own = new Set<string>();
    for (const end of [edge.source, edge.target]) {
      for (let id: string | undefined = end; id !== undefined && !own.has(id); id = parentOf.get(id)) own.add(id);
    }
    for (const [id, box] of Object.entries(boxes)) if (!own.has(id) && segmentEntersBox(a, b, box)) return false;
    for (const box of labelBoxes.values()) if (segmentEntersBox(a, b, box)) return false;
    const vertical = near(a.x, b.x);
    const [from, to] = vertical ? [Math.min(a.y, b.y), Math.max(a.y, b.y)] : [Math.min(a.x, b.x), Math.max(a.x, b.x)];
    return allSegments().every((other) => {
      if (other.key === edge.key) return true;
      const parallel = vertical ? near(other.a.x, other.b.x) : near(other.a.y, other.b.y);
      if (!parallel) return true;
      const gap = vertical ? Math.abs(other.a.x - a.x) : Math.abs(other.a.y - a.y);
      const [otherFrom, otherTo] = vertical ? [Math.min(other.a.y, other.b.y), Math.max(other.a.y, other.b.y)] : [Math.min(other.a.x, other.b.x), Math.max(other.a.x, other.b.x)];
      return gap >= LINE_GAP || Math.min(to, otherTo) - Math.max(from, otherFrom) <= 1;
    });
  };

  for (const edge of input.edges) {
    const route = routes[edge.key];
    if (route?.points.length !== 4) continue;
    const [a, b, c, d] = route.points;
    // `across`: the axis the step goes along, across the two parallel stretches.
    const across = near(a.x, b.x) && near(c.x, d.x) && near(b.y, c.y) ? 'x' : near(a.y, b.y) && near(c.y, d.y) && near(b.x, c.x) ? 'y' : undefined;
    if (!across) continue;
    const step = c[across] - b[across];
    if (Math.abs(step) < 0.5 || Math.abs(step) >= END_STEP) continue;
    const straight = [
      slides(slidable.has(edge.source) ? boxes[edge.source] : undefined, a, across, d[across]) ? [{ ...a, [across]: d[across] }, d] : undefined,
      slides(slidable.has(edge.target) ? boxes[edge.target] : undefined, d, across, a[across]) ? [a, { ...d, [across]: a[across] }] : undefined,
    ].find((line) => line !== undefined && clear(edge, line[0], line[1]));
    if (!straight) continue;
    if (result === routes) result = { ...routes };
    result[edge.key] = { ...route, points: straight };
    segments = undefined;
  }
  return result;
}

/** Whether `end`, on a side of `box` across `across`, can move to `to` along that side, clear of its corners. */
function slides(box: Box | undefined, end: Point, across: 'x' | 'y', to: number): boolean {
  if (!box) return false;
  const onSide = across === 'x' ? near(end.y, box.y) || near(end.y, box.y + box.height) : near(end.x, box.x) || near(end.x, box.x + box.width);
  const [from, length] = across === 'x' ? [box.x, box.width] : [box.y, box.height];
  return onSide && to >= from + CORNER && to <= from + length - CORNER;
}
