import type { ElkExtendedEdge, ElkNode, ElkPort } from 'elkjs/lib/elk-api';
import { stepAcross, withoutSmallSteps } from './small-steps';
import { SYMBOL_SHAPES, onOutline, outlinePolygon, type DrawnShape } from './shapes';

/**
 * Layered layout of a diagram with nested groups, one ELK run per group ("container") from the innermost out.
 *
 * Why not one ELK run over the whole compound graph (hierarchyHandling INCLUDE_CHILDREN)? On the benchmark's
 * 1,000-node diagram that takes 6–10 s; per container it takes a few hundred milliseconds, and each container's
 * result is cached by its exact input, so collapsing a group re-lays out only the containers above it and those its
 * edges enter (their ports are named by the trees' sources or targets), and expanding it again finds every
 * container's earlier result: the drawing comes back exactly as before.
 *
 * An edge between elements of different groups is cut where it crosses a group's frame: a port on the frame, and one
 * segment per container on the way (inside the source's groups out to their ports, between the two outermost
 * members in the innermost container holding both ends, inside the target's groups in from their ports). ELK routes
 * every segment around the boxes of its container, and a group's ports keep the positions its own layout gave them
 * when its parent is laid out, so the joined route passes through no box and no frame it does not enter or leave.
 * Pure: no DOM, so it runs in a Web Worker and in unit tests alike.
 */

export type LayoutDirection = 'RIGHT' | 'DOWN' | 'LEFT' | 'UP';

