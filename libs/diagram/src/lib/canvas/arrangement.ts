import type { ArrangedEdge, ArrangementLists } from '@sc/contracts';
import { GROUP_HEADER, borderPoint, centre, outlinesOf, routeBetweenBoxes, straightLine, type Box, type EdgeRoute, type LayoutInput, type LayoutResult, type Point } from './layout';

/**
 * The merge rule of a synced diagram's arrangement (what people placed by hand) with its graph as the repository
 * says it is today. Pure, no DOM: the dashboard draws with it, the server answers `placed` with it, and its specs
 * check the rule on random edits.
 *
 * - An arranged node or group that still exists, in the same group as when it was arranged, keeps its box.
 * - One moved to another group keeps its place relative to the group (translated by the distance between the two
 *   frames) when that box lies inside the new frame and overlaps nothing kept there; otherwise it is placed like a
 *   new one. The group it was in is the innermost arranged frame that held its centre (the arrangement stores no
 *   parents, only boxes).
 * - Everything else (new elements, and all members of a group that is placed) is placed: as a unit with the
 *   automatic layout of its inside, at the free spot nearest its neighbours (the centre of the boxes it has edges
 *   to), or, without placed neighbours, nearest where the automatic layout put it; never overlapping a box placed
 *   before it (kept boxes come first), inside its group's frame when there is room, else at the nearest spot just
 *   outside the frame's inside that the frame (and the frames around it) can grow to hold — rightwards or downwards,
 *   the frame keeping its place — without covering any element that is not in them; only a frame hemmed in on both
 *   of those sides grows over a neighbour.
 * - Arranged elements that no longer exist drop out; a renamed id is a removed one plus a new one.
 */

/** The room between a placed box and its neighbours, and between a frame and its members. */
const GAP = 16;
const PADDING = 16;
/** Top of a frame's inside: the header row, as layoutDiagram reserves it. */
const HEADER = GROUP_HEADER + 8;

export interface ArrangedDrawing {
  layout: LayoutResult;
  /** Ids of the nodes and groups placed automatically (not where the arrangement has them), in the input's order. */
  placed: string[];
}

/**
 * An element drawn at its box's size (a node resized in arrange mode is larger than its own size; never smaller, see
 * moveBoxes): the same object when the sizes agree, so unchanged nodes are not redrawn.
 */
export function atBoxSize<T extends { width: number; height: number }>(element: T, box: Pick<Box, 'width' | 'height'>): T {
  return Math.abs(element.width - box.width) < 0.5 && Math.abs(element.height - box.height) < 0.5 ? element : { ...element, width: box.width, height: box.height };
}

/** Whether an arrangement places anything at all (none: the diagram is laid out automatically). */
export function isArranged(arrangement: ArrangementLists | null | undefined): arrangement is ArrangementLists {
  return Boolean(arrangement && (arrangement.nodes.length || arrangement.groups.length || arrangement.edges.length));
}

/** `source->target#n`, the canvas's edge key, for an arranged edge. */
export function arrangedEdgeKey(edge: Pick<ArrangedEdge, 'source' | 'target' | 'index'>): string {
  return `${edge.source}->${edge.target}#${edge.index}`;
}

const area = (box: Box) => box.width * box.height;
const contains = (outer: Box, point: Point) => point.x >= outer.x && point.x <= outer.x + outer.width && point.y >= outer.y && point.y <= outer.y + outer.height;
const inside = (outer: Box, inner: Box) =>
  inner.x >= outer.x - 0.01 && inner.y >= outer.y - 0.01 && inner.x + inner.width <= outer.x + outer.width + 0.01 && inner.y + inner.height <= outer.y + outer.height + 0.01;
/** Whether two boxes come closer than `gap` (touching at exactly `gap` is apart). */
export function boxesClash(a: Box, b: Box, gap = 0): boolean {
  const g = Math.max(0, gap - 0.01);
  return a.x < b.x + b.width + g && b.x < a.x + a.width + g && a.y < b.y + b.height + g && b.y < a.y + a.height + g;
}
/** Where members may go inside a frame. */
const content = (frame: Box): Box => ({
  x: frame.x + PADDING,
  y: frame.y + HEADER,
  width: Math.max(0, frame.width - 2 * PADDING),
  height: Math.max(0, frame.height - HEADER - PADDING),
});

