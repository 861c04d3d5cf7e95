import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  ElementRef,
  Injector,
  afterNextRender,
  ViewEncapsulation,
  computed,
  effect,
  inject,
  input,
  output,
  signal,
  untracked,
  viewChild,
} from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { MatTooltipModule } from '@angular/material/tooltip';
import type { ArrangementLists } from '@sc/contracts';
import { ModelReuse, arrangementOf, buildModel, edgeKeys, layoutInput, moveBoxes, roundedPath, usedMarkers } from '@sc/diagram';
import type { CanvasEdge, CanvasGroup, CanvasModel, CanvasNode, DiagramView, EdgeRoute, Highlights, LayoutInput, LayoutResult, ModelInput, Point } from '@sc/diagram';
import { Vflow, VflowComponent, type Edge, type Node } from 'ngx-vflow';
import { keyboardMove } from './arrange-edit';
import { ArrangeGestures } from './arrange-gestures';
import { CanvasNodeComponent } from './canvas-node.component';
import { DetailsPanelComponent, type SelectedElement } from './details-panel.component';
import { GROUP_PREFIX, inView, placedElements, routedData, routedEdges, sameItems, sameRoute, type EdgeData, type GroupData, type Placed, type Routed } from './drawn-elements';
import { EdgeMarkersComponent } from './edge-markers.component';
import { collapseKey, layoutInPlace } from './in-place';
import { LayoutEngine } from './layout-engine.service';
import { ElkArrangedDrawing } from './elk-arranged-drawing';
import { CanvasMinimapComponent, MINIMAP_HEIGHT, MINIMAP_WIDTH } from './minimap.component';
import { overviewLabels } from './overview-labels';
import { CanvasPreviewComponent } from './preview.component';
import { CanvasEdgeComponent } from './shared/canvas-edge.component';
import { CanvasSearchComponent } from './shared/canvas-search.component';
import { CanvasViewport } from './shared/canvas-viewport';
import { FlowElements, dataOf, newFlowNode } from './shared/flow-elements';
import { canvasKeyAction, neighbour } from './shared/keyboard-navigation';

/** Nodes above this count are drawn only where the viewport shows them (and as boxes when zoomed far out). */
const VIRTUALIZE_ABOVE = 250;
/** Below this zoom a large diagram is drawn as boxes on the preview canvas, with no node or edge in the DOM. */
const PREVIEW_BELOW_ZOOM = 0.3;
/** Zoomed out further than this, a node gone to (keyboard, URL) is centred and zoomed in to even when it is in view. */
const CENTRE_BELOW_ZOOM = 0.3;
/** The zoom a node gone to is shown at, at least (centreOn). */
const READ_ZOOM = 0.9;
/** The details panel's width: a node is centred in what it leaves of the view. */
const PANEL_WIDTH = 360;
/** The minimap's box over the view's bottom-right corner with its margins (see .canvas-minimap): fit leaves it free. */
const MINIMAP_CORNER = { width: MINIMAP_WIDTH + 20, height: MINIMAP_HEIGHT + 20 };
const FIT_PADDING = 0.04;
/** The toolbar (search, zoom) floats over the top of the view; fit and centring keep the drawing below it. */
const TOOLBAR_HEIGHT = 48;
const EMPTY: never[] = [];
/** Zoom limits: far enough out for 1,000 nodes, close enough in to read a table node's cells. */
const ZOOM_LIMITS = { min: 0.02, max: 3 };
/** Layouts kept by collapse state (the oldest is dropped first). */
const KEPT_LAYOUTS = 16;
/** Resolves in a later task, letting the browser handle input and paint in between. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));
const afterNextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

/**
 * The interactive diagram canvas (the host page provides the LayoutEngine, so it can start it early): the diagram's
 * visible graph laid out by ELK in a Web Worker and drawn with
 * ngx-vflow (zoom, pan, minimap), one component per node kind, groups as frames with a Hide details button,
 * edges with their labels, strokes and markers, a details panel, search, keyboard access and change highlights.
 */