export interface LayoutInput {
  direction: LayoutDirection;
  /**
   * `belowOutline`: height of what is drawn under the node's outline (a shape's data fields, a symbol's label), 0 or
   * absent: none. Lines end on the outline, never beside or below that.
   * `shape`: the outline drawn in the node's box (above its rows) where lines end on it rather than on the box.
   * `gather`: the node's lines meet at one point on each side (a state's start or end mark, too small for a row of
   * arrowheads side by side): one arrowhead where several lines end.
   */
  nodes: { id: string; width: number; height: number; parent?: string; belowOutline?: number; shape?: DrawnShape; gather?: boolean }[];
  /**
   * Visible groups; a collapsed group is a box of the given size, an expanded one wraps its members. `header`: how far
   * the expanded group's header row is taken from its left end (name, type) and from its right end (the button), where
   * no line may cross it.
   */
  groups: { id: string; parent?: string; collapsed: boolean; width: number; height: number; header?: { left: number; right: number } }[];
  /**
   * `stroke`: how the line is drawn where it is not the plain line (colour, width, dash, change status). Lines share
   * a trunk only with lines drawn alike, so no line hides another under it (an added edge over a removed one).
   */
  edges: { key: string; source: string; target: string; labelWidth?: number; labelHeight?: number; stroke?: string }[];
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

/** Where edges leave and enter a group's frame for each direction of the layout. */
const PORT_SIDES: Record<LayoutDirection, { out: string; in: string }> = {
  RIGHT: { out: 'EAST', in: 'WEST' },
  LEFT: { out: 'WEST', in: 'EAST' },
  DOWN: { out: 'SOUTH', in: 'NORTH' },
  UP: { out: 'NORTH', in: 'SOUTH' },
};

/** ELK's algorithm, routing and spacing as the canvas draws them (also the draft editor's one-run layout). */
export const LAYERED_OPTIONS: Readonly<Record<string, string>> = {
  'elk.algorithm': 'layered',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.spacing.nodeNode': '28',
  'elk.layered.spacing.nodeNodeBetweenLayers': '56',
  'elk.spacing.edgeNode': '14',
  'elk.spacing.edgeEdge': '10',
  'elk.spacing.edgeLabel': '4',
  'elk.edgeLabels.placement': 'CENTER',
  // Where a cycle needs an edge against the flow, ELK's greedy choice (fewest such edges) breaks ties by the order of
  // the members (inAuthorsOrder): the edge that closes the cycle in the source goes back, as in Mermaid's own drawing.
  'elk.layered.cycleBreaking.strategy': 'GREEDY_MODEL_ORDER',
};

/**
 * Containers with more members than this are generated or grown rather than drawn by hand: ELK runs there are tuned
 * for time and size (below), and are not repeated to move a group's ports.
 */
const LARGE_CONTAINER = 30;

function layoutOptions(direction: LayoutDirection, container: string, childCount: number, minimum?: { width: number; height: number }): Record<string, string> {
  const top = container === ROOT ? GROUP_PADDING : GROUP_HEADER + 8;
  const large = childCount > LARGE_CONTAINER;
  return {
    ...LAYERED_OPTIONS,
    'elk.direction': direction,
    'elk.padding': `[top=${top},left=${GROUP_PADDING},bottom=${GROUP_PADDING},right=${GROUP_PADDING}]`,
    // Larger containers: one crossing-minimisation sweep instead of seven, a third of ELK's time there.
    'elk.layered.thoroughness': large ? '1' : '7',
    // Larger containers are generated or grown rather than read in their source's order, and plain greedy cycle
    // breaking draws them smaller: the 5,000-node benchmark diagram 5,705 megapixels against 6,761 in model order,
    // with as many edges against the flow.
    ...(large ? { 'elk.layered.cycleBreaking.strategy': 'GREEDY' } : {}),
    // A group's ports stay on the side facing the flow; ELK chooses where along it.
    'elk.portConstraints': 'FIXED_SIDE',
    // A group's frame is at least as wide as its header (name, type and button), however narrow its members.
    ...(minimum ? { 'elk.nodeSize.constraints': 'MINIMUM_SIZE', 'elk.nodeSize.minimum': `(${minimum.width}, ${minimum.height})` } : {}),
    // The top level of a large diagram is mostly group frames of very different heights: ELK's default placement
    // (Brandes–Köpf) aligns them along their edges and stacked the generated 1,000-node diagram 40% taller than its
    // tallest layer (about 700 megapixels, past what a PNG may be even at its smallest scale). Centring each layer
    // instead halves the drawing (5,000 nodes: a third), with no line through a box either.
    ...(container === ROOT && large ? { 'elk.layered.nodePlacement.strategy': 'SIMPLE' } : {}),
  };
}

/**
 * A box with more lines on one side than fit 10 px apart (the spacing of parallel lines, `elk.spacing.edgeEdge`)
 * grows along that side until they do: 13 lines out of a 38 px box were 2.5 px apart, their arrowheads and dashes
 * indistinguishable where they left it. ELK sizes the node from its lines' ends (`PORTS`), never below its own size.
 * Not a drawn shape (a circle would turn into an ellipse) nor a node with rows, whose ends are ports already.
 */
function roomFor(size: { width: number; height: number }): Pick<ElkNode, 'layoutOptions'> {
  return { layoutOptions: { 'elk.nodeSize.constraints': 'PORTS MINIMUM_SIZE', 'elk.nodeSize.minimum': `(${size.width}, ${size.height})`, 'elk.spacing.portPort': '10' } };
}

/**
 * Nodes drawn with rows under their outline (a shape and its data fields), as ELK sees them: the outline is the node,
 * so its edges end on the shape, never beside or below the rows, which have no border; the rows are a label outside
 * the node, below it, which ELK keeps clear of other nodes and edges as it does any node label. Each edge end at
 * such a node has a port of its own on the outline (ELK chooses their order along a side, as it does for a node
 * without ports, so edges leave and arrive side by side instead of sharing one line): on the sides the flow
 * names, except that an end the flow would put on the bottom, across the rows, goes to the outline's east side.
 * A node that gathers its lines (`gather`) has one port in the middle of each side its lines use, shared by them all.
 * Shared by the viewer's layoutDiagram and the draft editor's one-run layout.
 */
export function outlineNodesOf(input: Pick<LayoutInput, 'nodes' | 'direction'>): {
  /** Height of the rows under the node's outline; undefined for a node without rows. */
  rowsOf: (id: string) => number | undefined;
  /**
   * `edges` with their ends at nodes with rows (or that gather their lines) moved to ports, and for each such node
   * among the ends, what its ELK node takes instead of its box: the outline's height, the rows' label, the ports. An
   * edge that `against` names runs against the flow (toward a group port moved to face it): its ends take the other
   * sides. `strokeOf`: how a segment's lines are drawn (the edges' `stroke`); only lines drawn alike share a gathering
   * node's port, as only they share a trunk.
   */
  onOutlines: (
    edges: readonly ElkExtendedEdge[],
    against?: (edge: ElkExtendedEdge) => boolean,
    strokeOf?: (edge: ElkExtendedEdge) => string | undefined,
  ) => { edges: ElkExtendedEdge[]; node: (id: string) => Pick<ElkNode, 'height' | 'labels' | 'ports' | 'layoutOptions'> | undefined };
} {
  const nodes = new Map<string, LayoutInput['nodes'][number]>();
  for (const node of input.nodes) if (node.belowOutline || node.gather) nodes.set(node.id, node);
  // The bottom side is under the rows: those ends go to the east side (a node without rows keeps the flow's side).
  const sideOf = (way: 'out' | 'in', rows: boolean) => (rows && PORT_SIDES[input.direction][way] === 'SOUTH' ? 'EAST' : PORT_SIDES[input.direction][way]);
  return {
    rowsOf: (id) => nodes.get(id)?.belowOutline,
    onOutlines: (edges, against, strokeOf) => {
      const ports = new Map<string, ElkPort[]>();
      const known = new Set<string>();
      const end = (id: string, way: 'out' | 'in', edge: ElkExtendedEdge, side: 'out' | 'in'): string => {
        const node = nodes.get(id);
        if (!node) return id;
        const stroke = node.gather ? strokeOf?.(edge) : undefined;
        const port = node.gather ? `${id}\u0001${side}${stroke ? `\u0001${stroke}` : ''}` : `${id}\u0001${edge.id}\u0001${way}`;
        // A gathering node's port serves every line of its side and stroke: made once.
        if (known.has(port)) return port;
        known.add(port);
        let list = ports.get(id);
        if (!list) ports.set(id, (list = []));
        list.push({ id: port, width: 0, height: 0, layoutOptions: { 'elk.port.side': sideOf(side, Boolean(node.belowOutline)) } });
        return port;
      };
      const moved = edges.map((edge) => {
        const back = against?.(edge) ?? false;
        return { ...edge, sources: edge.sources.map((id) => end(id, 'out', edge, back ? 'in' : 'out')), targets: edge.targets.map((id) => end(id, 'in', edge, back ? 'out' : 'in')) };
      });
      return {
        edges: moved,
        node: (id): Pick<ElkNode, 'height' | 'labels' | 'ports' | 'layoutOptions'> | undefined => {
          const node = nodes.get(id);
          if (!node) return undefined;
          if (!node.belowOutline) return { ports: ports.get(id) ?? [], layoutOptions: { 'elk.portConstraints': 'FIXED_SIDE', 'elk.portAlignment.default': 'CENTER' } };
          // A symbol's circle (40 px) is centred in a box as wide as its label: its lines gather in the middle of each
          // side, close together, so that they meet the circle.
          const symbol: Record<string, string> = node.shape !== undefined && SYMBOL_SHAPES.has(node.shape) ? { 'elk.portAlignment.default': 'CENTER', 'elk.spacing.portPort': '6' } : {};
          return {
            height: node.height - node.belowOutline,
            labels: [{ id: `${id}\u0001rows`, text: 'rows', width: node.width, height: node.belowOutline }],
            ports: ports.get(id) ?? [],
            layoutOptions: { 'elk.portConstraints': 'FIXED_SIDE', 'elk.nodeLabels.placement': '[OUTSIDE, V_BOTTOM, H_LEFT]', 'elk.spacing.labelNode': '0', ...symbol },
          };
        },
      };
    },
  };
}

/**
 * The part of an element's box its outline takes, by id: all of it, or the top of a node with rows drawn under its
 * outline. Lines drawn straight (not routed by ELK) end on it.
 */
export function outlinesOf(input: Pick<LayoutInput, 'nodes'>): (id: string, box: Box) => Box {
  const below = new Map<string, number>();
  for (const node of input.nodes) if (node.belowOutline) below.set(node.id, node.belowOutline);
  return (id, box) => {
    const rows = below.get(id);
    return rows ? { ...box, height: Math.max(box.height - rows, 0) } : box;
  };
}

/**
 * Carries each end of a route that reaches a node's box on to the node's outline where the outline leaves the box's
 * border empty there (a diamond, an ellipse, a cylinder's curved top, …): along the route's first or last stretch, so an
 * orthogonal route stays orthogonal and a straight line stays straight. Every way of drawing routes ends with it (ELK's
 * routes, stored ones, arranged drawings, lines drawn in place), so no line stops in the air beside a shape.
 */
export function endsOnShapesOf(input: Pick<LayoutInput, 'nodes'>): (edge: { source: string; target: string }, route: EdgeRoute, source: Box, target: Box) => EdgeRoute {
  const shapes = new Map<string, DrawnShape>();
  for (const node of input.nodes) if (node.shape) shapes.set(node.id, node.shape);
  if (shapes.size === 0) return (_edge, route) => route;
  const outline = outlinesOf(input);
  /** `end` on the outline of node `id` drawn in `box`, reached from `from`. */
  const endOn = (id: string, box: Box, from: Point, end: Point): Point => {
    const shape = shapes.get(id);
    if (!shape) return end;
    const { x, y, width, height } = outline(id, box);
    const polygon = outlinePolygon(shape, width, height);
    return polygon ? onOutline(from, end, polygon.map((p) => ({ x: x + p.x, y: y + p.y }))) : end;
  };
  return (edge, route, source, target) => {
    const points = route.points;
    if (points.length < 2 || (!shapes.has(edge.source) && !shapes.has(edge.target))) return route;
    const first = endOn(edge.source, source, points[1], points[0]);
    const last = endOn(edge.target, target, points[points.length - 2], points[points.length - 1]);
    if (first === points[0] && last === points[points.length - 1]) return route;
    return { ...route, points: [first, ...points.slice(1, -1), last] };
  };
}

/**
 * The graph handed to the engine for one container: the container as the only child of a frame laid out by ELK's
 * `fixed` algorithm. ELK places a graph's own ports ("external ports") only for a node that has a parent, so the
 * container cannot be the top of the graph.
 */
export function containerGraph(frame: ElkNode): ElkNode | undefined {
  return frame.children?.[0];
}

/** One part of an edge's route, laid out in one container between members or ports of members. */
interface Segment {
  container: string;
  id: string;
}

/**
 * Compares two members of one container by where the diagram first names them (a group: where it first names a
 * member). ELK's cycle breaking follows the order of a container's members: where a cycle must be drawn with one edge
 * against the flow, it is the edge that closes the cycle in the source (`client --> gateway --> validate`, then
 * `validate --> client`), so the drawing reads in the author's order, as Mermaid's own does. A group none of whose
 * members is drawn (collapsed) comes after the others, in its own order. Both layouts sort by it.
 */
export function inAuthorsOrder(input: Pick<LayoutInput, 'nodes' | 'groups'>): (a: string, b: string) => number {
  const rank = new Map<string, number>();
  const parentOf = new Map<string, string | undefined>(input.groups.map((group) => [group.id, group.parent]));
  input.nodes.forEach((node, index) => {
    rank.set(node.id, index);
    // Each group around the node is named here at the latest.
    for (let group = node.parent; group !== undefined && !rank.has(group); group = parentOf.get(group)) rank.set(group, index);
  });
  const rankOf = (id: string) => rank.get(id) ?? Number.POSITIVE_INFINITY;
  // `|| 0`: two groups without a drawn member compare equal (Infinity - Infinity is NaN), so the sort keeps their order.
  return (a, b) => rankOf(a) - rankOf(b) || 0;
}

export async function layoutDiagram(elk: ElkEngine, input: LayoutInput, cache: LayoutCache): Promise<LayoutResult> {
  const parentOf = new Map<string, string>();
  const sizeOf = new Map<string, { width: number; height: number }>();
  const minimumOf = new Map<string, { width: number; height: number }>();
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
    else minimumOf.set(group.id, { width: group.width, height: GROUP_HEADER + 8 + GROUP_PADDING });
  }
  for (const node of input.nodes) {
    place(node.id, node.parent);
    sizeOf.set(node.id, { width: node.width, height: node.height });
  }
  const byAuthorsOrder = inAuthorsOrder(input);
  for (const members of containers.values()) members.sort(byAuthorsOrder);
  /** Nodes drawn as a plain box, which may grow to give each of its lines room (roomFor). */
  const roomyBoxes = new Set(input.nodes.filter((node) => !node.shape && !node.belowOutline && !node.gather).map((node) => node.id));
  /** Nodes with rows under their outline: ELK lays out the outline, and their edges end on it. */
  const outlineNodes = outlineNodesOf(input);

