import { canvasEdge, canvasNode, createView, layoutNode, plainLabel, segmentEntersBox, type Box, type CanvasEdge, type CanvasNode, type EdgeRoute, type LayoutInput, type ModelInput, type Point as RoutePoint } from '@sc/diagram';
import { GROUP_PADDING, framesOf, positionOf, type EditorDoc, type Point } from './editor-doc';

/**
 * What the editor canvas draws for a document: the viewer's node look (canvasNode, same components) and edge
 * look (canvasEdge), placed where the document's layout says, and group frames sized to hold their members.
 */
export interface EditorNode {
  node: CanvasNode;
  point: Point;
  parent?: string;
}

export interface EditorGroup {
  id: string;
  title: string;
  point: Point;
  parent?: string;
  width: number;
  height: number;
  depth: number;
}

export interface EditorEdge {
  index: number;
  edge: CanvasEdge;
}

export interface EditorModel {
  nodes: EditorNode[];
  /** Outermost first. */
  groups: EditorGroup[];
  edges: EditorEdge[];
}

export const MIN_GROUP = { width: 200, height: 120 };

export function editorModel(doc: EditorDoc, databases: ModelInput['databases'] = new Map()): EditorModel {
  const graph = doc.graph;
  const input: ModelInput = { view: createView(graph), databases };
  const frames = framesOf(graph);
  const nodes = graph.nodes.map((source): EditorNode => {
    const node = canvasNode(source, 'flowchart', input);
    const parent = frames.get(source.id);
    return { node, point: positionOf(doc, source.id, 'node') ?? { x: 0, y: 0 }, ...(parent !== undefined ? { parent } : {}) };
  });
  const size = new Map<string, { width: number; height: number }>(nodes.map((n) => [n.node.id, { width: n.node.width, height: n.node.height }]));
  const depthOf = (id: string | undefined, seen = 0): number => (id === undefined || seen > graph.groups.length ? 0 : 1 + depthOf(graph.groups.find((g) => g.id === id)?.parent, seen + 1));

  // A frame reaches past its lowest and rightmost member; innermost groups are sized first.
  const groups = graph.groups
    .map((g) => ({ source: g, depth: depthOf(g.id) }))
    .sort((a, b) => b.depth - a.depth)
    .map(({ source, depth }): EditorGroup => {
      let width = MIN_GROUP.width;
      let height = MIN_GROUP.height;
      for (const member of source.nodes) {
        // A node a context-only group lists but a subgraph holds is drawn in the subgraph (framesOf).
        if (frames.get(member) !== source.id) continue;
        const box = size.get(member);
        const at = positionOf(doc, member, graph.groups.some((g) => g.id === member) ? 'group' : 'node');
        if (!box || !at) continue;
        width = Math.max(width, at.x + box.width + GROUP_PADDING);
        height = Math.max(height, at.y + box.height + GROUP_PADDING);
      }
      size.set(source.id, { width, height });
      return {
        id: source.id,
        title: plainLabel(source.overlay?.name ?? source.label) || source.id,
        point: positionOf(doc, source.id, 'group') ?? { x: 0, y: 0 },
        ...(source.parent ? { parent: source.parent } : {}),
        width,
        height,
        depth,
      };
    })
    .sort((a, b) => a.depth - b.depth);
  const edges = graph.edges.map((edge, index) => ({ index, edge: canvasEdge(edge, `e${index}`, 'flowchart') }));
  return { nodes, groups, edges };
}

/** The layout worker's input for automatic layout of the whole document (every group expanded). */
export function editorLayoutInput(model: EditorModel, direction: 'LR' | 'TB'): LayoutInput {
  return {
    direction: direction === 'LR' ? 'RIGHT' : 'DOWN',
    nodes: model.nodes.map(({ node, parent }) => layoutNode(node, parent)),
    groups: model.groups.map((g) => ({ id: g.id, ...(g.parent ? { parent: g.parent } : {}), collapsed: false, width: MIN_GROUP.width, height: 0 })),
    edges: model.edges.map(({ edge }) => ({ key: edge.key, source: edge.source, target: edge.target, ...(edge.labelWidth ? { labelWidth: edge.labelWidth, labelHeight: edge.labelHeight } : {}) })),
  };
}