@Component({
  selector: 'sc-diagram-canvas',
  changeDetection: ChangeDetectionStrategy.OnPush,
  encapsulation: ViewEncapsulation.None,
  imports: [Vflow, CanvasNodeComponent, CanvasEdgeComponent, CanvasSearchComponent, CanvasMinimapComponent, CanvasPreviewComponent, DetailsPanelComponent, EdgeMarkersComponent, MatButtonModule, MatIconModule, MatTooltipModule],
  templateUrl: './diagram-canvas.component.html',
  styleUrls: ['./shared/canvas-drawing.scss', './diagram-canvas.component.scss', './arrange-mode.scss'],
  host: { class: 'sc-diagram-canvas' },
})
export class DiagramCanvasComponent {
  private readonly engine = inject(LayoutEngine);
  /** The arrangement drawn over the automatic layout, what it does not place put by ELK in the layout workers. */
  private readonly arranged = new ElkArrangedDrawing(this.engine.engine);
  private readonly host = inject(ElementRef<HTMLElement>);
  private readonly destroyRef = inject(DestroyRef);
  private readonly injector = inject(Injector);

  readonly view = input.required<DiagramView>();
  readonly databases = input<ModelInput['databases']>(new Map());
  readonly highlights = input<Highlights | null>(null);
  /** `/orgs/:org/services/:service`, for links to database pages. */
  readonly serviceLink = input('');
  readonly revision = input<number>();
  readonly label = input('Diagram');
  /** A group's Hide details / Show details button was pressed. */
  readonly toggleGroup = output<string>();
  /** The node to select, from the page's URL (`?node=`): Back/Forward and shared links select it (null: none). */
  readonly selectedNode = input<string | null>(null);
  /** The user selected a node (its id), or an edge or nothing (null): the page writes it to its URL. */
  readonly selectedNodeChange = output<string | null>();
  /**
   * Where people arranged the diagram (a synced diagram's arrangement, saved or being edited): drawn over the automatic
   * layout by libs/diagram's applyArrangement (kept boxes stay, the others are placed around them).
   */
  readonly arrangement = input<ArrangementLists | null>(null);
  /** Arrange mode: nodes and group frames can be dragged; each drag ends in `arrange` with the whole new arrangement. */
  readonly arranging = input(false);
  readonly arrange = output<ArrangementLists>();
  /** A drag was refused (it would put an element inside a frame it is not a member of). */
  readonly arrangeRefused = output<void>();
  /** Arrange mode's resize, bend and selection gestures (ArrangeGestures), each ending in `arrange` or `arrangeRefused`. */
  readonly gestures = new ArrangeGestures({
    drawing: () => this.laidOut(),
    arranging: () => this.arranging(),
    drawingPoint: (event) => this.drawingPoint(event),
    arrangementFor: (input, result, bends) => this.arrangementFor(input, result, bends),
    arranged: (lists) => this.arrange.emit(lists),
    refused: () => this.arrangeRefused.emit(),
  });
  /**
   * Arrange mode's selection for "Auto-arrange selection" (node and group ids): shift-click toggles one, a shift-drag
   * on the canvas selects what its rectangle encloses. Emptied when arrange mode ends.
   */
  readonly arrangeSelection = this.gestures.selection;
  /** Nodes and groups the arrangement does not place (new since it was saved): highlighted with `data-placed`. */
  readonly placed = signal<ReadonlySet<string>>(new Set());
  /** The automatic layout last drawn and its model: redrawn with the arrangement whenever that changes. */
  private automatic: { model: CanvasModel; result: LayoutResult } | null = null;

  readonly flow = viewChild(VflowComponent);
  /** Elements built for the current graph, databases and highlights (see ModelReuse), and the layouts made for them by collapse state. */
  private reuse: ModelReuse | null = null;
  private results = new Map<string, LayoutResult>();
  /** The reuse (graph, databases, highlights) of the model on screen. */
  private drawnWith: ModelReuse | null = null;
  readonly model = computed(() => {
    const input: ModelInput = { view: this.view(), databases: this.databases(), highlights: this.highlights() };
    if (!this.reuse?.fits(input)) {
      this.reuse = new ModelReuse(input.view.graph, input.databases, input.highlights);
      this.results = new Map();
    }
    return buildModel(input, this.reuse);
  });
  /** The last layout and the model it was made for: drawn together, so the drawing never mixes two states. */
  readonly laidOut = signal<{ model: CanvasModel; result: LayoutResult } | null>(null);
  readonly layoutError = signal<string | null>(null);
  /**
   * ELK is laying out the model on screen (a first drawing, or a collapse drawn in place whose layout will replace
   * it): `data-layout="pending"` on the canvas, for what must read the final drawing (tests, exports).
   */
  readonly layingOut = signal(false);
  readonly selection = signal<SelectedElement | null>(null);
  readonly selectedId = computed(() => {
    const selected = this.selection();
    return selected?.kind === 'node' ? selected.node.id : null;
  });
  /**
   * By the whole graph, not what a collapse leaves visible: a large diagram is culled to the viewport (and drawn on
   * the preview canvas when zoomed out) whatever is collapsed.
   */
  readonly large = computed(() => this.view().graph.nodes.length > VIRTUALIZE_ABOVE);
  /**
   * ngx-vflow's own virtualization stays off: a large diagram is culled here (shownNodes) and its zoomed-out preview
   * is drawn by CanvasPreviewComponent, so ngx-vflow holds only the nodes on screen — none when zoomed out.
   */
  readonly optimization = { detachedGroupsLayer: true, virtualization: false };