interface Element {
  id: string;
  parent?: string;
  group: boolean;
  collapsed: boolean;
  width: number;
  height: number;
}

function elementsOf(input: LayoutInput): Element[] {
  // Groups first (outermost first), so a group's verdict is known before its members'.
  const groups = input.groups.map((group) => ({ id: group.id, parent: group.parent, group: true, collapsed: group.collapsed, width: group.width, height: group.height }));
  const depth = new Map<string, number>();
  const parentOf = new Map(input.groups.map((group) => [group.id, group.parent]));
  const depthOf = (id: string, seen = 0): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const parent = parentOf.get(id);
    const value = parent === undefined || !parentOf.has(parent) || seen > parentOf.size ? 0 : depthOf(parent, seen + 1) + 1;
    depth.set(id, value);
    return value;
  };
  groups.sort((a, b) => depthOf(a.id) - depthOf(b.id));
  const nodes = input.nodes.map((node) => ({ id: node.id, parent: node.parent, group: false, collapsed: false, width: node.width, height: node.height }));
  return [...groups, ...nodes];
}

/**
 * The boxes the arrangement keeps for the elements of `input`, and the ids it does not place (in `input`'s order:
 * groups outermost first, then nodes). Needs only the graph's structure and sizes, not a layout: the server answers
 * `placed` with it.
 */
export function keptBoxes(input: LayoutInput, arrangement: ArrangementLists): { kept: Map<string, Box>; placed: string[] } {
  const storedNodes = new Map(arrangement.nodes.map((node) => [node.id, node]));
  const storedGroups = new Map(arrangement.groups.map((group) => [group.id, group]));
  const elements = elementsOf(input);
  const present = new Set(elements.map((element) => element.id));
  const parentIn = (element: Element) => (element.parent !== undefined && present.has(element.parent) ? element.parent : undefined);

  const storedBox = (element: Element): Box | undefined => {
    if (element.group) {
      const stored = storedGroups.get(element.id);
      if (!stored) return undefined;
      // A collapsed group sits where its frame was.
      return element.collapsed ? { x: stored.x, y: stored.y, width: element.width, height: element.height } : { x: stored.x, y: stored.y, width: stored.width, height: stored.height };
    }
    const stored = storedNodes.get(element.id);
    return stored ? { x: stored.x, y: stored.y, width: stored.width ?? element.width, height: stored.height ?? element.height } : undefined;
  };
  /** The innermost arranged frame (other than the element's own) holding the stored box's centre. */
  const frames = arrangement.groups.map((group) => ({ id: group.id, box: { x: group.x, y: group.y, width: group.width, height: group.height } }));
  const arrangedParent = (id: string, box: Box): string | undefined => {
    let best: { id: string; box: Box } | undefined;
    const middle = centre(box);
    for (const frame of frames) {
      if (frame.id === id || area(frame.box) <= area(box) || !contains(frame.box, middle)) continue;
      if (!best || area(frame.box) < area(best.box)) best = frame;
    }
    return best?.id;
  };

  const parents = new Map(elements.map((element) => [element.id, parentIn(element)]));
  const isAncestor = (maybe: string, id: string): boolean => {
    let current = parents.get(id);
    for (let steps = 0; current !== undefined && steps <= parents.size; steps++) {
      if (current === maybe) return true;
      current = parents.get(current);
    }
    return false;
  };

  const kept = new Map<string, Box>();
  /** How far each kept element was moved from its stored box (only members of a group moved to another group). */
  const shifts = new Map<string, Point>();
  // First what stayed in its group (under groups that stayed): kept as stored, nothing can take their place.
  for (const element of elements) {
    const box = storedBox(element);
    const parent = parents.get(element.id);
    if (!box || (parent !== undefined && !kept.has(parent)) || arrangedParent(element.id, box) !== parent) continue;
    kept.set(element.id, box);
    shifts.set(element.id, { x: 0, y: 0 });
  }
  // Then, outermost first, what moved to another group and what is inside it: its place relative to its old frame
  // (its own, for the members of a moved group) if that lies inside the new frame and clashes with nothing kept.
  for (const element of elements) {
    const box = storedBox(element);
    const parent = parents.get(element.id);
    if (!box || kept.has(element.id) || (parent !== undefined && !kept.has(parent))) continue;
    const before = arrangedParent(element.id, box);
    const from = before !== undefined ? storedGroups.get(before) : undefined;
    const to = parent !== undefined ? kept.get(parent) : undefined;
    const inherited = parent !== undefined ? shifts.get(parent) : undefined;
    let shift: Point = { x: 0, y: 0 };
    if (before === parent && inherited) shift = inherited;
    else if (from && to) shift = { x: to.x - from.x, y: to.y - from.y };
    const shifted = { ...box, x: box.x + shift.x, y: box.y + shift.y };
    if (to && !inside(content(to), shifted)) continue;
    let clash = false;
    for (const [id, other] of kept) {
      if (boxesClash(shifted, other) && !isAncestor(id, element.id)) {
        clash = true;
        break;
      }
    }
    if (clash) continue;
    kept.set(element.id, shifted);
    shifts.set(element.id, shift);
  }
  const placed = elements.filter((element) => !kept.has(element.id)).map((element) => element.id);
  return { kept, placed };
}