/** Where every node and group frame of the model is on the canvas (absolute boxes, by id). */
export function absoluteBoxes(model: EditorModel): Map<string, Box> {
  const boxes = new Map<string, Box>();
  const origin = (parent: string | undefined) => (parent !== undefined ? boxes.get(parent) : undefined) ?? { x: 0, y: 0 };
  // Outermost groups first, so a frame's parent is placed before it.
  for (const group of model.groups) {
    const outer = origin(group.parent);
    boxes.set(group.id, { x: outer.x + group.point.x, y: outer.y + group.point.y, width: group.width, height: group.height });
  }
  for (const { node, point, parent } of model.nodes) {
    const outer = origin(parent);
    boxes.set(node.id, { x: outer.x + point.x, y: outer.y + point.y, width: node.width, height: node.height });
  }
  return boxes;
}

/** The box around every node and group frame (drawing coordinates), or null for an empty drawing. */
export function drawingBox(boxes: readonly Box[]): Box | null {
  if (boxes.length === 0) return null;
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  return { x: left, y: top, width: Math.max(...boxes.map((b) => b.x + b.width)) - left, height: Math.max(...boxes.map((b) => b.y + b.height)) - top };
}

/** The routes of the last automatic layout (by edge key, with the ends they join) and where it put every box. */
export interface LaidOutRoutes {
  boxes: ReadonlyMap<string, Box>;
  edges: ReadonlyMap<string, EdgeRoute & { source: string; target: string }>;
}

/** The routes of an automatic layout for the model drawn from its result (its positions already applied). */
export function laidOutRoutes(model: EditorModel, routes: Readonly<Record<string, EdgeRoute>>): LaidOutRoutes {
  const edges = new Map<string, EdgeRoute & { source: string; target: string }>();
  for (const { edge } of model.edges) {
    const route = routes[edge.key];
    if (route) edges.set(edge.key, { ...route, source: edge.source, target: edge.target });
  }
  return { boxes: absoluteBoxes(model), edges };
}

/** A layout position within this of where the layout put it still counts as there (positions are rounded). */
const SAME_PLACE = 1;

const samePlace = (a: Box | undefined, b: Box | undefined) =>
  a !== undefined && b !== undefined && Math.abs(a.x - b.x) <= SAME_PLACE && Math.abs(a.y - b.y) <= SAME_PLACE && Math.abs(a.width - b.width) <= SAME_PLACE && Math.abs(a.height - b.height) <= SAME_PLACE;


/**
 * The drawn route of each edge that can still take the last automatic layout's: both its ends are where that layout
 * put them and no node stands on the route now (a node added or moved since). Other edges are drawn straight
 * between their ends.
 */
export function usableRoutes(model: EditorModel, routes: LaidOutRoutes | null): Map<string, EdgeRoute> {
  const usable = new Map<string, EdgeRoute>();
  if (!routes) return usable;
  const boxes = absoluteBoxes(model);
  const nodeBoxes = model.nodes.map(({ node }) => ({ id: node.id, box: boxes.get(node.id) as Box }));
  for (const { edge } of model.edges) {
    const route = routes.edges.get(edge.key);
    if (!route || route.source !== edge.source || route.target !== edge.target || route.points.length < 2) continue;
    if (!samePlace(boxes.get(edge.source), routes.boxes.get(edge.source)) || !samePlace(boxes.get(edge.target), routes.boxes.get(edge.target))) continue;
    const blocked = nodeBoxes.some(({ id, box }) => id !== edge.source && id !== edge.target && route.points.some((point, i) => i > 0 && segmentEntersBox(route.points[i - 1], point, box)));
    if (!blocked) usable.set(edge.key, route);
  }
  return usable;
}

/** A label given after the layout (which placed none): centred halfway along the route. */
export function labelOnRoute(points: readonly RoutePoint[], size: { labelWidth: number; labelHeight: number }): RoutePoint {
  const lengths = points.slice(1).map((p, i) => Math.hypot(p.x - points[i].x, p.y - points[i].y));
  let rest = lengths.reduce((sum, length) => sum + length, 0) / 2;
  for (const [i, length] of lengths.entries()) {
    if (rest <= length && length > 0) {
      const t = rest / length;
      const x = points[i].x + (points[i + 1].x - points[i].x) * t;
      const y = points[i].y + (points[i + 1].y - points[i].y) * t;
      return { x: x - size.labelWidth / 2, y: y - size.labelHeight / 2 };
    }
    rest -= length;
  }
  return { x: points[0].x - size.labelWidth / 2, y: points[0].y - size.labelHeight / 2 };
}