  private layoutRun = 0;
  /** Drawings made, for the first drawing's second task (draw) to know whether another replaced it. */
  private draws = 0;
  private fitted = false;
  /**
   * ngx-vflow's nodes and edges, by id, for what it was last handed (shownNodes, shownEdges): draw keeps those up to
   * date and drops the others, which are made anew, from the drawing, when they are shown again. ngx-vflow keeps a
   * model only for the nodes it is handed, so a node off screen costs nothing to make anew; updating the signals of
   * every node on each collapse and expand (1,000 of them, none shown when zoomed out) was most of Angular's share.
   */
  private readonly elements = new FlowElements<EdgeData>();
  private readonly viewport = new CanvasViewport(
    () => this.flow(),
    () => (this.host.nativeElement as HTMLElement).querySelector<HTMLElement>('.canvas-viewport'),
  );

  /** The nodes and edges of the last layout, where they are drawn (set with it, outside any reactive context). */
  private readonly nodes = signal<Placed[]>([]);
  private readonly edges = signal<Routed[]>([]);

  /** Group names over a zoomed-out overview of a large diagram (overviewLabels). */
  readonly overviewLabels = computed(() => {
    const drawing = this.laidOut();
    const viewport = this.flow()?.viewport();
    return drawing && viewport ? overviewLabels(drawing, viewport, this.viewSize()) : EMPTY;
  });

  /** Zoomed out far enough that a large diagram is shown as its preview. */
  readonly previewed = computed(() => this.large() && (this.flow()?.viewport().zoom ?? 0) < PREVIEW_BELOW_ZOOM);