/** Boxes by grid cell, so a free-spot check looks at the few boxes near it, not at all of them. */
class BoxIndex {
  private readonly cells = new Map<string, Set<string>>();
  readonly boxes = new Map<string, Box>();
  constructor(private readonly cell = 256) {}

  private keys(box: Box): string[] {
    const keys: string[] = [];
    const x0 = Math.floor((box.x - GAP) / this.cell);
    const x1 = Math.floor((box.x + box.width + GAP) / this.cell);
    const y0 = Math.floor((box.y - GAP) / this.cell);
    const y1 = Math.floor((box.y + box.height + GAP) / this.cell);
    // A very large box (a wide frame) is listed in at most 64×64 cells; beyond that it goes in a catch-all.
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > 4096) return ['*'];
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) keys.push(`${x},${y}`);
    return keys;
  }

  set(id: string, box: Box): void {
    this.boxes.set(id, box);
    for (const key of this.keys(box)) {
      let cell = this.cells.get(key);
      if (!cell) this.cells.set(key, (cell = new Set()));
      cell.add(id);
    }
  }

  /** The first box within `gap` of `box` whose id `ignore` does not exclude. */
  clash(box: Box, gap: number, ignore: (id: string) => boolean): Box | undefined {
    const keys = this.keys(box);
    const seen = new Set<string>();
    for (const key of keys[0] === '*' ? [...this.cells.keys()] : [...keys, '*']) {
      for (const id of this.cells.get(key) ?? []) {
        if (seen.has(id)) continue;
        seen.add(id);
        const other = this.boxes.get(id);
        if (other && !ignore(id) && boxesClash(box, other, gap)) return other;
      }
    }
    return undefined;
  }
}

/** Appends to the list of `key` (in place: a diagram's lists grow one item at a time, thousands of times). */
function listAdd<K>(lists: Map<K, string[]>, key: K, item: string): void {
  const list = lists.get(key);
  if (list) list.push(item);
  else lists.set(key, [item]);
}

/** Units: placed elements whose parent is the top level or a kept group; their members move with them. */
function unitsToPlace<E extends { id: string }>(elements: readonly E[], kept: ReadonlyMap<string, Box>, parentOf: (id: string) => string | undefined): E[] {
  return elements.filter((element) => !kept.has(element.id) && (parentOf(element.id) === undefined || kept.has(parentOf(element.id) as string)));
}

/**
 * What applyArrangement places as a unit (a placed element whose parent is the top level or a kept group: it moves
 * with everything inside it), with its container (undefined: the top level) and its members (itself first), in the
 * input's order (groups outermost first, then nodes); and the boxes kept. For elk-placement.ts, which asks ELK where
 * each unit goes before applyArrangement draws it there.
 */
export function placementUnits(input: LayoutInput, arrangement: ArrangementLists): { kept: Map<string, Box>; units: { id: string; parent?: string; members: string[] }[] } {
  const { kept } = keptBoxes(input, arrangement);
  const { elements, parentOf, subtree } = elementTree(input);
  const units = unitsToPlace(elements, kept, parentOf).map((unit) => {
    const parent = parentOf(unit.id);
    return { id: unit.id, ...(parent !== undefined ? { parent } : {}), members: subtree(unit.id) };
  });
  return { kept, units };
}

