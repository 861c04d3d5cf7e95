import { ChangeDetectionStrategy, Component, ElementRef, ViewEncapsulation, computed, effect, inject, input, output, signal, untracked, viewChild, type Signal } from '@angular/core';
import { usedMarkers, roundedPath, rowsUnderOutline } from '@sc/diagram';
import type { Box, CanvasNode, ModelInput } from '@sc/diagram';
import { Vflow, VflowComponent, type Connection, type ConnectionSettings, type Edge, type Node } from 'ngx-vflow';
import { CanvasNodeComponent } from '../../diagram-canvas/canvas-node.component';
import { EdgeMarkersComponent } from '../../diagram-canvas/edge-markers.component';
import { fitZoomLimits } from '../../diagram-canvas/fit';
import { CanvasEdgeComponent } from '../../diagram-canvas/shared/canvas-edge.component';
import { CanvasViewport } from '../../diagram-canvas/shared/canvas-viewport';
import { dataOf } from '../../diagram-canvas/shared/flow-elements';
import { CanvasSelection } from './canvas-selection';
import { GRID, connect, type Point } from './editor-doc';
import { EditorFlow, graphId, type EdgeData } from './editor-flow';
import { absoluteBoxes, drawingBox, editorModel, usableRoutes, type EditorGroup, type EditorModel, type LaidOutRoutes } from './editor-model';
import type { EditorStore } from './editor-store';
import { LabelEditor, type LabelTarget } from './label-editor';
import { acceptPaletteDrag, droppedPaletteItem, type PaletteDrop } from './palette-drop';
import { dragged, frameAt } from './placement';

/** The canvas's zoom limits (ngx-vflow's minZoom and maxZoom). */
const MIN_ZOOM = 0.1;
const MAX_ZOOM = 3;
/** Share of the drawing's size kept free around it by a fit. */
const FIT_PADDING = 0.1;
/** Nothing covers a corner of the editor's view (it has no minimap). */
const NO_CORNER = { width: 0, height: 0 };
/** Room kept between a revealed node and the edge of the view. */
const REVEAL_MARGIN = 24;

/**
 * The editing canvas: the same ngx-vflow canvas and node components as the viewer, drawn from the editor's
 * document (EditorFlow). Nodes and group frames can be dragged (snapped to the grid), connected by dragging from a
 * handle, selected (click, Shift+click, Shift+drag for a rubber band: CanvasSelection) and renamed in place
 * (double-click: LabelEditor). Every change goes to the EditorStore, so it can be undone. Test hooks as the viewer:
 * data-testid="diagram-canvas", data-node-id, data-edge-source/target, data-group-id.
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
  /** ngx-vflow has rendered the first time and measured its view: from now on a fit has a view to fit into. */
  readonly rendered = computed(() => this.flow()?.initialized() ?? false);
  /** Height of the data rows under a shape's outline: its handles sit on the outline (the layout's ends do too). */
  readonly rowsUnder = rowsUnderOutline;
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

  private readonly elements = new EditorFlow(() => !this.readonly());
  readonly selecting = new CanvasSelection(() => this.store());
  readonly labels = new LabelEditor(
    () => this.store(),
    () => this.model(),
  );
  private readonly viewport = new CanvasViewport(
    () => this.flow(),
    () => this.element('.canvas-viewport'),
  );

  constructor() {
    effect(() => {
      const model = this.model();
      const routes = this.usable();
      const selection = this.store().selection();
      untracked(() => {
        this.nodes.set(this.elements.nodes(model));
        this.edges.set(this.elements.edges(model, routes));
        this.elements.showSelection(selection);
      });
    });
  }

  private element(selector: string): HTMLElement | null {
    return (this.host.nativeElement as HTMLElement).querySelector<HTMLElement>(selector);
  }

  // Drawing -------------------------------------------------------------------------------------------------------

  readonly nodeData = dataOf<CanvasNode>();
  readonly groupData = dataOf<EditorGroup>();
  readonly edgeData = dataOf<EdgeData>();

  /** A label's data is its edge's data signal (see EditorFlow.edges). */
  labelData(data: unknown): EdgeData {
    return (data as Signal<EdgeData>)();
  }

  /** The drawn path of an edge: its layout route, or ngx-vflow's line between its ends. */
  edgePath(data: EdgeData, path: string): string {
    return data.route ? roundedPath(data.route.points) : path;
  }

  // Selecting, moving and connecting ----------------------------------------------------------------------------------

  /** ngx-vflow changed what is selected (click, Shift+click, rubber band): the store follows. */
  selectionChanged(): void {
    this.selecting.follow(this.elements.selection());
  }

  /** Enter or Space on a focused node (see CanvasSelection.keySelected). */
  keySelected(id: string, event: Event): void {
    this.selecting.keySelected(id, event);
  }

  /** After a drag: every node or group whose position differs from the document's is moved, in one step. */
  dragEnded(): void {
    const model = this.model();
    const moves = this.elements.moves(model, this.snapToGrid());
    if (moves.length > 0) this.store().apply((doc) => dragged(doc, model, moves));
  }

  connected(connection: Connection): void {
    this.store().apply((doc) => connect(doc, graphId(connection.source), graphId(connection.target)));
  }

  // Palette drops -------------------------------------------------------------------------------------------------

  readonly dragOver = acceptPaletteDrag;

  drop(event: DragEvent): void {
    const item = droppedPaletteItem(event);
    if (item) this.dropped.emit({ item, at: this.toDrawing({ x: event.clientX, y: event.clientY }) });
  }

  /** A point of the page (client coordinates) as a point of the drawing. */
  toDrawing(client: Point): Point {
    return this.viewport.toDrawing(client, this.element('.canvas-viewport')) ?? { x: 0, y: 0 };
  }

  /** The innermost group frame under a point of the drawing, with the frame's top-left corner (canvas coordinates). */
  frameAt(point: Point): { id: string; origin: Point } | null {
    return frameAt(point, this.model(), this.store().doc());
  }

  // The view ----------------------------------------------------------------------------------------------------------

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
    const drawing = drawingBox(this.boxes());
    if (this.viewport.size().width === 0 || !this.flow() || !drawing) return;
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

  /** Double-click: opens the label editor over the node, frame header or edge (an edge's over its drawn line), focused. */
  editLabel(target: LabelTarget, event?: Event): void {
    if (this.readonly()) return;
    event?.stopPropagation();
    const view = this.flow()?.viewport();
    if (!view) return;
    this.labels.open(target, view, target.kind === 'edge' ? this.edgeCentre(target.index) : null);
    requestAnimationFrame(() => {
      const input = this.element('.label-editor') as HTMLInputElement | null;
      input?.focus();
      input?.select();
    });
  }

  /** The middle of an edge's drawn line in view pixels, or null when it is not drawn. */
  private edgeCentre(index: number): Point | null {
    const box = this.element(`[data-edge-index="${index}"] .edge-line`)?.getBoundingClientRect();
    const viewport = this.element('.canvas-viewport')?.getBoundingClientRect();
    return box && viewport ? { x: box.left - viewport.left + box.width / 2, y: box.top - viewport.top + box.height / 2 } : null;
  }
}