  /** Containers enclosing an element, outermost first, then the element. */
  const chainOf = (id: string): string[] => {
    const chain = [id];
    for (let current = parentOf.get(id); current !== undefined; current = current === ROOT ? undefined : parentOf.get(current)) {
      chain.unshift(current);
    }
    return chain;
  };

  const sides = PORT_SIDES[input.direction];
  /** Each expanded group's ports and each container's segments (id → ELK edge). */
  const ports = new Map<string, Set<string>>();
  /** Which group each port is on, and whether its lines leave or enter the group there. */
  const portOwners = new Map<string, { group: string; way: 'out' | 'in' }>();
  /** Group ports moved to the side facing their lines (see the passes below). */
  const movedPorts = new Set<string>();
  /** Segments between two members, one of them a node with rows, that ELK drew against the flow (see the passes below). */
  const backSegments = new Set<string>();
  /** The side a port is on: the flow's side for its way, the other one once moved. */
  const sideOfPort = (id: string): string => {
    const way = portOwners.get(id)?.way ?? 'out';
    return sides[movedPorts.has(id) ? (way === 'out' ? 'in' : 'out') : way];
  };
  const segments = new Map<string, Map<string, ElkExtendedEdge>>();
  const portOf = (group: string, way: 'out' | 'in', toward: string): string => {
    // \u0001, not NUL: port and segment ids are keys of the stored layout, and PostgreSQL's jsonb holds no NUL.
    const id = `${group}\u0001${way}\u0001${toward}`;
    let groupPorts = ports.get(group);
    if (!groupPorts) ports.set(group, (groupPorts = new Set()));
    groupPorts.add(id);
    portOwners.set(id, { group, way });
    return id;
  };
  /** A segment between two ends in a container; segments with the same ends are one (a bundle). */
  const segment = (container: string, source: string, target: string, id = `${source}\u0001${target}`): Segment => {
    let inContainer = segments.get(container);
    if (!inContainer) segments.set(container, (inContainer = new Map()));
    if (!inContainer.has(id)) inContainer.set(id, { id, sources: [source], targets: [target] });
    return { container, id };
  };