/** The input's elements (elementsOf's order) with their parents, children and subtrees (an element and all inside it). */
function elementTree(input: LayoutInput) {
  const elements = elementsOf(input);
  const byId = new Map(elements.map((element) => [element.id, element]));
  const parentOf = (id: string): string | undefined => {
    const parent = byId.get(id)?.parent;
    return parent !== undefined && byId.has(parent) ? parent : undefined;
  };
  const childrenOf = new Map<string | undefined, string[]>();
  for (const element of elements) listAdd(childrenOf, parentOf(element.id), element.id);
  const subtree = (id: string): string[] => {
    const all = [id];
    for (let i = 0; i < all.length; i++) all.push(...(childrenOf.get(all[i]) ?? []));
    return all;
  };
  return { elements, byId, parentOf, childrenOf, subtree };
}

/**
 * The drawing of `input` with `arrangement` applied on top of `auto`, the automatic layout of the same input (for
 * the sizes of placed groups, the inside of placed units and where an element without neighbours goes). Without an
 * arrangement, `auto` itself. `proposed`: where ELK would put the top-left corner of units to place (elkPlacements,
 * by unit id); a unit goes to the free spot nearest that place (the overlap resolution), one without a proposal to
 * the free spot nearest its neighbours.
 */
export function applyArrangement(
  input: LayoutInput,
  auto: LayoutResult,
  arrangement: ArrangementLists | null | undefined,
  proposed: ReadonlyMap<string, Point> = new Map(),
): ArrangedDrawing {
  if (!isArranged(arrangement)) return { layout: auto, placed: [] };
  const { kept, placed } = keptBoxes(input, arrangement);
  const { elements, byId, parentOf, childrenOf, subtree } = elementTree(input);
  const ancestorsOf = (id: string): Set<string> => {
    const found = new Set<string>();
    for (let current = parentOf(id); current !== undefined && !found.has(current); current = parentOf(current)) found.add(current);
    return found;
  };

  const index = new BoxIndex();
  for (const [id, box] of kept) index.set(id, box);
  const autoBox = (element: Element): Box => auto.boxes[element.id] ?? { x: 0, y: 0, width: element.width, height: element.height };

  // Neighbours by edge, for the anchor of a placed unit.
  const neighbours = new Map<string, string[]>();
  for (const edge of input.edges) {
    if (edge.source === edge.target) continue;
    listAdd(neighbours, edge.source, edge.target);
    listAdd(neighbours, edge.target, edge.source);
  }

  /**
   * The frames that must grow to hold `box` with their padding — the kept frame `frameId` and the frames around it —
   * with their grown boxes, innermost first (none when the frame holds it already).
   */
  const grownFrames = (frameId: string | undefined, box: Box): [string, Box][] => {
    const out: [string, Box][] = [];
    for (let id = frameId; id !== undefined; id = parentOf(id)) {
      const frame = index.boxes.get(id);
      if (!frame) break;
      const inner = content(frame);
      if (inside(inner, box)) break;
      const left = Math.min(inner.x, box.x);
      const top = Math.min(inner.y, box.y);
      const right = Math.max(inner.x + inner.width, box.x + box.width);
      const bottom = Math.max(inner.y + inner.height, box.y + box.height);
      const grown = { x: left - PADDING, y: top - HEADER, width: right - left + 2 * PADDING, height: bottom - top + HEADER + PADDING };
      out.push([id, grown]);
      box = grown;
    }
    return out;
  };
  const grow = (frameId: string | undefined, box: Box) => {
    for (const [id, grown] of grownFrames(frameId, box)) index.set(id, grown);
  };
  const isInside = (id: string, frameId: string) => {
    for (let current = parentOf(id); current !== undefined; current = parentOf(current)) if (current === frameId) return true;
    return false;
  };
  /** Whether a frame grown to hold `box` would cover an element that is not in it (nor around it, nor `members`). */
  const growthCovers = (frameId: string | undefined, box: Box, members: ReadonlySet<string>) =>
    grownFrames(frameId, box).some(([id, grown]) => index.clash(grown, 0, (other) => other === id || members.has(other) || isInside(other, id) || isInside(id, other)) !== undefined);

  const units = unitsToPlace(elements, kept, parentOf);
  // Inside the innermost kept frames first, so a frame that grows is known to what is placed around it later.
  const frameDepth = (id: string | undefined) => (id === undefined ? -1 : ancestorsOf(id).size);
  const order = units.map((unit, position) => ({ unit, position, depth: frameDepth(parentOf(unit.id)) }));
  order.sort((a, b) => b.depth - a.depth || a.position - b.position);

  for (const { unit } of order) {
    const parent = parentOf(unit.id);
    const members = new Set(subtree(unit.id));
    const from = autoBox(unit);
    const size = { width: from.width, height: from.height };
    const frame = parent !== undefined ? index.boxes.get(parent) : undefined;
    const room = frame ? content(frame) : undefined;
    const ancestors = ancestorsOf(unit.id);
    const ignore = (id: string) => ancestors.has(id) || members.has(id);

    // Where it would like to be: where ELK proposes, else the centre of its placed neighbours, else its automatic place (moved with its frame).
    const around: Point[] = [];
    for (const member of members) {
      for (const other of neighbours.get(member) ?? []) {
        const box = members.has(other) ? undefined : index.boxes.get(other);
        if (box) around.push(centre(box));
      }
    }
    let anchor: Point;
    const wanted = proposed.get(unit.id);
    if (wanted) {
      // ELK's place for it (elk-placement.ts): the search below only moves it off the boxes it would overlap.
      anchor = { x: wanted.x + size.width / 2, y: wanted.y + size.height / 2 };
    } else if (around.length) {
      anchor = { x: around.reduce((sum, p) => sum + p.x, 0) / around.length, y: around.reduce((sum, p) => sum + p.y, 0) / around.length };
    } else {
      const autoFrame = parent !== undefined ? auto.boxes[parent] : undefined;
      const shift = frame && autoFrame ? { x: frame.x - autoFrame.x, y: frame.y - autoFrame.y } : { x: 0, y: 0 };
      anchor = { x: from.x + shift.x + from.width / 2, y: from.y + shift.y + from.height / 2 };
    }

    // Candidates: centred on the anchor, and beside every box near it (right, left, below, above), nearest first.
    const candidates: Point[] = [{ x: anchor.x - size.width / 2, y: anchor.y - size.height / 2 }];
    if (room) candidates.push({ x: room.x, y: room.y });
    // Beside its siblings only: a sibling frame encloses everything nested in it, and the candidates stay a few per
    // sibling (a 1,000-node diagram's top level holds mostly group frames), not a few per box of the drawing.
    for (const id of childrenOf.get(parent) ?? []) {
      const box = index.boxes.get(id);
      if (!box || ignore(id)) continue;
      const right = box.x + box.width + GAP;
      const below = box.y + box.height + GAP;
      const left = box.x - GAP - size.width;
      const above = box.y - GAP - size.height;
      const alignedY = anchor.y - size.height / 2;
      const alignedX = anchor.x - size.width / 2;
      candidates.push({ x: right, y: box.y }, { x: right, y: alignedY }, { x: left, y: box.y }, { x: left, y: alignedY });
      candidates.push({ x: box.x, y: below }, { x: alignedX, y: below }, { x: box.x, y: above }, { x: alignedX, y: above });
    }
    const distance = (p: Point) => (p.x + size.width / 2 - anchor.x) ** 2 + (p.y + size.height / 2 - anchor.y) ** 2;
    const ranked = candidates.map((p, i) => ({ p, i, d: distance(p) })).sort((a, b) => a.d - b.d || a.i - b.i);
    let spot: Point | undefined;
    for (const { p } of ranked) {
      const box = { ...p, ...size };
      if (room && !inside(room, box)) continue;
      if (!index.clash(box, GAP, ignore)) {
        spot = p;
        break;
      }
    }
    if (!spot && room) {
      // The frame is full: the nearest spot it can grow to hold without covering a neighbour — beside its members
      // across its edge, or just below or right of its inside. Only rightwards and downwards: a kept frame keeps its
      // top-left corner (its place), as every kept box does.
      const bottom = room.y + room.height + GAP;
      const right = room.x + room.width + GAP;
      const outside: Point[] = [
        { x: room.x, y: bottom },
        { x: anchor.x - size.width / 2, y: bottom },
        { x: right, y: room.y },
        { x: right, y: anchor.y - size.height / 2 },
      ];
      const wider = [...ranked.map(({ p }) => p), ...outside].map((p, i) => ({ p, i, d: distance(p) })).sort((a, b) => a.d - b.d || a.i - b.i);
      for (const { p } of wider) {
        const box = { ...p, ...size };
        if (box.x >= room.x && box.y >= room.y && !index.clash(box, GAP, ignore) && !growthCovers(parent, box, members)) {
          spot = p;
          break;
        }
      }
    }
    if (!spot) {
      // No room anywhere (a frame hemmed in on every side by kept boxes): below everything it would overlap, at the
      // left of the frame's inside; the frame grows over what is below it.
      const box = { x: room ? room.x : anchor.x - size.width / 2, y: room ? room.y : anchor.y - size.height / 2, ...size };
      for (let other = index.clash(box, GAP, ignore); other; other = index.clash(box, GAP, ignore)) box.y = other.y + other.height + GAP;
      spot = { x: box.x, y: box.y };
    }
    const dx = spot.x - from.x;
    const dy = spot.y - from.y;
    for (const member of members) {
      const element = byId.get(member);
      if (!element) continue;
      const box = autoBox(element);
      index.set(member, { x: box.x + dx, y: box.y + dy, width: box.width, height: box.height });
    }
    grow(parent, { ...spot, ...size });
  }

  const boxes: Record<string, Box> = {};
  for (const element of elements) {
    const box = index.boxes.get(element.id);
    if (box) boxes[element.id] = box;
  }
  return { layout: { ...routeEdges(input, auto, boxes, arrangement), boxes }, placed };
}

