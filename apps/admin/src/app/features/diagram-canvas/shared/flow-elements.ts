import { signal, type WritableSignal } from '@angular/core';
import type { Point } from '@sc/diagram';
import type { Edge, Node } from 'ngx-vflow';

/** An element as a canvas draws it: ngx-vflow's node is made from this and brought up to date with it. */
export interface FlowNodeSpec {
  id: string;
  type: 'html-template' | 'template-group';
  point: Point;
  width: number;
  height: number;
  data: unknown;
}

/** ngx-vflow's node with the signals a canvas writes (ngx-vflow types them as plain signals). */
type WritableNode = Node & {
  point: WritableSignal<Point>;
  width: WritableSignal<number>;
  height: WritableSignal<number>;
  data: WritableSignal<unknown>;
  draggable?: WritableSignal<boolean>;
  selected?: WritableSignal<boolean>;
};

/**
 * ngx-vflow's node and edge objects of one canvas, by key, beside the canvas component (as Angular CDK keeps a
 * DragRef beside its directive): the viewer's canvas and the draft editor's hand ngx-vflow the objects kept here, so an
 * element that stays gets the same object, and a redraw writes only the signals whose value changed (each write wakes
 * ngx-vflow's computations for that element). A canvas decides which objects it keeps (keepNodes, keepEdges) and
 * when one must be made anew (ngx-vflow reads some fields, such as an edge's ends, only when the object comes in).
 */
export class FlowElements<EdgeData> {
  private readonly nodes = new Map<string, Node>();
  private readonly edges = new Map<string, Edge<EdgeData>>();

  /** The node kept for `id` while `reusable(it)` holds; else the one `make` builds (newFlowNode), kept instead. */
  node(id: string, reusable: (node: Node) => boolean, make: () => Node): Node {
    const existing = this.nodes.get(id);
    if (existing && reusable(existing)) return existing;
    const node = make();
    this.nodes.set(id, node);
    return node;
  }

  /** The edge kept for `key` while `reusable(it)` holds; else the one `make` builds, kept instead. */
  edge(key: string, reusable: (edge: Edge<EdgeData>) => boolean, make: () => Edge<EdgeData>): Edge<EdgeData> {
    const existing = this.edges.get(key);
    if (existing && reusable(existing)) return existing;
    const edge = make();
    this.edges.set(key, edge);
    return edge;
  }

  /** Brings a kept node to its new place, size and data, writing only what changed (signals ignore equal values). */
  update(node: Node, point: Point, size: { width: number; height: number }, data: unknown): void {
    const writable = node as WritableNode;
    const now = writable.point();
    if (now.x !== point.x || now.y !== point.y) writable.point.set({ x: point.x, y: point.y });
    writable.width.set(size.width);
    writable.height.set(size.height);
    writable.data.set(data);
  }

  /** Keeps the nodes for which `keep` holds and drops the others (made anew when next asked for). */
  keepNodes(keep: (node: Node, id: string) => boolean): void {
    for (const [id, node] of this.nodes) if (!keep(node, id)) this.nodes.delete(id);
  }

  keepEdges(keep: (edge: Edge<EdgeData>, key: string) => boolean): void {
    for (const [key, edge] of this.edges) if (!keep(edge, key)) this.edges.delete(key);
  }

  /** Where ngx-vflow has the node now, when a drag moved it from `drawnAt` (null: not moved, or not kept). */
  movedFrom(id: string, drawnAt: Point): Point | null {
    const now = this.nodes.get(id)?.point();
    return now && (now.x !== drawnAt.x || now.y !== drawnAt.y) ? now : null;
  }

  /** Puts a kept node back at a point (a drag that was refused). */
  moveTo(id: string, point: Point): void {
    (this.nodes.get(id) as WritableNode | undefined)?.point.set(point);
  }

  setDraggable(draggable: boolean): void {
    for (const node of this.nodes.values()) (node as WritableNode).draggable?.set(draggable);
  }

  /** Marks the nodes and edges whose ids are given as selected, and the others not. */
  showSelected(nodes: ReadonlySet<string>, edges: ReadonlySet<string>): void {
    for (const [id, node] of this.nodes) {
      const selected = nodes.has(id);
      if (node.selected && node.selected() !== selected) node.selected.set(selected);
    }
    for (const [key, edge] of this.edges) {
      const selected = edges.has(key);
      if (edge.selected && edge.selected() !== selected) edge.selected.set(selected);
    }
  }

  /** The ids of the nodes and edges ngx-vflow has selected, in the order they were kept. */
  selected(): { nodes: string[]; edges: string[] } {
    return {
      nodes: [...this.nodes].filter(([, node]) => node.selected?.()).map(([id]) => id),
      edges: [...this.edges].filter(([, edge]) => edge.selected?.()).map(([key]) => key),
    };
  }
}

/** A new ngx-vflow node for an element, with the canvas's own fields (`extra`: draggable, parentId, selected…). */
export function newFlowNode(spec: FlowNodeSpec, extra: Partial<Record<keyof Node, unknown>> = {}): Node {
  return {
    id: spec.id,
    type: spec.type,
    point: signal(spec.point),
    width: signal(spec.width),
    height: signal(spec.height),
    data: signal(spec.data),
    ...extra,
  } as unknown as Node;
}

/**
 * The typed reading of an ngx-vflow template's `ctx.data()` (ngx-vflow types it `unknown`): both canvases' node,
 * group and edge templates read their data through these.
 */
export const dataOf =
  <T>() =>
  (data: unknown): T =>
    data as T;