  /**
   * What ngx-vflow renders: every node of a small diagram; of a large one, those the viewport shows (none when it
   * is previewed). Computed from plain boxes, not ngx-vflow's signals, and the previous array is kept while the same
   * nodes are shown, so panning and a collapse off screen cost ngx-vflow nothing.
   */
  readonly shownNodes = computed<Node[]>(
    () => {
      const placed = this.nodes();
      if (!this.large()) return placed.map((item) => this.flowNode(item));
      const flow = this.flow();
      if (!flow || this.previewed()) return EMPTY;
      return inView(placed, flow.viewport(), this.viewSize()).map((item) => this.flowNode(item));
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

  /** ngx-vflow's node for a placed element: the one it was handed (kept up to date by syncFlow), else a new one. */
  private flowNode(item: Placed): Node {
    const { id, type, box, data } = item;
    return this.elements.node(
      id,
      (node) => node.type === type,
      () => newFlowNode({ id, type, point: { x: box.x, y: box.y }, width: box.width, height: box.height, data }, { draggable: signal(untracked(this.arranging)) }),
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
  private syncFlow(placed: Placed[], routed: Routed[]): void {
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

  /** SVG paths by route, made when an edge is rendered and kept while its route is. */
  private readonly paths = new WeakMap<EdgeRoute, string>();
  pathOf(route: EdgeRoute): string {
    let path = this.paths.get(route);
    if (path === undefined) {
      path = roundedPath(route.points);
      this.paths.set(route, path);
    }
    return path;
  }

  /** One data object per group, kept while the group is the same, so its frame is not redrawn for nothing. */
  private readonly groupDataOf = new WeakMap<CanvasGroup, GroupData>();
  private groupDataFor(group: CanvasGroup): GroupData {
    let data = this.groupDataOf.get(group);
    if (!data) {
      data = { group };
      this.groupDataOf.set(group, data);
    }
    return data;
  }

  /** Every marker the edges use, defined once. */
  readonly markers = computed(() => usedMarkers(this.model().edges));

  /** Nodes and groups, by id, for search and keyboard moves. */
  readonly searchable = computed(() => [
    ...this.model().nodes.filter((n) => n.kind !== 'start' && n.kind !== 'end').map((n) => ({ id: n.id, title: n.title, kind: n.kind as string })),
    ...this.model().groups.map((g) => ({ id: g.id, title: g.title, kind: 'group' })),
  ]);

  constructor() {
    // The minimap's frame follows the viewport's size as the browser lays it out; reading the size after each
    // drawing instead forced a style and layout pass of its own (45 ms of a collapse in the CPU profile).
    afterNextRender(() => {
      const element = (this.host.nativeElement as HTMLElement).querySelector('.canvas-viewport');
      if (!element) return;
      const observer = new ResizeObserver(() => this.viewSize.set(this.viewport.size()));
      observer.observe(element);
      this.destroyRef.onDestroy(() => observer.disconnect());
      // Arrange mode's shift-click and shift-drag selection, before ngx-vflow sees the pointer (no pan, no drag).
      const down = (event: Event) => this.gestures.selectPointerDown(event as PointerEvent, element as HTMLElement);
      const click = (event: Event) => this.gestures.selectClick(event as MouseEvent);
      element.addEventListener('pointerdown', down, true);
      element.addEventListener('click', click, true);
      this.destroyRef.onDestroy(() => {
        element.removeEventListener('pointerdown', down, true);
        element.removeEventListener('click', click, true);
      });
    });
    effect(() => {
      const model = this.model();
      untracked(() => this.show(model));
    });
    // A new arrangement (loaded, dragged, undone, reset) is drawn over the automatic layout already made.
    effect(() => {
      this.arrangement();
      untracked(() => {
        if (this.automatic && this.automatic.model === this.laidOut()?.model) this.draw(this.automatic.model, this.automatic.result);
      });
    });
    // Arrange mode makes the drawn nodes draggable (the ones made later read it in flowNode).
    effect(() => {
      const arranging = this.arranging();
      untracked(() => {
        this.elements.setDraggable(arranging);
        if (!arranging && this.arrangeSelection().size) this.arrangeSelection.set(new Set());
      });
    });
    // The page's selected node (its URL) is selected when it changes, once the node is drawn, and brought into view.
    effect(() => {
      const id = this.selectedNode();
      const model = this.model();
      untracked(() => this.applySelectedNode(id, model));
    });
    // A new selection keeps pointing at the same element after a redraw (collapse, highlights) when it still exists.
    effect(() => {
      const model = this.model();
      const selected = untracked(this.selection);
      if (selected?.kind === 'node') {
        const node = model.nodes.find((n) => n.id === selected.node.id);
        untracked(() => this.selection.set(node ? { kind: 'node', node } : null));
      }
    });
  }

  /**
   * Draws a new model: at once from a layout already made for its collapse state, else (a collapse) in place from
   * the current drawing while ELK lays it out in the worker, the layout replacing it when it arrives; a model with
   * nothing to start from (first drawing, an expand never laid out) waits for the layout.
   */
  private show(model: CanvasModel): void {
    const run = ++this.layoutRun;
    const key = collapseKey(model);
    const known = this.results.get(key);
    this.layingOut.set(!known);
    if (known) {
      this.draw(model, known);
      return;
    }
    const current = this.laidOut();
    // Only a collapse or expand of the graph on screen is drawn in place: another graph (a revision), other
    // databases or highlights may change sizes and elements, and wait for their layout.
    const inPlace = current && this.drawnWith === this.reuse ? layoutInPlace(current, model) : null;
    if (inPlace) this.draw(model, inPlace);
    void this.runLayout(model, run, key, inPlace !== null);
  }

  private async runLayout(model: CanvasModel, run: number, key: string, drawnInPlace: boolean): Promise<void> {
    const results = this.results;
    try {
      // Before the first drawing, the layout's bookkeeping and the drawing each get a task of their own, not the one
      // that built the model: a layout at hand (cached, or the server's) would otherwise make one long task of all three.
      // After a collapse drawn in place, the bookkeeping (the layout's input, the key of every container: a third of
      // the click's main-thread time on 1,000 nodes) and the worker's ELK run wait until the frame after the drawing,
      // so the browser paints the click's answer first without ELK taking one of the two cores meanwhile.
      if (drawnInPlace) await afterNextFrame();
      else if (!this.fitted) await nextTask();
      if (run !== this.layoutRun) return;
      const result = await this.engine.layout(layoutInput(model));
      results.set(key, result);
      // A few recent collapse states are enough to go back and forth; each 1,000-node layout is a few hundred kB.
      if (results.size > KEPT_LAYOUTS) results.delete(results.keys().next().value as string);
      if (!this.fitted) await nextTask();
      if (run !== this.layoutRun) return;
      this.draw(model, result);
    } catch (error: unknown) {
      if (run !== this.layoutRun) return;
      this.layoutError.set(error instanceof Error ? error.message : 'The diagram could not be laid out.');
    }
    if (run === this.layoutRun) this.layingOut.set(false);
  }

  private draw(model: CanvasModel, automatic: LayoutResult): void {
    this.automatic = { model, result: automatic };
    const arrangement = this.arrangement();
    // Without an arrangement the layout is drawn as it is, without building the layout input again.
    const arranged = this.arranged.drawing(() => layoutInput(model), automatic, arrangement, () => {
      if (this.automatic?.result === automatic) this.draw(model, automatic);
    });
    const result = arranged.layout;
    const placed = this.placed();
    if (placed.size !== arranged.placed.length || arranged.placed.some((id) => !placed.has(id))) this.placed.set(new Set(arranged.placed));
    const draw = ++this.draws;
    this.drawnWith = this.reuse;
    this.layoutError.set(null);
    const first = !this.fitted;
    if (first) this.fitTo(model, result);
    const items = placedElements(model, result, (group) => this.groupDataFor(group));
    const routed = routedEdges(model, result);
    this.syncFlow(items, routed);
    this.nodes.set(items);
    const complete = () => {
      this.edges.set(routed);
      this.laidOut.set({ model, result });
    };
    if (!first) {
      complete();
      return;
    }
    this.fitted = true;
    // The first drawing renders in two tasks: the nodes (ngx-vflow's node models and every node's component), then
    // the edges, minimap and `data-drawn`. In one task, on a diagram whose nodes are all on screen (60 nodes), it was
    // the load's longest task, over 200 ms. A drawing made in between (a collapse) has drawn its own edges.
    afterNextRender(
      () =>
        setTimeout(() => {
          if (draw === this.draws) complete();
          // After ngx-vflow has rendered the nodes and measured itself. The layout workers' warm-up, when put off
          // for the first drawing, starts in a task after that frame.
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              this.fit();
              if (this.revealNode) this.centreIfHidden(this.revealNode);
              this.revealNode = null;
              setTimeout(() => this.engine.drawn());
            }),
          );
        }),
      { injector: this.injector },
    );
  }

  /**
   * The first drawing starts at the zoom that fits it: at ngx-vflow's default zoom of 1 it would first render in full
   * every node that zoom shows, to drop them a frame later.
   */
  private fitTo(model: CanvasModel, result: LayoutResult): void {
    if (this.viewport.size().width === 0 || result.width === 0 || result.height === 0) return;
    const drawing = { x: 0, y: 0, width: result.width, height: result.height };
    this.viewport.fit(drawing, model.nodes.length, { corner: MINIMAP_CORNER, padding: FIT_PADDING, minZoom: ZOOM_LIMITS.min, top: TOOLBAR_HEIGHT });
  }

  // Viewport -------------------------------------------------------------------------------------------------------

  /** The whole drawing, clear of the minimap. A viewport without size (not laid out, hidden) has nothing to fit into. */
  fit(): void {
    const drawing = this.laidOut();
    if (drawing) this.fitTo(drawing.model, drawing.result);
  }

  zoomBy(factor: number): void {
    this.viewport.zoomBy(factor, ZOOM_LIMITS);
  }

  /** The size of the element showing the flow, kept for the minimap's frame. */
  readonly viewSize = signal({ width: 0, height: 0 });
  readonly minZoom = ZOOM_LIMITS.min;
  readonly maxZoom = ZOOM_LIMITS.max;

  /** Centres the view on a point of the drawing, keeping the zoom (the minimap). */
  panTo(point: Point): void {
    this.viewport.panTo(point);
  }

  /** Centres the node or group; zooms in to a readable scale when the view is zoomed far out. */
  centreOn(id: string): void {
    const box = this.laidOut()?.result.boxes[id];
    if (!box) return;
    const { width } = this.viewport.size();
    // The details panel (open, or opening for the node found) covers the right of the view: centre in the rest.
    const panelOpen = this.selection() !== null || this.model().nodes.some((n) => n.id === id);
    this.viewport.centreOn(box, READ_ZOOM, panelOpen ? Math.max(width - PANEL_WIDTH, width / 2) : width);
  }

  // Selection, search, keyboard ------------------------------------------------------------------------------------------

  selectNode(id: string): void {
    const node = this.model().nodes.find((n) => n.id === id);
    if (node) this.select({ kind: 'node', node });
  }

  selectEdge(edge: CanvasEdge, event: Event): void {
    event.stopPropagation();
    // In arrange mode a line is being edited (a double click adds a bend): no details panel over the drawing.
    if (this.arranging()) return;
    this.select({ kind: 'edge', edge });
  }

  /** A selection the user made (or closed): the page hears of a change of the selected node. */
  select(selection: SelectedElement | null): void {
    this.selection.set(selection);
    const id = selection?.kind === 'node' ? selection.node.id : null;
    if (id !== this.appliedNode) {
      this.appliedNode = id;
      this.selectedNodeChange.emit(id);
    }
  }

  /**
   * The selected node the page asked for last (selectedNode) or the user chose last: a change of the input to another
   * value is a new request (Back, Forward, a link); the same value coming back from the page's URL is not.
   */
  private appliedNode: string | null | undefined;
  /** A node selected from the URL before the first drawing, brought into view once drawn. */
  private revealNode: string | null = null;

  private applySelectedNode(id: string | null, model: CanvasModel): void {
    if (id === this.appliedNode) return;
    const current = this.selection();
    if (id === null) {
      this.appliedNode = null;
      if (current?.kind === 'node') this.selection.set(null);
      return;
    }
    // Not drawn (yet, or hidden by a collapse): selected when a model has it.
    const node = model.nodes.find((n) => n.id === id);
    if (!node) return;
    this.appliedNode = id;
    this.selection.set({ kind: 'node', node });
    if (this.laidOut()) this.centreIfHidden(id);
    else this.revealNode = id;
  }

  /** Finds a node or group by id or label, centres it and focuses it. */
  goTo(id: string): void {
    this.centreOn(id);
    const node = this.model().nodes.find((n) => n.id === id);
    if (node) this.select({ kind: 'node', node });
    // The node may be rendered only once the viewport shows it (virtualization): focus after the next frames.
    requestAnimationFrame(() => requestAnimationFrame(() => this.focusElement(id)));
  }

  private focusElement(id: string): void {
    const root = this.host.nativeElement as HTMLElement;
    const element = root.querySelector<HTMLElement>(`[data-node-id="${CSS.escape(id)}"], [data-group-id="${CSS.escape(id)}"] .group-toggle`);
    element?.focus({ preventScroll: true });
  }

  /**
   * +/- zoom, 0 fits; arrows move the focus to the nearest node in that direction (in arrange mode they move the
   * focused node); Escape closes the details.
   */
  keydown(event: KeyboardEvent): void {
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, .details-panel')) return;
    const action = canvasKeyAction(event.key);
    if (action === 'zoom-in') this.zoomBy(1.25);
    else if (action === 'zoom-out') this.zoomBy(0.8);
    else if (action === 'fit') this.fit();
    else if (action === 'close') this.select(null);
    else if (action === 'move') {
      const drawing = this.laidOut();
      const from = target.closest<HTMLElement>('[data-node-id]')?.dataset['nodeId'];
      // Arrange mode: the focused (else the selected) node moves instead, saved like a drag.
      if (this.arranging() && this.moveByKey(from, event)) return event.preventDefault();
      const next = drawing ? neighbour(drawing.result.boxes, drawing.model.nodes.map((node) => node.id), from, event.key) : undefined;
      if (!next) return;
      this.centreIfHidden(next);
      requestAnimationFrame(() => this.focusElement(next));
    } else return;
    event.preventDefault();
  }

  private centreIfHidden(id: string): void {
    const box = this.laidOut()?.result.boxes[id];
    if (box && this.flow() && !this.viewport.shows(box, TOOLBAR_HEIGHT, CENTRE_BELOW_ZOOM)) this.centreOn(id);
  }

  /** Display names of nodes and groups, for edge ends in the details panel. */
  readonly labelOf = (id: string): string => this.searchable().find((item) => item.id === id)?.title ?? id;

  readonly groupData = dataOf<GroupData>();
  readonly edgeData = dataOf<EdgeData>();
  readonly nodeData = dataOf<CanvasNode>();

  // Arrange mode -----------------------------------------------------------------------------------------------------

  /**
   * After a drag: the dragged nodes and frames at their new places (a frame carries its members, frames grow around
   * theirs), saved into a new arrangement for the page (which keeps it, with undo, until Save). A drag that would
   * put an element inside a frame it is not in is undone.
   */
  dragEnded(): void {
    const drawing = this.laidOut();
    if (!drawing || !this.arranging()) return;
    const moves: ({ id: string } & Point)[] = [];
    for (const item of this.nodes()) {
      const point = this.elements.movedFrom(item.id, item.box);
      if (point) moves.push({ id: item.id.startsWith(GROUP_PREFIX) ? item.id.slice(GROUP_PREFIX.length) : item.id, x: Math.round(point.x), y: Math.round(point.y) });
    }
    if (moves.length === 0) return;
    const input = layoutInput(drawing.model);
    const boxes = moveBoxes(input, drawing.result.boxes, moves);
    if (!boxes) {
      // Back where they were drawn.
      this.syncFlow(this.nodes(), this.edges());
      for (const item of this.nodes()) this.elements.moveTo(item.id, { x: item.box.x, y: item.box.y });
      this.arrangeRefused.emit();
      return;
    }
    this.arrange.emit(this.arrangementFor(input, { ...drawing.result, boxes }));
  }

  /**
   * An arrow key in arrange mode: the focused node (else the selected one) moved by the keyboard's step
   * (arrange-edit.ts keyboardMove), saved like a drag; false when no node moves (another key, no node).
   */
  private moveByKey(focused: string | undefined, event: KeyboardEvent): boolean {
    const selected = this.selection();
    const id = focused ?? (selected?.kind === 'node' ? selected.node.id : undefined);
    const drawing = this.laidOut();
    const box = id !== undefined ? drawing?.result.boxes[id] : undefined;
    const to = box ? keyboardMove(box, event) : null;
    if (!drawing || id === undefined || !to) return false;
    const input = layoutInput(drawing.model);
    const boxes = moveBoxes(input, drawing.result.boxes, [{ id, ...to }]);
    if (boxes) this.arrange.emit(this.arrangementFor(input, { ...drawing.result, boxes }));
    else this.arrangeRefused.emit();
    return true;
  }

  /** A pointer's place in the drawing's coordinates (whole pixels). */
  private drawingPoint(event: MouseEvent): Point | null {
    const point = this.viewport.toDrawing({ x: event.clientX, y: event.clientY }, (this.host.nativeElement as HTMLElement).querySelector('vflow'));
    return point && { x: Math.round(point.x), y: Math.round(point.y) };
  }

  /** The arrangement of everything as drawn now (a Save without a drag fixes the places of what was placed). */
  currentArrangement(): ArrangementLists | null {
    const drawing = this.laidOut();
    return drawing ? this.arrangementFor(layoutInput(drawing.model), drawing.result) : null;
  }

  private arrangementFor(input: LayoutInput, result: LayoutResult, bends: ReadonlyMap<string, Point[]> = new Map()): ArrangementLists {
    const graph = this.view().graph;
    const parentOf = new Map<string, string | undefined>([...graph.groups.map((g) => [g.id, g.parent] as const), ...graph.nodes.map((n) => [n.id, n.parent] as const)]);
    const edges = new Map(
      edgeKeys(graph.edges).map((key, i) => [key, { source: graph.edges[i].source, target: graph.edges[i].target, index: Number(key.slice(key.lastIndexOf('#') + 1)) }] as const),
    );
    return arrangementOf(input, result, bends, this.arrangement(), { parentOf, edges });
  }

  /** The drawn SVG of the whole diagram in its current state, for export. */
  laidOutDiagram(): { model: CanvasModel; result: LayoutResult } | null {
    return this.laidOut();
  }
}
