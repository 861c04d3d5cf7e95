import { ChangeDetectionStrategy, Component, ElementRef, ViewEncapsulation, computed, effect, inject, input, output, signal, untracked, viewChild, type Signal } from '@angular/core';
import { usedMarkers, roundedPath } from '@sc/diagram';
import type { Box, CanvasEdge, CanvasNode, ContextShape, EdgeRoute, ModelInput, NodeType } from '@sc/diagram';
import { Vflow, VflowComponent, type Connection, type ConnectionSettings, type Edge, type Node } from 'ngx-vflow';
import { CanvasNodeComponent } from '../../diagram-canvas/canvas-node.component';
import { EdgeMarkersComponent } from '../../diagram-canvas/edge-markers.component';
import { fitZoomLimits } from '../../diagram-canvas/fit';
import { CanvasEdgeComponent } from '../../diagram-canvas/shared/canvas-edge.component';
import { CanvasViewport } from '../../diagram-canvas/shared/canvas-viewport';
import { FlowElements, dataOf, newFlowNode } from '../../diagram-canvas/shared/flow-elements';
import { EMPTY_SELECTION, GRID, absolutePosition, connect, labelOf, move, reparent, setLabel, snap, type Point, type EditorSelection } from './editor-doc';
import { absoluteBoxes, editorModel, labelOnRoute, usableRoutes, type EditorGroup, type EditorModel, type LaidOutRoutes } from './editor-model';
import type { EditorStore } from './editor-store';

interface EdgeData {
  edge: CanvasEdge;
  index: number;
  /** The last automatic layout's route, while it still fits (usableRoutes); else ngx-vflow's straight line. */
  route?: EdgeRoute;
  /** Top-left corner of a routed edge's label: where the layout put it, or halfway along the route. */
  labelAt?: Point;
}

/** The canvas's zoom limits (ngx-vflow's minZoom and maxZoom). */
const MIN_ZOOM = 0.1;
const MAX_ZOOM = 3;
/** Share of the drawing's size kept free around it by a fit. */
const FIT_PADDING = 0.1;
/** Nothing covers a corner of the editor's view (it has no minimap). */
const NO_CORNER = { width: 0, height: 0 };
/** Room kept between a revealed node and the edge of the view. */
const REVEAL_MARGIN = 24;

/** What a palette item carries through drag and drop. */
export interface PaletteDrop {
  type: NodeType;
  shape?: ContextShape;
}

export const PALETTE_MIME = 'application/x-sc-palette';

type LabelTarget = { kind: 'node' | 'group'; id: string } | { kind: 'edge'; index: number };

/** The in-place label editor: what it edits, where it is drawn (over the canvas) and its text. */
interface LabelEditing {
  target: LabelTarget;
  left: number;
  top: number;
  width: number;
  text: string;
}

const GROUP_PREFIX = 'g:';
const flowId = (id: string, isGroup: boolean) => (isGroup ? `${GROUP_PREFIX}${id}` : id);
const graphId = (id: string) => (id.startsWith(GROUP_PREFIX) ? id.slice(GROUP_PREFIX.length) : id);

/**
 * The editing canvas: the same ngx-vflow canvas and node components as the viewer, drawn from the editor's
 * document. Nodes and group frames can be dragged (snapped to the grid), connected by dragging from a handle,
 * selected (click, Shift+click, Shift+drag for a rubber band) and renamed in place (double-click). Every change
 * goes to the EditorStore, so it can be undone. Test hooks as the viewer: data-testid="diagram-canvas",
 * data-node-id, data-edge-source/target, data-group-id.
 */
@Component({
  selector: 'sc-editor-canvas',
  changeDetection: ChangeDetectionStrategy.OnPush,
  encapsulation: ViewEncapsulation.None,
  imports: [Vflow, CanvasNodeComponent, CanvasEdgeComponent, EdgeMarkersComponent],
  templateUrl: './editor-canvas.component.html',
  // The drawing's styles shared with the viewer (all scoped under .sc-diagram-canvas), then the editor's own.
  styleUrls: ['../../diagram-canvas/shared/canvas-drawing.scss', './editor-canvas.component.scss'],
  host: { class: 'sc-diagram-canvas sc-editor-canvas', '(pointerdown)': 'pointerHeld = true', '(document:pointerup)': 'released()' },
})
export class EditorCanvasComponent {
  private readonly host = inject(ElementRef<HTMLElement>);

  readonly store = input.required<EditorStore>();
  readonly snapToGrid = input(true);
  readonly readonly = input(false);
  /** Synced databases the db-table and data-source nodes are bound to, by database name (their columns are drawn). */
  readonly databases = input<ModelInput['databases']>(new Map());
  /** The routes of the last automatic layout: edges whose ends are still where it put them are drawn along them. */
  readonly routes = input<LaidOutRoutes | null>(null);
  /** A palette item was dropped on the canvas at a point of the drawing. */
  readonly dropped = output<{ item: PaletteDrop; at: Point }>();