  /** Ports where a line ends at an expanded group itself (placed once the group is laid out: see placeFramePorts). */
  const framePorts = new Set<string>();
  /**
   * The segments from an edge's end through each group holding it, innermost first, up to the container at `depth`
   * (out to a port of each group, or in from one), and the port reached there (the end itself when it is a member).
   * A line to or from an expanded group itself ends at a port on the group's frame: ELK ends a line at the corner of
   * a node whose ports are fixed.
   */
  const throughFrames = (chain: string[], depth: number, way: 'out' | 'in', toward: string): { end: string; parts: Segment[] } => {
    const parts: Segment[] = [];
    const element = chain[chain.length - 1];
    let end = element;
    if (element !== ROOT && containers.has(element)) {
      end = portOf(element, way, toward);
      framePorts.add(end);
    }
    for (let level = chain.length - 2; level > depth; level--) {
      const port = portOf(chain[level], way, toward);
      parts.push(way === 'out' ? segment(chain[level], end, port) : segment(chain[level], port, end));
      end = port;
    }
    return { end, parts };
  };

  // Where each edge runs: the groups holding each end, outermost first, and the level of the innermost container
  // holding both (its members `source` and `target` are where the edge's middle segment runs between).
  const placed: { edge: LayoutInput['edges'][number]; sourceChain: string[]; targetChain: string[]; depth: number; labelled: boolean }[] = [];
  for (const edge of input.edges) {
    if (!parentOf.has(edge.source) || !parentOf.has(edge.target)) continue;
    const sourceChain = chainOf(edge.source);
    const targetChain = chainOf(edge.target);
    let depth = 0;
    while (depth < sourceChain.length - 2 && depth < targetChain.length - 2 && sourceChain[depth + 1] === targetChain[depth + 1]) depth++;
    const source = sourceChain[depth + 1];
    const target = targetChain[depth + 1];
    // One end inside the other (an edge from a group to its own member): drawn straight, not laid out.
    if (source === undefined || target === undefined || (source === target && edge.source !== edge.target)) continue;
    placed.push({ edge, sourceChain, targetChain, depth, labelled: Boolean(edge.labelWidth && edge.labelHeight) });
  }

  // Unlabelled edges from inside one member to inside another share ports and a middle segment in trees: from one
  // source node out to its targets, or from the sources in to one target node, whichever makes fewer trees between
  // those two members (one API to many tables: a tree from the API; many services to one database: a tree into it).
  // A tree says who connects to whom; a trunk shared by edges of different sources and targets would not. A labelled
  // edge has ports of its own, so its label has a segment of its own. Only lines drawn alike share a tree: a trunk
  // is drawn once per line over it, and the last one drawn would hide the others (a removed edge under an added one).
  const strokeOf = (item: (typeof placed)[number]) => (item.edge.stroke ? `\u0001${item.edge.stroke}` : '');
  const between = (item: (typeof placed)[number]) => `${item.sourceChain[item.depth + 1]}\u0001${item.targetChain[item.depth + 1]}${strokeOf(item)}`;
  const ends = new Map<string, { sources: Set<string>; targets: Set<string> }>();
  for (const item of placed) {
    if (item.labelled) continue;
    const key = between(item);
    let pair = ends.get(key);
    if (!pair) ends.set(key, (pair = { sources: new Set(), targets: new Set() }));
    pair.sources.add(item.edge.source);
    pair.targets.add(item.edge.target);
  }
  const treeOf = (item: (typeof placed)[number]): string => {
    if (item.labelled) return item.edge.key;
    const pair = ends.get(between(item));
    return (pair && pair.targets.size < pair.sources.size ? `to\u0001${item.edge.target}` : `from\u0001${item.edge.source}`) + strokeOf(item);
  };

