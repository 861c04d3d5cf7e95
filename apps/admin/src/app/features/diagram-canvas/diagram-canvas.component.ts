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
  type WritableSignal,
} from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { MatTooltipModule } from '@angular/material/tooltip';
import type { ArrangementLists } from '@sc/contracts';
import { arrangementOf, atBoxSize, moveBoxes, type DiagramView } from '@sc/diagram';
import { boxAt, boxesWithin, keyboardMove, spanned, toggled, withBendAdded, withBendMoved, withBendRemoved } from './arrange-edit';
import { Vflow, VflowComponent, type Edge, type Node } from 'ngx-vflow';
import { ModelReuse, buildModel, edgeKeys, layoutInput, type CanvasEdge, type CanvasGroup, type CanvasModel, type CanvasNode, type Highlights, type ModelInput } from './canvas-model';
import { CanvasNodeComponent } from './canvas-node.component';
import { DetailsPanelComponent, type Selection } from './details-panel.component';
import { markerUrl, roundedPath, usedMarkers } from './edge-path';
import { EdgeMarkersComponent } from './edge-markers.component';
import { collapseKey, layoutInPlace } from './in-place';
import { centre, type Box, type EdgeRoute, type LayoutInput, type LayoutResult, type Point } from './layout';
import { LayoutEngine } from './layout-engine.service';
import { ElkArrangedDrawing } from './elk-arranged-drawing';
import { fitViewport, fitZoomLimits, READABLE_UP_TO } from './fit';
import { textWidth } from './text-measure';
import { CanvasMinimapComponent, MINIMAP_HEIGHT, MINIMAP_WIDTH } from './minimap.component';
import { CanvasPreviewComponent } from './preview.component';

interface EdgeData {
  edge: CanvasEdge;
  /** The SVG path is made from the route only when the edge is rendered (pathOf): zoomed out, none is. */
  route: EdgeRoute;
  label?: Point;
}

/** Same points, so the same drawn line (a new layout object for an unchanged route). */
function sameRoute(a: EdgeRoute, b: EdgeRoute): boolean {
  if (a === b) return true;
  if (a.points.length !== b.points.length || a.label?.x !== b.label?.x || a.label?.y !== b.label?.y) return false;
  return a.points.every((point, i) => point.x === b.points[i].x && point.y === b.points[i].y);
}

interface GroupData {
  group: CanvasGroup;
}

/** A node or group frame of the last drawing, where it is drawn; ngx-vflow's node for it is made when it is shown. */
interface Placed {
  id: string;
  type: 'html-template' | 'template-group';
  box: Box;
  data: unknown;
}

/** An edge of the last drawing between ngx-vflow ids; ngx-vflow's edge for it is made when it is shown. */
interface Routed {
  key: string;
  source: string;
  target: string;
  edge: CanvasEdge;
  route: EdgeRoute;
}

const edgeData = ({ edge, route }: Routed): EdgeData => ({ edge, route, ...(route.label ? { label: route.label } : {}) });

/** Nodes above this count are drawn only where the viewport shows them (and as boxes when zoomed far out). */
const VIRTUALIZE_ABOVE = 250;
/** Below this zoom a large diagram is drawn as boxes on the preview canvas, with no node or edge in the DOM. */
const PREVIEW_BELOW_ZOOM = 0.3;
/** The minimap's box over the view's bottom-right corner with its margins (see .canvas-minimap): fit leaves it free. */
const MINIMAP_CORNER = { width: MINIMAP_WIDTH + 20, height: MINIMAP_HEIGHT + 20 };
const FIT_PADDING = 0.04;
/** The toolbar (search, zoom) floats over the top of the view; fit and centring keep the drawing below it. */
const TOOLBAR_HEIGHT = 48;
/**
 * Zoomed out so far that a group's 13 px name is drawn under this screen size, a diagram of more than
 * READABLE_UP_TO nodes shows its group names over the drawing at this size (overviewLabels).
 */