/** Routes for the arranged boxes, and the drawing's size. */
function routeEdges(input: LayoutInput, auto: LayoutResult, boxes: Record<string, Box>, arrangement: ArrangementLists): Omit<LayoutResult, 'boxes'> {
  const bends = new Map(arrangement.edges.map((edge) => [arrangedEdgeKey(edge), edge.points]));
  const shiftOf = (id: string): Point | undefined => {
    const now = boxes[id];
    const before = auto.boxes[id];
    if (!now || !before || Math.abs(now.width - before.width) > 0.5 || Math.abs(now.height - before.height) > 0.5) return undefined;
    return { x: now.x - before.x, y: now.y - before.y };
  };
  const outline = outlinesOf(input);
  const edges = routeBetweenBoxes(input, input.edges, boxes, (edge, sourceBox, targetBox) => {
    // Drawn lines end on the outlines; an automatic route already does.
    const source = outline(edge.source, sourceBox);
    const target = outline(edge.target, targetBox);
    const waypoints = bends.get(edge.key);
    const automatic = auto.edges[edge.key];
    const a = shiftOf(edge.source);
    const b = shiftOf(edge.target);
    let route: EdgeRoute;
    if (waypoints) {
      const first = waypoints[0] ?? centre(target);
      const last = waypoints[waypoints.length - 1] ?? centre(source);
      route = { points: [borderPoint(source, first), ...waypoints.map((p) => ({ x: p.x, y: p.y })), borderPoint(target, last)] };
    } else if (automatic && a && b && Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5) {
      // Both ends moved together (or not at all): the automatic route, moved with them.
      const move = (p: Point) => ({ x: p.x + a.x, y: p.y + a.y });
      route = { points: automatic.points.map(move), ...(automatic.label ? { label: move(automatic.label) } : {}) };
    } else {
      route = { points: straightLine(source, target) };
    }
    if (!route.label && edge.labelWidth && edge.labelHeight) {
      const middle = Math.floor((route.points.length - 1) / 2);
      const p = route.points[middle];
      const q = route.points[middle + 1] ?? p;
      route.label = { x: (p.x + q.x) / 2 - edge.labelWidth / 2, y: (p.y + q.y) / 2 - edge.labelHeight / 2 };
    }
    return route;
  });
  let width = 0;
  let height = 0;
  for (const box of Object.values(boxes)) {
    width = Math.max(width, box.x + box.width + PADDING);
    height = Math.max(height, box.y + box.height + PADDING);
  }
  for (const route of Object.values(edges)) {
    for (const p of route.points) {
      width = Math.max(width, p.x + PADDING);
      height = Math.max(height, p.y + PADDING);
    }
  }
  return { width, height, edges };
}