  // Each edge: the segments of its route in order, and the one in the innermost container holding both ends (where
  // its label goes).
  const routes = new Map<string, { parts: Segment[]; middle: number }>();
  /** How the lines over a segment are drawn, where not plain (a segment's lines are drawn alike: see treeOf). */
  const strokes = new Map<string, string>();
  for (const item of placed) {
    const { edge, sourceChain, targetChain, depth, labelled } = item;
    const tree = treeOf(item);
    // Out of the source's groups and into the target's, each innermost first.
    const out = throughFrames(sourceChain, depth, 'out', tree);
    const into = throughFrames(targetChain, depth, 'in', tree);
    const from = out.end;
    const to = into.end;
    const container = sourceChain[depth];
    const nested = from !== edge.source || to !== edge.target;
    // Direct edges between two members keep one segment each (parallel edges are drawn apart), named by the edge.
    const middle = nested && !labelled ? segment(container, from, to) : segment(container, from, to, edge.key);
    if (labelled) {
      const elkEdge = segments.get(container)?.get(middle.id);
      // ELK places a label only when it has text; the text itself is drawn by the canvas.
      if (elkEdge && !elkEdge.labels) elkEdge.labels = [{ id: `${edge.key}\u0000label`, text: 'label', width: edge.labelWidth ?? 0, height: edge.labelHeight ?? 0 }];
    }
    routes.set(edge.key, { parts: [...out.parts, middle, ...into.parts.reverse()], middle: out.parts.length });
    if (edge.stroke) for (const part of [...out.parts, middle, ...into.parts]) strokes.set(part.id, edge.stroke);
  }

  // Innermost containers first, so each group's size and ports are known when its parent is laid out. Containers of
  // the same height (longest path down to a group without nested groups) do not depend on each other: they are laid
  // out together, so an engine with several workers runs them in parallel.
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
  const headers = new Map(input.groups.flatMap((group) => (group.header && !group.collapsed ? [[group.id, group.header] as const] : [])));
  /** ELK's layout of a container graph, from the cache when it has laid out the same graph before. */
  const run = async (graph: ElkNode): Promise<ElkNode> => {
    const frame: ElkNode = { id: `${graph.id}\u0000frame`, layoutOptions: { 'elk.algorithm': 'fixed' }, children: [graph] };
    const key = JSON.stringify(frame);
    let result = cache.get(key);
    if (!result) {
      // ELK writes its result into the graph it is given: a fresh copy, from the key that is already a serialization.
      result = containerGraph(await elk.layout(JSON.parse(key) as ElkNode));
      if (!result) throw new Error(`The layout engine answered no layout for ${graph.id}.`);
      cache.set(key, result);
    }
    return result;
  };
  const layOut = async (container: string): Promise<void> => {
    const children = containers.get(container) ?? [];
    // A segment to or from a port moved to face its line runs against the flow at its other end too.
    const ends = outlineNodes.onOutlines(
      [...(segments.get(container)?.values() ?? [])],
      (edge) => backSegments.has(edge.id) || movedPorts.has(edge.sources[0]) || movedPorts.has(edge.targets[0]),
      (edge) => strokes.get(edge.id),
    );
    const graph: ElkNode = {
      id: container,
      layoutOptions: layoutOptions(input.direction, container, children.length, minimumOf.get(container)),
      ...(ports.has(container) ? { ports: [...(ports.get(container) ?? [])].map((id) => ({ id, layoutOptions: { 'elk.port.side': sideOfPort(id) } })) } : {}),
      children: children.map((id) => {
        const inner = laidOut.get(id);
        if (!inner) {
          const size = sizeOf.get(id) ?? { width: 0, height: 0 };
          return { id, ...size, ...(roomyBoxes.has(id) ? roomFor(size) : ends.node(id)) };
        }
        // A group laid out already: a box of its size with its ports where its own layout put them.
        return {
          id,
          width: inner.width ?? 0,
          height: inner.height ?? 0,
          ...(inner.ports?.length
            ? { ports: inner.ports.map((port) => ({ id: port.id, x: port.x ?? 0, y: port.y ?? 0 })), layoutOptions: { 'elk.portConstraints': 'FIXED_POS' } }
            : {}),
        };
      }),
      edges: ends.edges,
    };
    let result = await run(graph);
    // Lines through a group's top side cross its header row: where ELK put a port under the name or the button, the
    // group is laid out again with its ports fixed, those moved into the room between (the group widened if needed).
    // Not a large group, whose ELK runs are tuned for time and not repeated (as for ports against the flow).
    const header = headers.get(container);
    const clear = header && children.length <= LARGE_CONTAINER && portsClearOfHeader(result, header, (port) => sideOfPort(port.id) === 'NORTH');
    if (clear) {
      // Fixed ports are where they are in a box of the given size: ELK moves those on the far sides as it resizes it.
      // The first run's width already holds the group's least width.
      result = await run({
        ...graph,
        width: clear.width,
        height: result.height ?? 0,
        layoutOptions: {
          ...graph.layoutOptions,
          'elk.portConstraints': 'FIXED_POS',
          'elk.nodeSize.constraints': 'MINIMUM_SIZE',
          'elk.nodeSize.minimum': `(${clear.width}, ${minimumOf.get(container)?.height ?? 0})`,
        },
        ports: (result.ports ?? []).map((port) => ({ id: port.id, x: clear.x.get(port.id) ?? port.x ?? 0, y: port.y ?? 0, layoutOptions: { 'elk.port.side': sideOfPort(port.id) } })),
      });
    }
    laidOut.set(container, placeFramePorts(result, framePorts, header, sideOfPort));
  };
  const layOutAll = async () => {
    for (let level = 0; level <= (height.get(ROOT) ?? 0); level++) {
      await Promise.all(order.filter((container) => height.get(container) === level).map(layOut));
    }
  };
  await layOutAll();
  // A group's ports face the flow (out on its far side, in on its near one). Where ELK draws an edge against the flow
  // (one that closes a cycle, `validate --> client` after `client --> gateway --> validate`), its port is on the side
  // facing away from where the line goes, and the line loops around the whole group. Which edges go against the flow
  // ELK decides only when it lays out the group's parent: such ports move to the other side, and the groups whose ports
  // moved are laid out again with their parents (every other container's result comes from the cache). A port of a
  // nested group learns its side one pass after its parent's port: at most MAX_PORT_PASSES passes in all. A symbol's
  // or a table's ports are fixed to sides too: a line drawn back between two members (`check --> join` after
  // `join --> work --> check`) gets the other sides at its ends in the same passes, instead of looping around the
  // symbol to come in on the flow's side. Ports move only below containers that are not large: laying out a large one
  // again would cost more than the loop saves (the generated 5,000-node diagram: 46 s instead of 14).
  const smallUpToRoot = (container: string): boolean => {
    for (let current: string | undefined = container; current !== undefined; current = current === ROOT ? undefined : parentOf.get(current)) {
      if ((containers.get(current)?.length ?? 0) > LARGE_CONTAINER) return false;
    }
    return true;
  };
  // The ports of a container's members move only where that container and every one above it is small.
  const movable = new Map([...segments].filter(([container]) => smallUpToRoot(container)));
  for (let pass = 1; pass < MAX_PORT_PASSES && movable.size > 0; pass++) {
    const toMove = portsAgainstTheFlow(input.direction, movable, laidOut, portOwners).filter((id) => !movedPorts.has(id));
    const turned = segmentsAgainstTheFlow(input.direction, movable, laidOut, (id) => outlineNodes.rowsOf(id) !== undefined).filter((id) => !backSegments.has(id));
    if (toMove.length === 0 && turned.length === 0) break;
    for (const id of toMove) movedPorts.add(id);
    for (const id of turned) backSegments.add(id);
    await layOutAll();
  }

