import { afterNextRender, computed, signal, untracked, type Injector } from '@angular/core';
import { roundedPath, type CanvasGroup, type EdgeRoute, type Point } from '@sc/diagram';
import type { Edge, Node } from 'ngx-vflow';
import type { Drawing } from './canvas-layout';
import { GROUP_PREFIX, inView, placedElements, routedData, routedEdges, sameItems, sameRoute, type EdgeData, type GroupData, type Placed, type Routed } from './drawn-elements';
import type { Size, Viewport } from './fit';
import { overviewLabels } from './overview-labels';
import { FlowElements, newFlowNode } from './shared/flow-elements';

/** Nodes above this count are drawn only where the viewport shows them (and as boxes when zoomed far out). */
const VIRTUALIZE_ABOVE = 250;
/** Below this zoom a large diagram is drawn as boxes on the preview canvas, with no node or edge in the DOM. */
const PREVIEW_BELOW_ZOOM = 0.3;
const EMPTY: never[] = [];

/** What the flow drawing reads from the canvas. */
export interface FlowView {
  /** The nodes of the whole graph, not what a collapse leaves visible (large). */
  graphNodes(): number;
  /** ngx-vflow's viewport, undefined before ngx-vflow is there. */
  viewport(): Viewport | undefined;
  viewSize(): Size;
  /** Arrange mode: nodes made are draggable. */
  arranging(): boolean;
  /** The canvas's injector, for the first drawing's render hook. */
  injector: Injector;
}

/**
 * What the viewer canvas hands ngx-vflow for a drawing: its nodes and edges (every one of a small diagram; of a large
 * one those the viewport shows), kept and updated in place from one drawing to the next so ngx-vflow redraws only
 * what changed, and the drawing's SVG paths and group data made once.
 */
export class FlowDrawing {
  /** The last drawing whose nodes and edges are all drawn. */
  readonly laidOut = signal<Drawing | null>(null);
  /** The nodes and edges of the last layout, where they are drawn (set with it, outside any reactive context). */
  private readonly nodes = signal<Placed[]>([]);
  private readonly edges = signal<Routed[]>([]);
  /** Drawings made, for a drawing's deferred edges to know whether another replaced it. */
  private draws = 0;
  /**
   * ngx-vflow's nodes and edges, by id, for what it was last handed (shownNodes, shownEdges): draw keeps those up to
   * date and drops the others, which are made anew, from the drawing, when they are shown again. ngx-vflow keeps a
   * model only for the nodes it is handed, so a node off screen costs nothing to make anew; updating the signals of
   * every node on each collapse and expand (1,000 of them, none shown when zoomed out) was most of Angular's share.
   */
  private readonly elements = new FlowElements<EdgeData>();
  /** SVG paths by route, made when an edge is rendered and kept while its route is. */
  private readonly paths = new WeakMap<EdgeRoute, string>();
  /** One data object per group, kept while the group is the same, so its frame is not redrawn for nothing. */
  private readonly groupData = new WeakMap<CanvasGroup, GroupData>();

  constructor(private readonly view: FlowView) {}

  /**
   * By the whole graph, not what a collapse leaves visible: a large diagram is culled to the viewport (and drawn on
   * the preview canvas when zoomed out) whatever is collapsed.
   */
  readonly large = computed(() => this.view.graphNodes() > VIRTUALIZE_ABOVE);
  /** Zoomed out far enough that a large diagram is shown as its preview (no node in ngx-vflow). */
  readonly previewed = computed(() => this.large() && (this.view.viewport()?.zoom ?? 0) < PREVIEW_BELOW_ZOOM);

  /**
   * What ngx-vflow renders: every node of a small diagram; of a large one, those the viewport shows (none when it
   * is previewed). Computed from plain boxes, not ngx-vflow's signals, and the previous array is kept while the same
   * nodes are shown, so panning and a collapse off screen cost ngx-vflow nothing.
   */
  readonly shownNodes = computed<Node[]>(
    () => {
      const placed = this.nodes();
      if (!this.large()) return placed.map((item) => this.flowNode(item));
      const viewport = this.view.viewport();
      if (!viewport || this.previewed()) return EMPTY;
      return inView(placed, viewport, this.view.viewSize()).map((item) => this.flowNode(item));
    },
    { equal: sameItems },
  );
  /** The edges between shown nodes (ngx-vflow draws no edge with a missing end). */
  readonly shownEdges = computed<Edge<EdgeData>[]>(
    () => {
      const edges = this.edges();
      if (!this.large()) return edges.map((item) => this.flowEdge(item));
      const shown = new Set(this.shownNodes().map((node) => node.id));
      return shown.size === 0 ? EMPTY : edges.filter((edge) => shown.has(edge.source) && shown.has(edge.target)).map((item) => this.flowEdge(item));
    },
    { equal: sameItems },
  );