/**
 * The arrangement to save for a drawing: every box of `input` as `layout` draws it, the bends in `bends` (by edge
 * key), and from `previous` what is hidden now (members of collapsed groups, moved with their group when it was
 * moved) as long as the whole graph (`graph`: every node's and group's parent, every edge by key) still has it. A collapsed group keeps its
 * frame's size from `previous`.
 */
export function arrangementOf(
  input: LayoutInput,
  layout: LayoutResult,
  bends: ReadonlyMap<string, Point[]>,
  previous: ArrangementLists | null | undefined,
  graph: { parentOf: ReadonlyMap<string, string | undefined>; edges: ReadonlyMap<string, { source: string; target: string; index: number }> },
): ArrangementLists {
  const visible = new Set([...input.nodes.map((node) => node.id), ...input.groups.map((group) => group.id)]);
  const before = new Map((previous?.groups ?? []).map((group) => [group.id, group]));
  const shifts = new Map<string, Point>();
  const groups: ArrangementLists['groups'] = [];
  for (const group of input.groups) {
    const box = layout.boxes[group.id];
    if (!box) continue;
    const old = before.get(group.id);
    if (group.collapsed && old) {
      shifts.set(group.id, { x: box.x - old.x, y: box.y - old.y });
      groups.push({ id: group.id, x: box.x, y: box.y, width: old.width, height: old.height });
    } else groups.push({ id: group.id, x: box.x, y: box.y, width: box.width, height: box.height });
  }
  /** The move of the nearest collapsed group around a hidden element. */
  const shiftOf = (id: string): Point => {
    for (let current = graph.parentOf.get(id); current !== undefined; current = graph.parentOf.get(current)) {
      const shift = shifts.get(current);
      if (shift) return shift;
    }
    return { x: 0, y: 0 };
  };
  const hidden = (id: string) => !visible.has(id) && graph.parentOf.has(id);
  for (const group of previous?.groups ?? []) {
    if (!hidden(group.id)) continue;
    const shift = shiftOf(group.id);
    groups.push({ ...group, x: group.x + shift.x, y: group.y + shift.y });
  }
  const nodes: ArrangementLists['nodes'] = [];
  for (const node of input.nodes) {
    const box = layout.boxes[node.id];
    if (!box) continue;
    const resized = Math.abs(box.width - node.width) > 0.5 || Math.abs(box.height - node.height) > 0.5;
    nodes.push({ id: node.id, x: box.x, y: box.y, ...(resized ? { width: box.width, height: box.height } : {}) });
  }
  for (const node of previous?.nodes ?? []) {
    if (!hidden(node.id)) continue;
    const shift = shiftOf(node.id);
    nodes.push({ ...node, x: node.x + shift.x, y: node.y + shift.y });
  }
  const edges: ArrangementLists['edges'] = [];
  const written = new Set<string>();
  for (const [key, points] of bends) {
    const edge = graph.edges.get(key);
    if (!edge) continue;
    written.add(key);
    edges.push({ source: edge.source, target: edge.target, index: edge.index, points: points.map((p) => ({ x: p.x, y: p.y })) });
  }
  for (const edge of previous?.edges ?? []) {
    const key = arrangedEdgeKey(edge);
    if (!written.has(key) && graph.edges.has(key)) edges.push(edge);
  }
  return { nodes, groups, edges };
}