  // Absolute positions, outermost first.
  const boxes: Record<string, Box> = {};
  const origins = new Map<string, Point>([[ROOT, { x: 0, y: 0 }]]);
  for (const container of [...order].reverse()) {
    const origin = origins.get(container) ?? { x: 0, y: 0 };
    for (const child of laidOut.get(container)?.children ?? []) {
      // A node with rows: ELK laid out its outline; its box holds the rows below it too.
      const height = (child.height ?? 0) + (outlineNodes.rowsOf(child.id) ?? 0);
      const box = { x: origin.x + (child.x ?? 0), y: origin.y + (child.y ?? 0), width: child.width ?? 0, height };
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
  const outline = outlinesOf(input);
  const edges = routeBetweenBoxes(input, input.edges, boxes, (edge, sourceBox, targetBox) => {
    const route = routes.get(edge.key);
    const straight = () => straightLine(outline(edge.source, sourceBox), outline(edge.target, targetBox));
    if (!route) return { points: straight() };
    const points: Point[] = [];
    let label: Point | undefined;
    route.parts.forEach((part, index) => {
      const origin = origins.get(part.container) ?? { x: 0, y: 0 };
      const shift = (point: Point) => ({ x: origin.x + point.x, y: origin.y + point.y });
      const elkEdge = elkEdges.get(part.container)?.get(part.id);
      const section = elkEdge?.sections?.[0];
      if (section) {
        for (const point of [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map(shift)) {
          const last = points[points.length - 1];
          // Consecutive segments meet at a port: its point once (a stored layout rounds each side on its own).
          if (!last || Math.abs(last.x - point.x) > 0.5 || Math.abs(last.y - point.y) > 0.5) points.push(point);
        }
      }
      const placed = elkEdge?.labels?.[0];
      if (index === route.middle && placed && edge.labelWidth) label = shift({ x: placed.x ?? 0, y: placed.y ?? 0 });
    });
    return { points: points.length >= 2 ? points : straight(), ...(label ? { label } : {}) };
  });

  const root = laidOut.get(ROOT);
  return { width: root?.width ?? 0, height: root?.height ?? 0, boxes, edges: withoutSmallSteps(input, boxes, edges) };
}

/**
 * Steps across an orthogonal route shorter than this are not a way around anything (ELK keeps edges 10 px apart and
 * 14 px from boxes): they come from a label's place in the layering or a port half a layer off, and are drawn as a
 * wiggle in a straight line.
 */
const JOG = 3;

/**
 * `points` of an orthogonal route with each jog taken out: where a step shorter than JOG joins two parallel stretches,
 * one stretch moves onto the other's line, the one that does not end the route where there is a choice (an end stays
 * where the layout put it on its box). `points` itself where it has no jog, so a redrawing can tell that nothing moved.
 */
export function withoutJogs(points: Point[]): Point[] {
  const route = points.map((point) => ({ ...point }));
  let changed = false;
  const near = (a: number, b: number) => Math.abs(a - b) < 0.5;
  for (let i = 1; i + 2 < route.length; i++) {
    const [a, b, c, d] = [route[i - 1], route[i], route[i + 1], route[i + 2]];
    const across = stepAcross(a, b, c, d);
    if (!across) continue;
    const step = c[across] - b[across];
    if (Math.abs(step) >= JOG || near(step, 0)) continue;
    if (i + 2 === route.length - 1 && i - 1 > 0) {
      // The later stretch ends the route: the earlier one moves over.
      a[across] = b[across] = c[across];
    } else {
      c[across] = d[across] = b[across];
    }
    // b and c now stand on one line with a and d: drop both, and look again at the new corner before them.
    route.splice(i, 2);
    i = Math.max(0, i - 2);
    changed = true;
  }
  return changed ? route : points;
}

/**
 * `points` of an orthogonal route with each slant taken out: a stretch that leans less than JOG across its length (a
 * line through nested frames whose ports two groups' layouts placed a pixel apart; a jog taken out of a stretch with a
 * point in its middle), drawn blurred and visibly askew. It is straightened by moving the points on one side of it
 * across: the run of points in line with that side's end, up to the corner where the route turns (whose other stretch
 * only grows or shrinks). The earlier side moves where its run does not reach an end of the route, else the later; a
 * run may reach an end only where `slides` says that end may slide along its box's side (a plain box, not a drawn
 * shape's outline, where the end lies on the outline). A route of two points is a straight line, drawn at any angle.
 * `points` itself where nothing leans.
 */
export function withoutSlants(points: Point[], slides: { first: boolean; last: boolean } = { first: false, last: false }): Point[] {
  if (points.length < 3) return points;
  let route = points;
  for (let i = 1; i < route.length; i++) {
    const [a, b] = [route[i - 1], route[i]];
    const dx = Math.abs(a.x - b.x);
    const dy = Math.abs(a.y - b.y);
    const axis = dx > 0.01 && dx < JOG && dy >= JOG ? 'x' : dy > 0.01 && dy < JOG && dx >= JOG ? 'y' : undefined;
    if (!axis) continue;
    /** The indexes from `start` on in direction `step` standing on one line across `axis`, up to the turn. */
    const run = (start: number, step: 1 | -1): number[] => {
      const found = [start];
      for (let k = start + step; k >= 0 && k < route.length && Math.abs(route[k][axis] - route[start][axis]) < 0.01; k += step) found.push(k);
      return found;
    };
    const sides = [
      { moving: run(i - 1, -1), to: b[axis] },
      { moving: run(i, 1), to: a[axis] },
    ];
    const reachesEnd = (indexes: number[]) => indexes.some((k) => k === 0 || k === route.length - 1);
    const endsSlide = (indexes: number[]) => indexes.every((k) => (k !== 0 || slides.first) && (k !== route.length - 1 || slides.last));
    // A run that reaches no end first, the earlier side before the later; then one whose ends may slide.
    const choice = sides.find(({ moving }) => !reachesEnd(moving)) ?? sides.find(({ moving }) => endsSlide(moving));
    if (!choice) continue;
    const { moving, to } = choice;
    if (route === points) route = points.map((point) => ({ ...point }));
    for (const k of moving) route[k][axis] = to;
  }
  return route;
}

/** Layout passes at most: the first, then one for each level of nesting whose ports move to face their lines. */
const MAX_PORT_PASSES = 4;

/** How far a line through a group's top side keeps from the name or the button in its header row. */
const HEADER_CLEARANCE = 8;
/** ELK's spacing between two lines ('elk.spacing.edgeEdge'), kept between ports moved clear of a header. */
const PORT_SPACING = 10;

/**
 * Where the ports on a laid-out group's top side (`onTop`) go so that their lines pass between the name and the button
 * of its header row (`header`: how far those reach from each end), in the order ELK gave them and each as near to where
 * ELK put it as the room allows; and the group's width, widened where the room is too narrow for them all. Undefined
 * when every port there is clear already.
 */
export function portsClearOfHeader(
  group: ElkNode,
  header: { left: number; right: number },
  onTop: (port: ElkNode) => boolean,
): { x: Map<string, number>; width: number } | undefined {
  const top = (group.ports ?? []).filter(onTop).sort((a, b) => (a.x ?? 0) - (b.x ?? 0));
  let width = group.width ?? 0;
  const from = header.left + HEADER_CLEARANCE;
  const inRoom = (x: number) => x >= from - 0.5 && x <= width - header.right - HEADER_CLEARANCE + 0.5;
  if (top.every((port) => inRoom(port.x ?? 0))) return undefined;
  const room = (top.length - 1) * PORT_SPACING;
  width = Math.max(width, from + room + HEADER_CLEARANCE + header.right);
  const to = width - header.right - HEADER_CLEARANCE;
  const xs = top.map((port) => Math.min(Math.max(port.x ?? 0, from), to));
  // Apart by the lines' spacing: pushed on from the left, then back from the right, so every one stays in the room.
  for (let i = 1; i < xs.length; i++) xs[i] = Math.max(xs[i], xs[i - 1] + PORT_SPACING);
  for (let i = xs.length - 1; i >= 0; i--) xs[i] = Math.min(xs[i], i === xs.length - 1 ? to : xs[i + 1] - PORT_SPACING);
  return { x: new Map(top.map((port, i) => [port.id, xs[i]])), width };
}

/**
 * `group` (as laid out) with the ports in `framePorts` that no line inside it reaches moved to the middle of their
 * side (on the top side, the middle of the room the header leaves), beside the other ports there: ELK leaves such a
 * port at the side's end, and nothing inside depends on where it is. The same object when none is to move.
 */
function placeFramePorts(
  group: ElkNode,
  framePorts: ReadonlySet<string>,
  header: { left: number; right: number } | undefined,
  sideOfPort: (id: string) => string,
): ElkNode {
  const inside = new Set((group.edges ?? []).flatMap((edge) => [...edge.sources, ...edge.targets]));
  const free = (group.ports ?? []).filter((port) => framePorts.has(port.id) && !inside.has(port.id));
  if (free.length === 0) return group;
  const width = group.width ?? 0;
  const height = group.height ?? 0;
  /** Whether a port's side runs across (north, south) rather than down (east, west), and where along it the port is. */
  const across = (port: ElkNode) => ['NORTH', 'SOUTH'].includes(sideOfPort(port.id));
  const placeOf = (port: ElkNode) => ({ side: sideOfPort(port.id), at: across(port) ? (port.x ?? 0) : (port.y ?? 0) });
  const placed = new Map<string, number>();
  const taken = (group.ports ?? []).filter((port) => !free.includes(port)).map(placeOf);
  for (const port of free) {
    const side = sideOfPort(port.id);
    const middle = side === 'NORTH' && header ? (header.left + width - header.right) / 2 : (across(port) ? width : height) / 2;
    // Outward from the middle, one line's spacing at a time, to the first place no other port is near.
    let at = middle;
    for (let step = 1; taken.some((other) => other.side === side && Math.abs(other.at - at) < PORT_SPACING); step++) {
      at = middle + (step % 2 === 1 ? 1 : -1) * Math.ceil(step / 2) * PORT_SPACING;
    }
    taken.push({ side, at });
    placed.set(port.id, at);
  }
  return {
    ...group,
    ports: (group.ports ?? []).map((port) => {
      const at = placed.get(port.id);
      if (at === undefined) return port;
      return across(port) ? { ...port, x: at } : { ...port, y: at };
    }),
  };
}

/** Where a point lies along the flow, growing with it. */
function alongTheFlow(direction: LayoutDirection): (x: number, y: number) => number {
  const horizontal = direction === 'RIGHT' || direction === 'LEFT';
  const sign = direction === 'LEFT' || direction === 'UP' ? -1 : 1;
  return (x, y) => sign * (horizontal ? x : y);
}

/** Where a laid-out child's box begins and ends along the flow. */
function spanAlong(along: (x: number, y: number) => number, child: ElkNode): { first: number; last: number } {
  const a = along(child.x ?? 0, child.y ?? 0);
  const b = along((child.x ?? 0) + (child.width ?? 0), (child.y ?? 0) + (child.height ?? 0));
  return { first: Math.min(a, b), last: Math.max(a, b) };
}

/**
 * The segments (as laid out) between two members of a container, one of them a node whose ports are fixed to sides
 * (`hasFixedSides`), whose source lies wholly after its target along the flow.
 */
function segmentsAgainstTheFlow(
  direction: LayoutDirection,
  segments: ReadonlyMap<string, ReadonlyMap<string, ElkExtendedEdge>>,
  laidOut: ReadonlyMap<string, ElkNode>,
  hasFixedSides: (id: string) => boolean,
): string[] {
  const along = alongTheFlow(direction);
  const found: string[] = [];
  for (const [container, inContainer] of segments) {
    const children = new Map((laidOut.get(container)?.children ?? []).map((child) => [child.id, child]));
    for (const segment of inContainer.values()) {
      const [source] = segment.sources;
      const [target] = segment.targets;
      const from = children.get(source);
      const to = children.get(target);
      if (!from || !to || source === target || (!hasFixedSides(source) && !hasFixedSides(target))) continue;
      if (spanAlong(along, from).first > spanAlong(along, to).last) found.push(segment.id);
    }
  }
  return found;
}

/**
 * The group ports (as laid out) all of whose segments in the group's parent run against the flow: out of the group
 * toward something that lies wholly before the group along the flow, or into it from something wholly after it.
 */
function portsAgainstTheFlow(
  direction: LayoutDirection,
  segments: ReadonlyMap<string, ReadonlyMap<string, ElkExtendedEdge>>,
  laidOut: ReadonlyMap<string, ElkNode>,
  portOwners: ReadonlyMap<string, { group: string; way: 'out' | 'in' }>,
): string[] {
  const along = alongTheFlow(direction);
  const verdicts = new Map<string, boolean>();
  for (const [container, inContainer] of segments) {
    const result = laidOut.get(container);
    if (!result) continue;
    const children = new Map<string, ElkNode>();
    const positions = new Map<string, number>();
    for (const child of result.children ?? []) {
      children.set(child.id, child);
      positions.set(child.id, along((child.x ?? 0) + (child.width ?? 0) / 2, (child.y ?? 0) + (child.height ?? 0) / 2));
      for (const port of child.ports ?? []) positions.set(port.id, along((child.x ?? 0) + (port.x ?? 0), (child.y ?? 0) + (port.y ?? 0)));
    }
    for (const port of result.ports ?? []) positions.set(port.id, along(port.x ?? 0, port.y ?? 0));
    for (const segment of inContainer.values()) {
      const [source] = segment.sources;
      const [target] = segment.targets;
      for (const [end, other] of [
        [source, target],
        [target, source],
      ]) {
        const owner = portOwners.get(end);
        const group = owner && children.get(owner.group);
        const at = positions.get(other);
        if (!owner || !group || at === undefined) continue;
        const { first, last } = spanAlong(along, group);
        const backward = owner.way === 'out' ? at < first : at > last;
        verdicts.set(end, (verdicts.get(end) ?? true) && backward);
      }
    }
  }
  return [...verdicts].filter(([, backward]) => backward).map(([id]) => id);
}

/**
 * The route of each edge whose two ends have a box, by its key: `route` draws it between those boxes, without jogs
 * (withoutJogs) or slants (withoutSlants: an end slides only at a box drawn as a box), and its ends go on to the
 * outlines of `input`'s shapes (endsOnShapesOf). An edge with an end that is not drawn (hidden by a collapse, or not
 * placed yet) gets none.
 */
export function routeBetweenBoxes<E extends { key: string; source: string; target: string }>(
  input: Pick<LayoutInput, 'nodes'>,
  edges: readonly E[],
  boxes: Readonly<Record<string, Box>>,
  route: (edge: E, source: Box, target: Box) => EdgeRoute,
): Record<string, EdgeRoute> {
  const onShapes = endsOnShapesOf(input);
  const shaped = new Set(input.nodes.filter((node) => node.shape).map((node) => node.id));
  const routes: Record<string, EdgeRoute> = {};
  for (const edge of edges) {
    const source = boxes[edge.source];
    const target = boxes[edge.target];
    if (!source || !target) continue;
    const drawn = route(edge, source, target);
    const points = withoutSlants(withoutJogs(drawn.points), { first: !shaped.has(edge.source), last: !shaped.has(edge.target) });
    routes[edge.key] = onShapes(edge, points === drawn.points ? drawn : { ...drawn, points }, source, target);
  }
  return routes;
}

export function centre(box: Box): Point {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** The straight line between two boxes: from border to border, on the line joining their centres. */
export function straightLine(source: Box, target: Box): Point[] {
  return [borderPoint(source, centre(target)), borderPoint(target, centre(source))];
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
