import { signal } from '@angular/core';
import type { CanvasEdge, EdgeRoute } from '@sc/diagram';
import type { Edge, Node } from 'ngx-vflow';
import { FlowElements, newFlowNode } from '../../diagram-canvas/shared/flow-elements';
import { snap, type EditorSelection, type Point } from './editor-doc';
import { labelOnRoute, type EditorModel } from './editor-model';

/** What the editor's edge template draws: the canvas edge, its index in the graph and its layout route. */
export interface EdgeData {
  edge: CanvasEdge;
  index: number;
  /** The last automatic layout's route, while it still fits (usableRoutes); else ngx-vflow's straight line. */
  route?: EdgeRoute;
  /** Top-left corner of a routed edge's label: where the layout put it, or halfway along the route. */
  labelAt?: Point;
}

/** Group frames and nodes share ngx-vflow's id space: a frame's id is its group id behind this prefix. */
const GROUP_PREFIX = 'g:';
const flowId = (id: string, isGroup: boolean) => (isGroup ? `${GROUP_PREFIX}${id}` : id);
/** The graph id of an ngx-vflow node (a node's own id, or a frame's group id). */
export const graphId = (id: string) => (id.startsWith(GROUP_PREFIX) ? id.slice(GROUP_PREFIX.length) : id);
const edgeId = (index: number) => `e${index}`;

/**
 * The editor's document as ngx-vflow's nodes, group frames and edges (kept by FlowElements, so a redraw writes only
 * what changed), and back: ngx-vflow's selection and drag moves in the document's terms.
 */
export class EditorFlow {
  private readonly elements = new FlowElements<EdgeData>();

  /** `draggable`: whether a node made now can be dragged (not on a read-only canvas). */
  constructor(private readonly draggable: () => boolean) {}

  /** Group frames first (ngx-vflow draws a parent before its children), then nodes. */
  nodes(model: EditorModel): Node[] {
    const out: Node[] = [];
    const seen = new Set<string>();
    for (const group of model.groups) {
      const id = flowId(group.id, true);
      seen.add(id);
      out.push(this.node(id, 'template-group', group.point, group, group.parent, group));
    }
    for (const entry of model.nodes) {
      seen.add(entry.node.id);
      out.push(this.node(entry.node.id, 'html-template', entry.point, entry.node, entry.parent, entry.node));
    }
    this.elements.keepNodes((_, id) => seen.has(id));
    return out;
  }

  private node(id: string, type: 'html-template' | 'template-group', point: Point, size: { width: number; height: number }, parent: string | undefined, data: unknown): Node {
    const parentId = parent !== undefined ? flowId(parent, true) : null;
    const node = this.elements.node(
      id,
      (existing) => existing.type === type && (existing.parentId?.() ?? null) === parentId,
      () =>
        newFlowNode(
          { id, type, point, width: size.width, height: size.height, data },
          { parentId: signal(parentId), extent: signal(null), draggable: signal(this.draggable()), selected: signal(false) },
        ),
    );
    // A node just made already holds these values: nothing is written.
    this.elements.update(node, point, size, data);
    return node;
  }

  /** The model's edges, along their layout route where `routes` has one. */
  edges(model: EditorModel, routes: ReadonlyMap<string, EdgeRoute>): Edge<EdgeData>[] {
    const groups = new Set(model.groups.map((g) => g.id));
    const vid = (id: string) => flowId(id, groups.has(id));
    const out: Edge<EdgeData>[] = [];
    const seen = new Set<string>();
    for (const { edge, index } of model.edges) {
      const id = edgeId(index);
      seen.add(id);
      const route = routes.get(edge.key);
      const data: EdgeData = { edge, index, ...(route ? { route, labelAt: route.label ?? labelOnRoute(route.points, edge) } : {}) };
      // A routed edge draws its label itself, where the layout placed it; ngx-vflow puts its labels in the middle of
      // its own (straight) path.
      const vflowLabel = Boolean(edge.label) && !route;
      const source = vid(edge.source);
      const target = vid(edge.target);
      // ngx-vflow reads an edge's ends and which labels it has when the edge first comes in: a change of either is a
      // new edge object.
      const kept = (existing: Edge<EdgeData>) => existing.source === source && existing.target === target && (Object.keys(existing.edgeLabels?.() ?? {}).length > 0) === vflowLabel;
      const existing = this.elements.edge(id, kept, () => {
        const current = signal(data);
        return {
          id,
          source,
          target,
          type: 'template',
          floating: signal(true),
          selected: signal(false),
          data: current,
          edgeLabels: signal(vflowLabel ? { center: { type: 'html-template' as const, data: current } } : {}),
        };
      });
      // The label object stays: ngx-vflow measures a label once per label object, so a new one on every redraw
      // was drawn in a zero-size (clipping) box. Its text follows the edge's data signal instead (a new edge holds it).
      existing.data?.set(data);
      out.push(existing);
    }
    this.elements.keepEdges((_, id) => seen.has(id));
    return out;
  }

  /** Marks the document's selection on ngx-vflow's nodes, frames and edges. */
  showSelection(selection: EditorSelection): void {
    this.elements.showSelected(new Set([...selection.nodes, ...selection.groups.map((id) => flowId(id, true))]), new Set(selection.edges.map(edgeId)));
  }

  /** What ngx-vflow has selected, as the document's selection. */
  selection(): EditorSelection {
    const selected = this.elements.selected();
    return {
      nodes: selected.nodes.filter((id) => !id.startsWith(GROUP_PREFIX)),
      groups: selected.nodes.filter((id) => id.startsWith(GROUP_PREFIX)).map(graphId),
      edges: selected.edges.map((id) => Number(id.slice(1))),
    };
  }

  /** The frames and nodes a drag left away from where the model draws them, at their new place (snapped, or to the pixel). */
  moves(model: EditorModel, snapToGrid: boolean): ({ id: string } & Point)[] {
    const round = snapToGrid ? (value: number) => snap(value) : Math.round;
    const moves: ({ id: string } & Point)[] = [];
    const check = (vid: string, id: string, point: Point) => {
      const now = this.elements.movedFrom(vid, point);
      if (now) moves.push({ id, x: round(now.x), y: round(now.y) });
    };
    for (const group of model.groups) check(flowId(group.id, true), group.id, group.point);
    for (const entry of model.nodes) check(entry.node.id, entry.node.id, entry.point);
    return moves;
  }
}