  /** Group names over a zoomed-out overview of a large diagram (overviewLabels). */
  readonly overviewLabels = computed(() => {
    const drawing = this.laidOut();
    const viewport = this.view.viewport();
    return drawing && viewport ? overviewLabels(drawing, viewport, this.view.viewSize()) : EMPTY;
  });

  /**
   * Hands ngx-vflow a drawing. A first drawing (`drawn` given: called two frames after its edges, when ngx-vflow has
   * rendered the nodes and measured itself) renders in two tasks: the nodes (ngx-vflow's node models and every node's
   * component), then the edges, minimap and `data-drawn`. In one task, on a diagram whose nodes are all on screen (60
   * nodes), it was the load's longest task, over 200 ms. A drawing made in between (a collapse) draws its own edges.
   */
  draw({ model, result }: Drawing, drawn?: () => void): void {
    const draw = ++this.draws;
    const items = placedElements(model, result, (group) => this.groupDataFor(group));
    const routed = routedEdges(model, result);
    this.sync(items, routed);
    this.nodes.set(items);
    const complete = () => {
      this.edges.set(routed);
      this.laidOut.set({ model, result });
    };
    if (!drawn) return complete();
    afterNextRender(
      () =>
        setTimeout(() => {
          if (draw === this.draws) complete();
          requestAnimationFrame(() => requestAnimationFrame(drawn));
        }),
      { injector: this.view.injector },
    );
  }

  /** Arrange mode makes the drawn nodes draggable (the ones made later read it in flowNode). */
  setDraggable(draggable: boolean): void {
    this.elements.setDraggable(draggable);
  }

  /** Where ngx-vflow's drags have put the nodes and group frames that moved (their ids in the diagram). */
  dragged(): ({ id: string } & Point)[] {
    const moves: ({ id: string } & Point)[] = [];
    for (const item of this.nodes()) {
      const point = this.elements.movedFrom(item.id, item.box);
      if (point) moves.push({ id: item.id.startsWith(GROUP_PREFIX) ? item.id.slice(GROUP_PREFIX.length) : item.id, x: Math.round(point.x), y: Math.round(point.y) });
    }
    return moves;
  }

  /** A refused drag: every node back where it is drawn. */
  undoDrag(): void {
    this.sync(this.nodes(), this.edges());
    for (const item of this.nodes()) this.elements.moveTo(item.id, { x: item.box.x, y: item.box.y });
  }

  pathOf(route: EdgeRoute): string {
    let path = this.paths.get(route);
    if (path === undefined) {
      path = roundedPath(route.points);
      this.paths.set(route, path);
    }
    return path;
  }

  private groupDataFor(group: CanvasGroup): GroupData {
    let data = this.groupData.get(group);
    if (!data) {
      data = { group };
      this.groupData.set(group, data);
    }
    return data;
  }

  /** ngx-vflow's node for a placed element: the one it was handed (kept up to date by sync), else a new one. */
  private flowNode(item: Placed): Node {
    const { id, type, box, data } = item;
    return this.elements.node(
      id,
      (node) => node.type === type,
      () => newFlowNode({ id, type, point: { x: box.x, y: box.y }, width: box.width, height: box.height, data }, { draggable: signal(untracked(() => this.view.arranging())) }),
    );
  }

  private flowEdge(item: Routed): Edge<EdgeData> {
    const { key, source, target } = item;
    return this.elements.edge(
      key,
      (edge) => edge.source === source && edge.target === target,
      () => ({ id: key, source, target, type: 'template', data: signal(routedData(item)) }),
    );
  }

  /**
   * Brings ngx-vflow's nodes and edges it was handed to the new drawing, writing only what changed (each write wakes
   * ngx-vflow's computations for that element), and drops the others (see elements).
   */
  private sync(placed: Placed[], routed: Routed[]): void {
    const shownNodes = new Set(untracked(this.shownNodes));
    const byId = new Map(placed.map((item) => [item.id, item]));
    this.elements.keepNodes((node, id) => {
      const item = byId.get(id);
      if (!item || !shownNodes.has(node) || node.type !== item.type) return false;
      this.elements.update(node, item.box, item.box, item.data);
      return true;
    });
    const shownEdges = new Set(untracked(this.shownEdges));
    const byKey = new Map(routed.map((item) => [item.key, item]));
    this.elements.keepEdges((edge, key) => {
      const item = byKey.get(key);
      if (!item || !shownEdges.has(edge) || edge.source !== item.source || edge.target !== item.target) return false;
      const before = edge.data?.();
      // Unchanged: no write, so ngx-vflow and the edge's template see nothing to do.
      if (before?.edge !== item.edge || !sameRoute(before.route, item.route)) edge.data?.set(routedData(item));
      return true;
    });
  }
}
