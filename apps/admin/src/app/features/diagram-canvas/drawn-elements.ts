import { atBoxSize, type Box, type CanvasEdge, type CanvasGroup, type CanvasModel, type EdgeRoute, type LayoutResult, type Point } from '@sc/diagram';
import type { Size, Viewport } from './fit';
import type { Searchable } from './shared/canvas-search';

/** An edge template's data on the viewer's canvas. */
export interface EdgeData {
  edge: CanvasEdge;
  /** The SVG path is made from the route only when the edge is rendered (pathOf): zoomed out, none is. */
  route: EdgeRoute;
  label?: Point;
}

/** A group frame template's data (one object per group: groupDataFor). */
export interface GroupData {
  group: CanvasGroup;
}

/** A node or group frame of the last drawing, where it is drawn; ngx-vflow's node for it is made when it is shown. */
export interface Placed {
  id: string;
  type: 'html-template' | 'template-group';
  box: Box;
  data: unknown;
}

/** An edge of the last drawing between ngx-vflow ids; ngx-vflow's edge for it is made when it is shown. */
export interface Routed {
  key: string;
  source: string;
  target: string;
  edge: CanvasEdge;
  route: EdgeRoute;
}

/** A group frame's ngx-vflow id (nodes keep theirs): groups and nodes may share an id in a diagram. */
export const GROUP_PREFIX = 'g:';

export const routedData = ({ edge, route }: Routed): EdgeData => ({ edge, route, ...(route.label ? { label: route.label } : {}) });

/** Same points, so the same drawn line (a new layout object for an unchanged route). */
export function sameRoute(a: EdgeRoute, b: EdgeRoute): boolean {
  if (a === b) return true;
  if (a.points.length !== b.points.length || a.label?.x !== b.label?.x || a.label?.y !== b.label?.y) return false;
  return a.points.every((point, i) => point.x === b.points[i].x && point.y === b.points[i].y);
}

/**
 * Groups (outermost first, so inner frames are drawn above outer ones) then nodes, at absolute positions.
 *
 * No `parentId` on their ngx-vflow nodes: the viewer draws at absolute positions, and with parents ngx-vflow re-sorts
 * every group's descendants on each update (its pullNode walks `children()`, recomputed from all nodes after every
 * write), which was most of the main thread's time on a 1,000-node diagram (0.5 s of a 0.6 s task in the CPU profile).
 */
export function placedElements(model: CanvasModel, result: LayoutResult, groupData: (group: CanvasGroup) => GroupData): Placed[] {
  const boxes = result.boxes;
  const out: Placed[] = [];
  for (const group of [...model.groups].sort((a, b) => a.depth - b.depth)) {
    const box = boxes[group.id];
    if (box) out.push({ id: `${GROUP_PREFIX}${group.id}`, type: 'template-group', box, data: groupData(group) });
  }
  for (const node of model.nodes) {
    const box = boxes[node.id];
    // A node resized in arrange mode draws at its box's size (never below its own: moveBoxes).
    if (box) out.push({ id: node.id, type: 'html-template', box, data: atBoxSize(node, box) });
  }
  return out;
}

/** The drawn edges (not the invisible ones) between the ngx-vflow ids of their ends. */
export function routedEdges(model: CanvasModel, result: LayoutResult): Routed[] {
  const ids = new Set(model.nodes.map((n) => n.id));
  const vid = (id: string) => (ids.has(id) ? id : `${GROUP_PREFIX}${id}`);
  const out: Routed[] = [];
  for (const edge of model.edges) {
    const route = result.edges[edge.key];
    if (route && !edge.invisible) out.push({ key: edge.key, source: vid(edge.source), target: vid(edge.target), edge, route });
  }
  return out;
}

/** The elements whose box the viewport shows (a view of `size` pixels), in their order. */
export function inView(placed: readonly Placed[], { x, y, zoom }: Viewport, { width, height }: Size): Placed[] {
  const left = -x / zoom;
  const top = -y / zoom;
  const right = left + width / zoom;
  const bottom = top + height / zoom;
  return placed.filter(({ box }) => box.x <= right && box.x + box.width >= left && box.y <= bottom && box.y + box.height >= top);
}

/** The same elements in the same order: ngx-vflow is handed the previous array and has nothing to do. */
export const sameItems = <T>(a: readonly T[], b: readonly T[]) => a === b || (a.length === b.length && a.every((item, i) => item === b[i]));

/** The model's nodes (but start and end) and groups, by id, for search, keyboard moves and the details panel's edge ends. */
export function searchItems(model: CanvasModel): Searchable[] {
  return [
    ...model.nodes.filter((n) => n.kind !== 'start' && n.kind !== 'end').map((n) => ({ id: n.id, title: n.title, kind: n.kind as string })),
    ...model.groups.map((g) => ({ id: g.id, title: g.title, kind: 'group' })),
  ];
}