const OVERVIEW_LABEL_SIZE = 12;
const GROUP_TITLE_SIZE = 13;
/** A frame narrower than this on screen gets no overview label (it would cover its neighbours). */
const OVERVIEW_LABEL_MIN_WIDTH = 72;
const OVERVIEW_LABEL_FONT = { size: OVERVIEW_LABEL_SIZE, weight: 600 };
/** An overview label's height on screen (12 px text, padding): labels closer than this vertically would overlap. */
const OVERVIEW_LABEL_HEIGHT = 18;
const EMPTY: never[] = [];
/** The same elements in the same order: ngx-vflow is handed the previous array and has nothing to do. */
const sameItems = <T>(a: readonly T[], b: readonly T[]) => a === b || (a.length === b.length && a.every((item, i) => item === b[i]));
/** Zoom limits: far enough out for 1,000 nodes, close enough in to read a table node's cells. */
const MIN_ZOOM = 0.02;
const MAX_ZOOM = 3;
/** Layouts kept by collapse state (the oldest is dropped first). */
const KEPT_LAYOUTS = 16;
const clampZoom = (zoom: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
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
  imports: [Vflow, CanvasNodeComponent, CanvasMinimapComponent, CanvasPreviewComponent, DetailsPanelComponent, EdgeMarkersComponent, MatButtonModule, MatIconModule, MatTooltipModule],
  templateUrl: './diagram-canvas.component.html',
  styleUrls: ['./diagram-canvas.component.scss', './arrange-mode.scss'],
  host: { class: 'sc-diagram-canvas', '(document:keydown)': 'shortcut($event)' },
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
  /**
   * Arrange mode's selection for "Auto-arrange selection" (node and group ids): shift-click toggles one, a shift-drag
   * on the canvas selects what its rectangle encloses. Emptied when arrange mode ends.
   */
  readonly arrangeSelection = signal<ReadonlySet<string>>(new Set());
  /** The rectangle of a shift-drag under way, in the viewport's pixels (null: none). */
  readonly boxSelecting = signal<{ left: number; top: number; width: number; height: number } | null>(null);
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
  readonly selection = signal<Selection | null>(null);
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
  private readonly vNodes = new Map<string, Node>();
  private readonly vEdges = new Map<string, Edge<EdgeData>>();

  /** The nodes and edges of the last layout, where they are drawn (set with it, outside any reactive context). */
  private readonly nodes = signal<Placed[]>([]);
  private readonly edges = signal<Routed[]>([]);

  /**
   * Group names over a zoomed-out overview of a diagram of more than READABLE_UP_TO nodes, at OVERVIEW_LABEL_SIZE on
   * screen, at the top-left of each frame wide enough to hold a label: the frames' own names are unreadable there
   * (and absent from the preview canvas).
   */
  readonly overviewLabels = computed(() => {
    const drawing = this.laidOut();
    const viewport = this.flow()?.viewport();
    if (!drawing || !viewport || drawing.model.nodes.length <= READABLE_UP_TO) return EMPTY;
    const { x, y, zoom } = viewport;
    if (GROUP_TITLE_SIZE * zoom >= OVERVIEW_LABEL_SIZE) return EMPTY;
    const { width, height } = this.viewSize();
    const labels: { id: string; title: string; left: number; top: number; width: number }[] = [];
    // Outer groups first; a label that would overlap one already placed (a nested frame starting at its parent's
    // corner) is left out.
    for (const group of [...drawing.model.groups].sort((a, b) => a.depth - b.depth)) {
      const box = drawing.result.boxes[group.id];
      if (!box) continue;
      const left = box.x * zoom + x;
      const top = box.y * zoom + y;
      const shown = Math.min(box.width * zoom, textWidth(group.title, OVERVIEW_LABEL_FONT) + 12);
      if (box.width * zoom < OVERVIEW_LABEL_MIN_WIDTH || left > width || top > height || left + shown < 0 || top + box.height * zoom < 0) continue;
      const overlaps = labels.some((label) => left < label.left + label.width && label.left < left + shown && Math.abs(top - label.top) < OVERVIEW_LABEL_HEIGHT);
      if (!overlaps) labels.push({ id: group.id, title: group.title, left, top, width: shown });
    }
    return labels;
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
      const { x, y, zoom } = flow.viewport();
      const { width, height } = this.viewSize();
      const left = -x / zoom;
      const top = -y / zoom;
      const right = left + width / zoom;
      const bottom = top + height / zoom;
      return placed.filter(({ box }) => box.x <= right && box.x + box.width >= left && box.y <= bottom && box.y + box.height >= top).map((item) => this.flowNode(item));
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

  /**
   * Groups (outermost first, so inner frames are drawn above outer ones) then nodes, at absolute positions (their
   * ngx-vflow nodes: flowNode, kept up to date by syncFlow).
   *
   * No `parentId` (flowNode): the viewer does not drag, and with parents ngx-vflow re-sorts every group's descendants on each
   * update (its pullNode walks `children()`, recomputed from all nodes after every write), which was most of the
   * main thread's time on a 1,000-node diagram (0.5 s of a 0.6 s task in the CPU profile).
   */
  private flowNodes(model: CanvasModel, result: LayoutResult): Placed[] {
    const boxes = result.boxes;
    const out: Placed[] = [];
    for (const group of [...model.groups].sort((a, b) => a.depth - b.depth)) {
      const box = boxes[group.id];
      if (box) out.push({ id: `g:${group.id}`, type: 'template-group', box, data: this.groupDataFor(group) });
    }
    for (const node of model.nodes) {
      const box = boxes[node.id];
      // A node resized in arrange mode draws at its box's size (never below its own: moveBoxes).
      if (box) out.push({ id: node.id, type: 'html-template', box, data: atBoxSize(node, box) });
    }
    return out;
  }

  private flowEdges(model: CanvasModel, result: LayoutResult): Routed[] {
    const ids = new Set(model.nodes.map((n) => n.id));
    const vid = (id: string) => (ids.has(id) ? id : `g:${id}`);
    const out: Routed[] = [];
    for (const edge of model.edges) {
      const route = result.edges[edge.key];
      if (route && !edge.invisible) out.push({ key: edge.key, source: vid(edge.source), target: vid(edge.target), edge, route });
    }
    return out;
  }

  /** ngx-vflow's node for a placed element: the one it was handed (kept up to date by draw), else a new one. */
  private flowNode(item: Placed): Node {
    const existing = this.vNodes.get(item.id);
    if (existing && existing.type === item.type) return existing;
    const node = {
      id: item.id,
      type: item.type,
      point: signal({ x: item.box.x, y: item.box.y }),
      width: signal(item.box.width),
      height: signal(item.box.height),
      data: signal(item.data),
      draggable: signal(untracked(this.arranging)),
    } as Node;
    this.vNodes.set(item.id, node);
    return node;
  }

  private flowEdge(item: Routed): Edge<EdgeData> {
    const existing = this.vEdges.get(item.key);
    if (existing && existing.source === item.source && existing.target === item.target) return existing;
    const edge: Edge<EdgeData> = { id: item.key, source: item.source, target: item.target, type: 'template', data: signal(edgeData(item)) };
    this.vEdges.set(item.key, edge);
    return edge;
  }

  /**
   * Brings ngx-vflow's nodes and edges it was handed to the new drawing, writing only what changed (each write wakes
   * ngx-vflow's computations for that element), and drops the others (see vNodes).
   */
  private syncFlow(placed: Placed[], routed: Routed[]): void {
    type Sized = Node & { width: WritableSignal<number>; height: WritableSignal<number>; data: WritableSignal<unknown> };
    const shownNodes = new Set(untracked(this.shownNodes));
    const byId = new Map(placed.map((item) => [item.id, item]));
    for (const [id, node] of this.vNodes) {
      const item = byId.get(id);
      if (!item || !shownNodes.has(node) || node.type !== item.type) {
        this.vNodes.delete(id);
        continue;
      }
      const sized = node as Sized;
      const point = sized.point();
      if (point.x !== item.box.x || point.y !== item.box.y) sized.point.set({ x: item.box.x, y: item.box.y });
      sized.width.set(item.box.width);
      sized.height.set(item.box.height);
      sized.data.set(item.data);
    }
    const shownEdges = new Set(untracked(this.shownEdges));
    const byKey = new Map(routed.map((item) => [item.key, item]));
    for (const [key, edge] of this.vEdges) {
      const item = byKey.get(key);
      if (!item || !shownEdges.has(edge) || edge.source !== item.source || edge.target !== item.target) {
        this.vEdges.delete(key);
        continue;
      }
      const before = edge.data?.();
      // Unchanged: no write, so ngx-vflow and the edge's template see nothing to do.
      if (before?.edge !== item.edge || !sameRoute(before.route, item.route)) edge.data?.set(edgeData(item));
    }
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
  readonly query = signal('');
  readonly matches = computed(() => {
    const query = this.query().trim().toLowerCase();
    if (!query) return [];
    return this.searchable()
      .filter((item) => item.id.toLowerCase().includes(query) || item.title.toLowerCase().includes(query))
      .slice(0, 8);
  });

  constructor() {
    // The minimap's frame follows the viewport's size as the browser lays it out; reading the size after each
    // drawing instead forced a style and layout pass of its own (45 ms of a collapse in the CPU profile).
    afterNextRender(() => {
      const element = (this.host.nativeElement as HTMLElement).querySelector('.canvas-viewport');
      if (!element) return;
      const observer = new ResizeObserver(() => this.viewSize.set(this.size()));
      observer.observe(element);
      this.destroyRef.onDestroy(() => observer.disconnect());
      // Arrange mode's shift-click and shift-drag selection, before ngx-vflow sees the pointer (no pan, no drag).
      const down = (event: Event) => this.selectPointerDown(event as PointerEvent, element as HTMLElement);
      const click = (event: Event) => {
        if (this.arranging() && (event as MouseEvent).shiftKey && (event.target as Element | null)?.closest?.('vflow')) {
          event.stopPropagation();
          event.preventDefault();
        }
      };
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
        for (const node of this.vNodes.values()) (node.draggable as WritableSignal<boolean> | undefined)?.set(arranging);
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
    const items = this.flowNodes(model, result);
    const routed = this.flowEdges(model, result);
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
    const flow = this.flow();
    const { width, height } = this.size();
    if (!flow || width === 0 || result.width === 0 || result.height === 0) return;
    // The toolbar floats over the top of the view: the drawing is fitted below it.
    const view = { width, height: Math.max(height - TOOLBAR_HEIGHT, 1) };
    const fitted = fitViewport(result, view, MINIMAP_CORNER, FIT_PADDING, fitZoomLimits(model.nodes.length, MIN_ZOOM));
    flow.viewportTo({ ...fitted, y: fitted.y + TOOLBAR_HEIGHT });
  }

  // Viewport -------------------------------------------------------------------------------------------------------

  /** The whole drawing, clear of the minimap. A viewport without size (not laid out, hidden) has nothing to fit into. */
  fit(): void {
    const drawing = this.laidOut();
    if (drawing) this.fitTo(drawing.model, drawing.result);
  }

  zoomBy(factor: number): void {
    const flow = this.flow();
    if (!flow) return;
    const { x, y, zoom } = flow.viewport();
    const next = clampZoom(zoom * factor);
    const { width, height } = this.size();
    // Zoom around the centre of the view, as the buttons have no pointer position.
    const cx = (width / 2 - x) / zoom;
    const cy = (height / 2 - y) / zoom;
    flow.viewportTo({ x: width / 2 - cx * next, y: height / 2 - cy * next, zoom: next });
  }

  /** The size of the element showing the flow, kept for the minimap's frame. */
  readonly viewSize = signal({ width: 0, height: 0 });
  readonly minZoom = MIN_ZOOM;
  readonly maxZoom = MAX_ZOOM;

  /** Centres the view on a point of the drawing, keeping the zoom (the minimap). */
  panTo(point: Point): void {
    const flow = this.flow();
    if (!flow) return;
    const { zoom } = flow.viewport();
    const { width, height } = this.size();
    flow.viewportTo({ x: width / 2 - point.x * zoom, y: height / 2 - point.y * zoom, zoom });
  }

  /** Centres the node or group; zooms in to a readable scale when the view is zoomed far out. */
  centreOn(id: string): void {
    const flow = this.flow();
    const box = this.laidOut()?.result.boxes[id];
    if (!flow || !box) return;
    const zoom = Math.max(flow.viewport().zoom, 0.9);
    const { width, height } = this.size();
    // The details panel (open, or opening for the node found) covers the right of the view: centre in the rest.
    const panelOpen = this.selection() !== null || this.model().nodes.some((n) => n.id === id);
    const visibleWidth = panelOpen ? Math.max(width - 360, width / 2) : width;
    const c = centre(box);
    flow.viewportTo({ x: visibleWidth / 2 - c.x * zoom, y: height / 2 - c.y * zoom, zoom });
  }

  private size(): { width: number; height: number } {
    const element = (this.host.nativeElement as HTMLElement).querySelector('.canvas-viewport');
    return { width: element?.clientWidth ?? 0, height: element?.clientHeight ?? 0 };
  }

  // Selection, search, keyboard ------------------------------------------------------------------------------------

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
  select(selection: Selection | null): void {
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
    this.clearSearch();
    this.centreOn(id);
    const node = this.model().nodes.find((n) => n.id === id);
    if (node) this.select({ kind: 'node', node });
    // The node may be rendered only once the viewport shows it (virtualization): focus after the next frames.
    requestAnimationFrame(() => requestAnimationFrame(() => this.focusElement(id)));
  }

  private readonly searchBox = viewChild<ElementRef<HTMLInputElement>>('search');

  /** Ctrl+K (⌘K) anywhere on the page goes to the search box. */
  shortcut(event: KeyboardEvent): void {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      this.searchBox()?.nativeElement.focus();
    }
  }

  searchKey(event: KeyboardEvent): void {
    if (event.key === 'Enter') {
      const first = this.matches()[0];
      if (first) this.goTo(first.id);
    } else if (event.key === 'Escape') {
      this.clearSearch();
    }
  }

  /**
   * Empties the query and the box itself: typed and answered (Enter) before change detection ran, the box's `[value]`
   * binding still holds '' from its last update, so setting the query back to '' would leave the typed text there.
   */
  private clearSearch(): void {
    this.query.set('');
    const box = this.searchBox()?.nativeElement;
    if (box) box.value = '';
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
    if (event.key === '+' || event.key === '=') {
      this.zoomBy(1.25);
    } else if (event.key === '-' || event.key === '_') {
      this.zoomBy(0.8);
    } else if (event.key === '0') {
      this.fit();
    } else if (event.key === 'Escape') {
      this.select(null);
    } else if (event.key.startsWith('Arrow')) {
      const from = target.closest<HTMLElement>('[data-node-id]')?.dataset['nodeId'];
      // Arrange mode: the focused (else the selected) node moves instead, saved like a drag.
      if (this.arranging() && this.moveByKey(from, event)) return event.preventDefault();
      const next = this.neighbour(from, event.key);
      if (!next) return;
      this.centreIfHidden(next);
      requestAnimationFrame(() => this.focusElement(next));
    } else {
      return;
    }
    event.preventDefault();
  }

  /** The nearest node from `from` in the arrow's direction (the first node when nothing is focused). */
  private neighbour(from: string | undefined, key: string): string | undefined {
    const laidOut = this.laidOut();
    if (!laidOut) return undefined;
    const boxes = laidOut.result.boxes;
    const nodes = laidOut.model.nodes.filter((n) => boxes[n.id]);
    if (from === undefined || !boxes[from]) return nodes[0]?.id;
    const origin = centre(boxes[from]);
    const [dx, dy] = key === 'ArrowRight' ? [1, 0] : key === 'ArrowLeft' ? [-1, 0] : key === 'ArrowDown' ? [0, 1] : [0, -1];
    let best: { id: string; score: number } | undefined;
    for (const node of nodes) {
      if (node.id === from) continue;
      const c = centre(boxes[node.id]);
      const along = (c.x - origin.x) * dx + (c.y - origin.y) * dy;
      if (along <= 0) continue;
      const across = Math.abs((c.x - origin.x) * dy) + Math.abs((c.y - origin.y) * dx);
      const score = along + across * 2;
      if (!best || score < best.score) best = { id: node.id, score };
    }
    return best?.id;
  }

  private centreIfHidden(id: string): void {
    const flow = this.flow();
    const box = this.laidOut()?.result.boxes[id];
    if (!flow || !box) return;
    const { x, y, zoom } = flow.viewport();
    const { width, height } = this.size();
    const left = box.x * zoom + x;
    const top = box.y * zoom + y;
    if (zoom < 0.3 || left < 0 || top < TOOLBAR_HEIGHT || left + box.width * zoom > width || top + box.height * zoom > height) this.centreOn(id);
  }

  /** Display names of nodes and groups, for edge ends in the details panel. */
  readonly labelOf = (id: string): string => this.searchable().find((item) => item.id === id)?.title ?? id;

  groupData(data: unknown): GroupData {
    return data as GroupData;
  }

  edgeData(data: unknown): EdgeData {
    return data as EdgeData;
  }

  nodeData(data: unknown): CanvasNode {
    return data as CanvasNode;
  }

  readonly markerUrl = markerUrl;

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
      const point = this.vNodes.get(item.id)?.point();
      if (point && (point.x !== item.box.x || point.y !== item.box.y)) moves.push({ id: item.id.startsWith('g:') ? item.id.slice(2) : item.id, x: Math.round(point.x), y: Math.round(point.y) });
    }
    if (moves.length === 0) return;
    const input = layoutInput(drawing.model);
    const boxes = moveBoxes(input, drawing.result.boxes, moves);
    if (!boxes) {
      // Back where they were drawn.
      this.syncFlow(this.nodes(), this.edges());
      for (const item of this.nodes()) (this.vNodes.get(item.id)?.point as WritableSignal<Point> | undefined)?.set({ x: item.box.x, y: item.box.y });
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

  /**
   * Resizing a node or a group: its bottom-right corner is dragged; where it is released is its new corner (a node
   * never smaller than its own size, a frame never smaller than what it holds: moveBoxes).
   */
  startResize(id: string, event: PointerEvent): void {
    if (!this.arranging()) return;
    event.stopPropagation();
    event.preventDefault();
    const handle = event.target as SVGElement;
    handle.setPointerCapture?.(event.pointerId);
    const release = (up: PointerEvent) => {
      handle.removeEventListener('pointerup', release);
      const drawing = this.laidOut();
      const box = drawing?.result.boxes[id];
      const corner = this.drawingPoint(up);
      if (!drawing || !box || !corner) return;
      const input = layoutInput(drawing.model);
      const boxes = moveBoxes(input, drawing.result.boxes, [{ id, x: box.x, y: box.y, width: corner.x - box.x, height: corner.y - box.y }]);
      if (boxes) this.arrange.emit(this.arrangementFor(input, { ...drawing.result, boxes }));
      else this.arrangeRefused.emit();
    };
    handle.addEventListener('pointerup', release);
  }

  /** Where an edge's "add a bend" handle is drawn in arrange mode: the middle of its middle segment. */
  bendHandle(route: EdgeRoute): Point {
    const middle = Math.floor((route.points.length - 1) / 2);
    const p = route.points[middle];
    const q = route.points[middle + 1] ?? p;
    return { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 };
  }

  /** The bends of a drawn edge (its route's points between its ends), each with a handle in arrange mode. */
  bendPoints(route: EdgeRoute): Point[] {
    return route.points.slice(1, -1);
  }

  /**
   * Dragging one of an edge's handles: the pointer is captured (the canvas does not pan) and where it is released
   * becomes `drop`'s point. The middle handle adds a bend on the middle segment; a bend's handle moves that bend.
   */
  private dragHandle(event: PointerEvent, drop: (point: Point) => void): void {
    event.stopPropagation();
    event.preventDefault();
    const handle = event.target as SVGElement;
    handle.setPointerCapture?.(event.pointerId);
    const release = (up: PointerEvent) => {
      handle.removeEventListener('pointerup', release);
      const point = this.drawingPoint(up);
      if (point) drop(point);
    };
    handle.addEventListener('pointerup', release);
  }

  /** The middle handle dragged: a new bend where it is released, on the segment it was drawn on. */
  startBend(edge: CanvasEdge, route: EdgeRoute, event: PointerEvent): void {
    if (!this.arranging() || edge.key.startsWith('*')) return;
    const segment = Math.floor((route.points.length - 1) / 2);
    this.dragHandle(event, (point) => this.bendWith(edge.key, withBendAdded(route, point, segment)));
  }

  /** A bend's handle dragged: that bend moves to where it is released. */
  startBendMove(edge: CanvasEdge, route: EdgeRoute, index: number, event: PointerEvent): void {
    if (!this.arranging() || edge.key.startsWith('*')) return;
    this.dragHandle(event, (point) => this.bendWith(edge.key, withBendMoved(route, index, point)));
  }

  /** A double click on an edge's line: a new bend there, on the nearest segment. */
  addBendAt(edge: CanvasEdge, route: EdgeRoute, event: MouseEvent): void {
    if (!this.arranging() || edge.key.startsWith('*')) return;
    event.stopPropagation();
    const point = this.drawingPoint(event);
    if (point) this.bendWith(edge.key, withBendAdded(route, point));
  }

  /** A double click on a bend's handle: that bend is removed. */
  removeBend(edge: CanvasEdge, route: EdgeRoute, index: number, event: Event): void {
    if (!this.arranging() || edge.key.startsWith('*')) return;
    event.stopPropagation();
    this.bendWith(edge.key, withBendRemoved(route, index));
  }

  /** A double click on the middle handle: the edge straight again (no bends). */
  straighten(edge: CanvasEdge, event: Event): void {
    if (!this.arranging() || edge.key.startsWith('*')) return;
    event.stopPropagation();
    this.bendWith(edge.key, []);
  }

  private bendWith(key: string, points: Point[] | null): void {
    const drawing = this.laidOut();
    if (!drawing || !points) return;
    this.arrange.emit(this.arrangementFor(layoutInput(drawing.model), drawing.result, new Map([[key, points]])));
  }

  /**
   * Arrange mode with Shift held: a click toggles the node or group under the pointer in arrangeSelection, a drag
   * selects every node and group its rectangle encloses. Taken before ngx-vflow (capture phase, default prevented, so
   * no mouse events follow): the canvas neither pans nor drags a node.
   */
  private selectPointerDown(event: PointerEvent, viewport: HTMLElement): void {
    const drawing = this.laidOut();
    // Only on the drawing: the minimap and the details panel keep their own clicks.
    if (!this.arranging() || !event.shiftKey || event.button !== 0 || !drawing || !(event.target as Element | null)?.closest?.('vflow')) return;
    const start = this.drawingPoint(event);
    if (!start) return;
    event.stopPropagation();
    event.preventDefault();
    const rect = viewport.getBoundingClientRect();
    const from = { x: event.clientX, y: event.clientY };
    viewport.setPointerCapture?.(event.pointerId);
    const ids = () => [...drawing.model.nodes.map((node) => node.id), ...drawing.model.groups.map((group) => group.id)];
    const move = (at: PointerEvent) => {
      const area = spanned(from, { x: at.clientX, y: at.clientY });
      this.boxSelecting.set(area.width + area.height < 4 ? null : { left: area.x - rect.left, top: area.y - rect.top, width: area.width, height: area.height });
    };
    const up = (at: PointerEvent) => {
      viewport.removeEventListener('pointermove', move);
      viewport.removeEventListener('pointerup', up);
      this.boxSelecting.set(null);
      const end = this.drawingPoint(at);
      if (!end) return;
      if (Math.abs(at.clientX - from.x) + Math.abs(at.clientY - from.y) < 4) {
        const id = boxAt(drawing.result.boxes, ids(), end);
        if (id !== null) this.arrangeSelection.set(toggled(this.arrangeSelection(), id));
        return;
      }
      const chosen = boxesWithin(drawing.result.boxes, ids(), spanned(start, end));
      if (chosen.length) this.arrangeSelection.set(new Set([...this.arrangeSelection(), ...chosen]));
    };
    viewport.addEventListener('pointermove', move);
    viewport.addEventListener('pointerup', up);
  }

  /** A pointer's place in the drawing's coordinates. */
  private drawingPoint(event: MouseEvent): Point | null {
    const flow = this.flow();
    const element = (this.host.nativeElement as HTMLElement).querySelector('vflow');
    if (!flow || !element) return null;
    const { x, y, zoom } = flow.viewport();
    const rect = element.getBoundingClientRect();
    return { x: Math.round((event.clientX - rect.left - x) / zoom), y: Math.round((event.clientY - rect.top - y) / zoom) };
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