  readonly flow = viewChild(VflowComponent);
  readonly minZoom = MIN_ZOOM;
  readonly maxZoom = MAX_ZOOM;
  readonly model = computed<EditorModel>(() => editorModel(this.store().doc(), this.databases()));
  private readonly usable = computed(() => usableRoutes(this.model(), this.routes()));
  /** The zoom, for tests (data-zoom). */
  readonly zoom = computed(() => Math.round((this.flow()?.viewport().zoom ?? 1) * 1000) / 1000);
  readonly markers = computed(() => usedMarkers(this.model().edges.map((e) => e.edge)));
  readonly nodes = signal<Node[]>([]);
  readonly edges = signal<Edge<EdgeData>[]>([]);
  readonly snapGrid = computed<[number, number]>(() => (this.snapToGrid() ? [GRID, GRID] : [1, 1]));
  readonly connection: ConnectionSettings = { mode: 'loose', allowSelfConnections: false };
  readonly shortcuts = { selection: ['ShiftLeft', 'ShiftRight'], multiSelection: ['ShiftLeft', 'ShiftRight', 'ControlLeft', 'ControlRight', 'MetaLeft', 'MetaRight'] };
  readonly editing = signal<LabelEditing | null>(null);

  /** ngx-vflow's nodes and edges by id, kept while their element is drawn (see FlowElements). */
  private readonly elements = new FlowElements<EdgeData>();
  private readonly viewport = new CanvasViewport(
    () => this.flow(),
    () => (this.host.nativeElement as HTMLElement).querySelector<HTMLElement>('.canvas-viewport'),
  );

  constructor() {
    effect(() => {
      const model = this.model();
      const routes = this.usable();
      const selection = this.store().selection();
      untracked(() => {
        this.nodes.set(this.flowNodes(model));
        this.edges.set(this.flowEdges(model, routes));
        this.showSelection(selection);
      });
    });
  }

  // Drawing -------------------------------------------------------------------------------------------------------

  private flowNodes(model: EditorModel): Node[] {
    const out: Node[] = [];
    const seen = new Set<string>();
    for (const group of model.groups) {
      const id = flowId(group.id, true);
      seen.add(id);
      out.push(this.vNode(id, 'template-group', group.point, group, group.parent, group));
    }
    for (const entry of model.nodes) {
      seen.add(entry.node.id);
      out.push(this.vNode(entry.node.id, 'html-template', entry.point, entry.node, entry.parent, entry.node));
    }
    this.elements.keepNodes((_, id) => seen.has(id));
    return out;
  }

  private vNode(id: string, type: 'html-template' | 'template-group', point: Point, size: { width: number; height: number }, parent: string | undefined, data: unknown): Node {
    const parentId = parent !== undefined ? flowId(parent, true) : null;
    const node = this.elements.node(
      id,
      (existing) => existing.type === type && (existing.parentId?.() ?? null) === parentId,
      () =>
        newFlowNode(
          { id, type, point, width: size.width, height: size.height, data },
          { parentId: signal(parentId), extent: signal(null), draggable: signal(!this.readonly()), selected: signal(false) },
        ),
    );
    // A node just made already holds these values: nothing is written.
    this.elements.update(node, point, size, data);
    return node;
  }