/**
 * The boxes after a drag in arrange mode: each moved node at its new place, each moved group with everything drawn
 * inside it, each resized node or frame at its new size (never below its own), then every frame grown (innermost first) to hold its members. Null when the result would put an element
 * inside a frame it is not a member of: that drawing would say something the graph does not, and the saved
 * arrangement tells which group each element was in only by the frame holding its centre.
 */
export function moveBoxes(input: LayoutInput, boxes: Readonly<Record<string, Box>>, moves: readonly ({ id: string; width?: number; height?: number } & Point)[]): Record<string, Box> | null {
  const next: Record<string, Box> = { ...boxes };
  const parentOf = new Map<string, string | undefined>([...input.groups.map((g) => [g.id, g.parent] as const), ...input.nodes.map((n) => [n.id, n.parent] as const)]);
  const inside = (id: string, group: string) => {
    for (let current = parentOf.get(id), steps = 0; current !== undefined && steps <= parentOf.size; current = parentOf.get(current), steps++) if (current === group) return true;
    return false;
  };
  for (const move of moves) {
    const box = next[move.id];
    if (!box) continue;
    const dx = move.x - box.x;
    const dy = move.y - box.y;
    // A resize (a corner dragged). A frame: never narrower than its header row (the group's least width) nor lower
    // than the header; frames still grow to hold their members below. A node: never smaller than its own size (what
    // its label and rows need), so its text stays whole.
    const ownNode = input.nodes.find((n) => n.id === move.id);
    const least = ownNode ? ownNode : { width: input.groups.find((group) => group.id === move.id)?.width ?? 0, height: 0 };
    const width = Math.max(move.width ?? box.width, least.width, 2 * PADDING);
    const height = Math.max(move.height ?? box.height, least.height, ownNode ? 0 : HEADER + PADDING);
    if (dx === 0 && dy === 0 && width === box.width && height === box.height) continue;
    next[move.id] = { x: move.x, y: move.y, width, height };
    if (dx === 0 && dy === 0) continue;
    if (!input.groups.some((group) => group.id === move.id)) continue;
    for (const id of parentOf.keys()) {
      const member = next[id];
      if (member && inside(id, move.id)) next[id] = { ...member, x: member.x + dx, y: member.y + dy };
    }
  }
  // Frames hold their members, innermost first (deepest groups first).
  const depth = (id: string) => {
    let d = 0;
    for (let current = parentOf.get(id); current !== undefined && d <= parentOf.size; current = parentOf.get(current)) d++;
    return d;
  };
  for (const group of [...input.groups].filter((g) => !g.collapsed).sort((a, b) => depth(b.id) - depth(a.id))) {
    const frame = next[group.id];
    if (!frame) continue;
    let { x: left, y: top } = content(frame);
    let right = left + content(frame).width;
    let bottom = top + content(frame).height;
    for (const [id, parent] of parentOf) {
      const member = next[id];
      if (parent !== group.id || !member) continue;
      left = Math.min(left, member.x);
      top = Math.min(top, member.y);
      right = Math.max(right, member.x + member.width);
      bottom = Math.max(bottom, member.y + member.height);
    }
    next[group.id] = { x: left - PADDING, y: top - HEADER, width: right - left + 2 * PADDING, height: bottom - top + HEADER + PADDING };
  }
  for (const group of input.groups) {
    const frame = next[group.id];
    if (!frame || group.collapsed) continue;
    for (const id of parentOf.keys()) {
      const box = next[id];
      if (box && id !== group.id && !inside(id, group.id) && !inside(group.id, id) && contains(frame, centre(box))) return null;
    }
  }
  return next;
}

/**
 * "Auto-arrange selection": the arrangement without the boxes of `ids` — and of everything inside those that are
 * groups — nor the bends of the edges touching them. applyArrangement then places them like new elements (a group as
 * a unit with the automatic layout of its inside), near their neighbours and around everything still arranged.
 */
export function withoutArranged(arrangement: ArrangementLists, ids: Iterable<string>, parentOf: ReadonlyMap<string, string | undefined>): ArrangementLists {
  const chosen = new Set(ids);
  const within = (id: string) => {
    for (let current: string | undefined = id, steps = 0; current !== undefined && steps <= parentOf.size; current = parentOf.get(current), steps++) if (chosen.has(current)) return true;
    return false;
  };
  return {
    nodes: arrangement.nodes.filter((node) => !within(node.id)),
    groups: arrangement.groups.filter((group) => !within(group.id)),
    edges: arrangement.edges.filter((edge) => !within(edge.source) && !within(edge.target)),
  };
}
