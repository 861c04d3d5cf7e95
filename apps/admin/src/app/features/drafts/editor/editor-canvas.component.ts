import { ChangeDetectionStrategy, Component, ElementRef, ViewEncapsulation, computed, effect, inject, input, output, signal, untracked, viewChild, type Signal, type WritableSignal } from '@angular/core';
import { Vflow, VflowComponent, type Connection, type ConnectionSettings, type Edge, type Node } from 'ngx-vflow';
import { markerUrl, roundedPath, usedMarkers, type Box, type CanvasEdge, type CanvasNode, type ContextShape, type EdgeRoute, type ModelInput, type NodeType } from '@sc/diagram';
import { CanvasNodeComponent } from '../../diagram-canvas/canvas-node.component';
import { EdgeMarkersComponent } from '../../diagram-canvas/edge-markers.component';
import { fitZoomLimits } from '../../diagram-canvas/fit';
import { readableFit } from '../../diagram-canvas/readable-fit';
import { EMPTY_SELECTION, GRID, absolutePosition, connect, labelOf, move, reparent, setLabel, snap, type Point, type Selection } from './editor-doc';
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
  imports: [Vflow, CanvasNodeComponent, EdgeMarkersComponent],
  templateUrl: './editor-canvas.component.html',
  // The viewer's node, group and edge styles (all scoped under .sc-diagram-canvas), then the editor's own.
  styleUrls: ['../../diagram-canvas/diagram-canvas.component.scss', './editor-canvas.component.scss'],
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

  private readonly vNodes = new Map<string, Node>();
  private readonly vEdges = new Map<string, Edge<EdgeData>>();

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
    for (const id of [...this.vNodes.keys()]) if (!seen.has(id)) this.vNodes.delete(id);
    return out;
  }

  private vNode(id: string, type: 'html-template' | 'template-group', point: Point, size: { width: number; height: number }, parent: string | undefined, data: unknown): Node {
    type Full = Node & { width: WritableSignal<number>; height: WritableSignal<number>; data: WritableSignal<unknown>; selected: WritableSignal<boolean> };
    const parentId = parent !== undefined ? flowId(parent, true) : null;
    const existing = this.vNodes.get(id) as Full | undefined;
    if (existing && existing.type === type && (existing.parentId?.() ?? null) === parentId) {
      const current = existing.point();
      if (current.x !== point.x || current.y !== point.y) existing.point.set(point);
      existing.width.set(size.width);
      existing.height.set(size.height);
      existing.data.set(data);
      return existing;
    }
    const node = {
      id,
      type,
      point: signal(point),
      width: signal(size.width),
      height: signal(size.height),
      data: signal(data),
      parentId: signal(parentId),
      extent: signal(null),
      draggable: signal(!this.readonly()),
      selected: signal(false),
    } as unknown as Node;
    this.vNodes.set(id, node);
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
      let existing = this.vEdges.get(id);
      // ngx-vflow reads an edge's ends and which labels it has when the edge first comes in: a change of either is a
      // new edge object.
      const hadLabel = existing ? Object.keys(existing.edgeLabels?.() ?? {}).length > 0 : false;
      if (existing && (existing.source !== vid(edge.source) || existing.target !== vid(edge.target) || hadLabel !== vflowLabel)) existing = undefined;
      if (existing) {
        // The label object stays: ngx-vflow measures a label once per label object, so a new one on every redraw
        // was drawn in a zero-size (clipping) box. Its text follows the edge's data signal instead.
        existing.data?.set(data);
      } else {
        const current = signal(data);
        existing = {
          id,
          source: vid(edge.source),
          target: vid(edge.target),
          type: 'template',
          floating: signal(true),
          selected: signal(false),
          data: current,
          edgeLabels: signal(vflowLabel ? { center: { type: 'html-template' as const, data: current } } : {}),
        };
        this.vEdges.set(id, existing);
      }
      out.push(existing);
    }
    for (const id of [...this.vEdges.keys()]) if (!seen.has(id)) this.vEdges.delete(id);
    return out;
  }

  nodeData(data: unknown): CanvasNode {
    return data as CanvasNode;
  }

  groupData(data: unknown): EditorGroup {
    return data as EditorGroup;
  }

  edgeData(data: unknown): EdgeData {
    return data as EdgeData;
  }

  /** A label's data is its edge's data signal (see flowEdges). */
  labelData(data: unknown): EdgeData {
    return (data as Signal<EdgeData>)();
  }

  readonly markerUrl = markerUrl;

  /** The drawn path of an edge: its layout route, or ngx-vflow's line between its ends. */
  edgePath(data: EdgeData, path: string): string {
    return data.route ? roundedPath(data.route.points) : path;
  }

  // Selection -----------------------------------------------------------------------------------------------------

  /** Marks the store's selection on ngx-vflow's nodes and edges. */
  private showSelection(selection: Selection): void {
    const nodes = new Set([...selection.nodes, ...selection.groups.map((id) => flowId(id, true))]);
    for (const [id, node] of this.vNodes) {
      const selected = nodes.has(id);
      if (node.selected && node.selected() !== selected) node.selected.set(selected);
    }
    const edges = new Set(selection.edges.map((i) => `e${i}`));
    for (const [id, edge] of this.vEdges) {
      const selected = edges.has(id);
      if (edge.selected && edge.selected() !== selected) edge.selected.set(selected);
    }
  }

  /** ngx-vflow changed what is selected (click, Shift+click, rubber band): the store follows. */
  selectionChanged(): void {
    const nodes: string[] = [];
    const groups: string[] = [];
    const edges: number[] = [];
    for (const [id, node] of this.vNodes) {
      if (!node.selected?.()) continue;
      if (id.startsWith(GROUP_PREFIX)) groups.push(graphId(id));
      else nodes.push(id);
    }
    for (const [id, edge] of this.vEdges) if (edge.selected?.()) edges.push(Number(id.slice(1)));
    const current = this.store().selection();
    const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((v, i) => v === b[i]);
    if (same(current.nodes, nodes) && same(current.groups, groups) && same(current.edges, edges)) return;
    this.store().selection.set({ nodes, groups, edges });
  }

  /** The selection when a Shift+click began, before ngx-vflow (whose Shift also starts a rubber band) touched it. */
  private selectionAtPress: Selection | null = null;

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
      const now = this.vNodes.get(vid)?.point();
      if (now && (now.x !== point.x || now.y !== point.y)) {
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
    const flow = this.flow();
    const rect = (this.host.nativeElement as HTMLElement).querySelector('.canvas-viewport')?.getBoundingClientRect();
    if (!flow || !rect) return { x: 0, y: 0 };
    const { x, y, zoom } = flow.viewport();
    return { x: (client.x - rect.left - x) / zoom, y: (client.y - rect.top - y) / zoom };
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

  /** The element ngx-vflow draws in, when it has a size (not before it is laid out, nor while hidden). */
  private viewElement(): HTMLElement | null {
    const viewport = (this.host.nativeElement as HTMLElement).querySelector<HTMLElement>('.canvas-viewport');
    return viewport && viewport.clientWidth > 0 ? viewport : null;
  }

  /**
   * The part of the drawing the canvas shows (drawing coordinates), less `reserveRight` pixels on its right (the
   * properties panel about to open there).
   */
  visibleArea(reserveRight = 0): Box | null {
    const viewport = this.viewElement();
    const flow = this.flow();
    if (!viewport || !flow) return null;
    const { x, y, zoom } = flow.viewport();
    const width = Math.max(viewport.clientWidth - reserveRight, viewport.clientWidth / 3);
    return { x: -x / zoom, y: -y / zoom, width: width / zoom, height: viewport.clientHeight / zoom };
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
    const viewport = this.viewElement();
    const flow = this.flow();
    const boxes = this.boxes();
    if (!viewport || !flow || boxes.length === 0) return;
    const left = Math.min(...boxes.map((b) => b.x));
    const top = Math.min(...boxes.map((b) => b.y));
    const drawing = { x: left, y: top, width: Math.max(...boxes.map((b) => b.x + b.width)) - left, height: Math.max(...boxes.map((b) => b.y + b.height)) - top };
    const view = { width: viewport.clientWidth, height: viewport.clientHeight };
    flow.viewportTo(readableFit(drawing, view, { width: 0, height: 0 }, FIT_PADDING, this.model().nodes.length, MIN_ZOOM));
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
    const viewport = this.viewElement();
    const flow = this.flow();
    const box = absoluteBoxes(this.model()).get(id);
    if (!viewport || !flow || !box) return;
    const view = { width: viewport.clientWidth, height: viewport.clientHeight };
    let { x, y, zoom } = flow.viewport();
    const room = { width: view.width - 2 * REVEAL_MARGIN, height: view.height - 2 * REVEAL_MARGIN };
    if (box.width * zoom > room.width || box.height * zoom > room.height) {
      zoom = Math.max(fitZoomLimits(this.model().nodes.length, MIN_ZOOM).min, Math.min(zoom, room.width / box.width, room.height / box.height));
    }
    const axis = (start: number, length: number, offset: number, space: number) => {
      const near = start * zoom + offset;
      const far = near + length * zoom;
      if (length * zoom > space - 2 * REVEAL_MARGIN || near < REVEAL_MARGIN) return offset + REVEAL_MARGIN - near;
      if (far > space - REVEAL_MARGIN) return offset - (far - (space - REVEAL_MARGIN));
      return offset;
    };
    // The zoom changes around the view's top-left corner before the box is brought in.
    const scale = zoom / flow.viewport().zoom;
    x = axis(box.x, box.width, x * scale, view.width);
    y = axis(box.y, box.height, y * scale, view.height);
    const now = flow.viewport();
    if (now.x !== x || now.y !== y || now.zoom !== zoom) flow.viewportTo({ x, y, zoom });
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