  private flowEdges(model: EditorModel, routes: ReadonlyMap<string, EdgeRoute>): Edge<EdgeData>[] {
    const groups = new Set(model.groups.map((g) => g.id));
    const vid = (id: string) => flowId(id, groups.has(id));
    const out: Edge<EdgeData>[] = [];
    const seen = new Set<string>();
    for (const { edge, index } of model.edges) {
      const id = `e${index}`;
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

  readonly nodeData = dataOf<CanvasNode>();
  readonly groupData = dataOf<EditorGroup>();
  readonly edgeData = dataOf<EdgeData>();

  /** A label's data is its edge's data signal (see flowEdges). */
  labelData(data: unknown): EdgeData {
    return (data as Signal<EdgeData>)();
  }

  /** The drawn path of an edge: its layout route, or ngx-vflow's line between its ends. */
  edgePath(data: EdgeData, path: string): string {
    return data.route ? roundedPath(data.route.points) : path;
  }

  // Selection -----------------------------------------------------------------------------------------------------------

  /** Marks the store's selection on ngx-vflow's nodes and edges. */
  private showSelection(selection: EditorSelection): void {
    this.elements.showSelected(new Set([...selection.nodes, ...selection.groups.map((id) => flowId(id, true))]), new Set(selection.edges.map((i) => `e${i}`)));
  }

  /** ngx-vflow changed what is selected (click, Shift+click, rubber band): the store follows. */
  selectionChanged(): void {
    const selected = this.elements.selected();
    const nodes = selected.nodes.filter((id) => !id.startsWith(GROUP_PREFIX));
    const groups = selected.nodes.filter((id) => id.startsWith(GROUP_PREFIX)).map(graphId);
    const edges = selected.edges.map((id) => Number(id.slice(1)));
    const current = this.store().selection();
    const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((v, i) => v === b[i]);
    if (same(current.nodes, nodes) && same(current.groups, groups) && same(current.edges, edges)) return;
    this.store().selection.set({ nodes, groups, edges });
  }

  /** The selection when a Shift+click began, before ngx-vflow (whose Shift also starts a rubber band) touched it. */
  private selectionAtPress: EditorSelection | null = null;

  pressed(event: PointerEvent): void {
    this.selectionAtPress = event.shiftKey ? this.store().selection() : null;
  }

  /** Shift+click adds the node or group to what was selected, whatever ngx-vflow made of the click meanwhile. */
  shiftClicked(kind: 'node' | 'group', id: string, event: MouseEvent): void {
    const before = this.selectionAtPress;
    this.selectionAtPress = null;
    if (!event.shiftKey || !before) return;
    setTimeout(() => {
      const key = kind === 'node' ? 'nodes' : 'groups';
      if (before[key].includes(id)) return;
      this.store().selection.set({ ...before, [key]: [...before[key], id] });
    });
  }

  /** Enter or Space on a focused node selects it as a click does (with Shift it joins the selection). */
  keySelected(id: string, event: Event): void {
    event.preventDefault();
    const current = this.store().selection();
    if (!(event as KeyboardEvent).shiftKey) this.store().selection.set({ ...EMPTY_SELECTION, nodes: [id] });
    else if (!current.nodes.includes(id)) this.store().selection.set({ ...current, nodes: [...current.nodes, id] });
  }

  // Moving and connecting ---------------------------------------------------------------------------------------------

  /** After a drag: every node or group whose position differs from the document's is moved, in one step. */
  dragEnded(): void {
    const model = this.model();
    const moves: ({ id: string } & Point)[] = [];
    const check = (vid: string, id: string, point: Point) => {
      const now = this.elements.movedFrom(vid, point);
      if (now) {
        moves.push({ id, x: this.snapToGrid() ? snap(now.x) : Math.round(now.x), y: this.snapToGrid() ? snap(now.y) : Math.round(now.y) });
      }
    };
    for (const group of model.groups) check(flowId(group.id, true), group.id, group.point);
    for (const entry of model.nodes) check(entry.node.id, entry.node.id, entry.point);
    if (moves.length === 0) return;
    const movedNodes = moves.map((m) => m.id).filter((id) => model.nodes.some((n) => n.node.id === id));
    this.store().apply((doc) => {
      let next = move(doc, moves);
      // A node dropped on a frame joins that group; dropped outside its frame, it leaves it.
      for (const id of movedNodes) {
        const entry = model.nodes.find((n) => n.node.id === id);
        if (!entry) continue;
        const at = absolutePosition(next, id);
        // Frames as they were before the drop (a frame grows around its members, so after it the node is always in).
        const frame = this.frameAt({ x: at.x + entry.node.width / 2, y: at.y + entry.node.height / 2 }, model, doc);
        next = reparent(next, id, frame?.id);
      }
      return next;
    });
  }

  connected(connection: Connection): void {
    this.store().apply((doc) => connect(doc, graphId(connection.source), graphId(connection.target)));
  }

  // Palette drops -------------------------------------------------------------------------------------------------

  dragOver(event: DragEvent): void {
    if (event.dataTransfer?.types.includes(PALETTE_MIME)) {
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    }
  }

  drop(event: DragEvent): void {
    const raw = event.dataTransfer?.getData(PALETTE_MIME);
    if (!raw) return;
    event.preventDefault();
    const item = JSON.parse(raw) as PaletteDrop;
    this.dropped.emit({ item, at: this.toDrawing({ x: event.clientX, y: event.clientY }) });
  }

  /** A point of the page (client coordinates) as a point of the drawing. */
  toDrawing(client: Point): Point {
    return this.viewport.toDrawing(client, (this.host.nativeElement as HTMLElement).querySelector('.canvas-viewport')) ?? { x: 0, y: 0 };
  }

  /** The innermost group frame under a point of the drawing, with the frame's top-left corner (canvas coordinates). */
  frameAt(point: Point, model = this.model(), doc = this.store().doc()): { id: string; origin: Point } | null {
    let found: { id: string; origin: Point; depth: number } | null = null;
    for (const frame of model.groups) {
      const origin = absolutePosition(doc, frame.id);
      const inside = point.x >= origin.x && point.y >= origin.y && point.x <= origin.x + frame.width && point.y <= origin.y + frame.height;
      if (inside && (!found || frame.depth > found.depth)) found = { id: frame.id, origin, depth: frame.depth };
    }
    return found ? { id: found.id, origin: found.origin } : null;
  }

  /**
   * The part of the drawing the canvas shows (drawing coordinates), less `reserveRight` pixels on its right (the
   * properties panel about to open there).
   */
  visibleArea(reserveRight = 0): Box | null {
    return this.viewport.visibleArea(reserveRight);
  }

  /** Every node and group frame where it is drawn (drawing coordinates). */
  boxes(): Box[] {
    return [...absoluteBoxes(this.model()).values()];
  }

  /**
   * The whole drawing at a readable zoom (readableFit: never above 1.25×, text never under 9 px for up to 150
   * nodes; a larger drawing shows its top-left corner).
   */
  fit(): void {
    const boxes = this.boxes();
    if (this.viewport.size().width === 0 || !this.flow() || boxes.length === 0) return;
    const left = Math.min(...boxes.map((b) => b.x));
    const top = Math.min(...boxes.map((b) => b.y));
    const drawing = { x: left, y: top, width: Math.max(...boxes.map((b) => b.x + b.width)) - left, height: Math.max(...boxes.map((b) => b.y + b.height)) - top };
    this.viewport.fit(drawing, this.model().nodes.length, { corner: NO_CORNER, padding: FIT_PADDING, minZoom: MIN_ZOOM });
  }

  pointerHeld = false;
  private revealOnRelease: string | null = null;

  released(): void {
    this.pointerHeld = false;
    const id = this.revealOnRelease;
    this.revealOnRelease = null;
    if (id !== null) this.reveal(id);
  }

  /**
   * Brings a node or group frame into view with the least panning, REVEAL_MARGIN from the edges (whatever covered
   * it, such as the properties panel that opened beside the canvas, no longer does). One too large for the view is
   * zoomed out to, as far as text stays readable, and shown from its top-left corner.
   */
  reveal(id: string): void {
    // Not under a dragging pointer: the node would slide away from it. It is revealed when the pointer is released.
    if (this.pointerHeld) {
      this.revealOnRelease = id;
      return;
    }
    const box = absoluteBoxes(this.model()).get(id);
    if (box) this.viewport.reveal(box, REVEAL_MARGIN, fitZoomLimits(this.model().nodes.length, MIN_ZOOM).min);
  }

  // Labels in place -------------------------------------------------------------------------------------------------

  editLabel(target: LabelTarget, event?: Event): void {
    if (this.readonly()) return;
    event?.stopPropagation();
    const flow = this.flow();
    if (!flow) return;
    const doc = this.store().doc();
    const { x, y, zoom } = flow.viewport();
    let at: Point;
    let width = 180;
    if (target.kind === 'edge') {
      const element = (this.host.nativeElement as HTMLElement).querySelector(`[data-edge-index="${target.index}"] .edge-line`);
      const box = element?.getBoundingClientRect();
      const viewport = (this.host.nativeElement as HTMLElement).querySelector('.canvas-viewport')?.getBoundingClientRect();
      at = box && viewport ? { x: box.left - viewport.left + box.width / 2 - 90, y: box.top - viewport.top + box.height / 2 - 16 } : { x: 40, y: 40 };
    } else {
      const point = absolutePosition(doc, target.id);
      const entry = target.kind === 'node' ? this.model().nodes.find((n) => n.node.id === target.id)?.node : this.model().groups.find((g) => g.id === target.id);
      width = Math.max(140, (entry?.width ?? 180) * zoom);
      at = { x: point.x * zoom + x, y: point.y * zoom + y + (target.kind === 'node' ? ((entry?.height ?? 40) * zoom) / 2 - 16 : 4) };
    }
    this.editing.set({ target, left: at.x, top: at.y, width, text: labelOf(doc, target) });
    requestAnimationFrame(() => {
      const input = (this.host.nativeElement as HTMLElement).querySelector<HTMLInputElement>('.label-editor');
      input?.focus();
      input?.select();
    });
  }

  commitLabel(text: string): void {
    const editing = this.editing();
    if (!editing) return;
    this.editing.set(null);
    this.store().apply((doc) => setLabel(doc, editing.target, text));
  }

  labelKey(event: KeyboardEvent, text: string): void {
    event.stopPropagation();
    if (event.key === 'Enter') this.commitLabel(text);
    else if (event.key === 'Escape') this.editing.set(null);
  }
}
