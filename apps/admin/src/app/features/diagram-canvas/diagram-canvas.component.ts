import { ChangeDetectionStrategy, Component, DestroyRef, ElementRef, Injector, afterNextRender, ViewEncapsulation, computed, effect, inject, input, output, untracked, viewChild } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { MatTooltipModule } from '@angular/material/tooltip';
import type { ArrangementLists } from '@sc/contracts';
import { usedMarkers } from '@sc/diagram';
import type { CanvasEdge, CanvasNode, DiagramView, Highlights, ModelInput } from '@sc/diagram';
import { Vflow, VflowComponent } from 'ngx-vflow';
import { ArrangeGestures } from './arrange-gestures';
import { CanvasCamera, ZOOM_LIMITS } from './canvas-camera';
import { CanvasLayout, type Drawing } from './canvas-layout';
import { CanvasNodeComponent } from './canvas-node.component';
import { DetailsPanelComponent } from './details-panel.component';
import { searchItems, type EdgeData, type GroupData } from './drawn-elements';
import { EdgeMarkersComponent } from './edge-markers.component';
import { FlowDrawing } from './flow-drawing';
import { LayoutEngine } from './layout-engine.service';
import { CanvasMinimapComponent } from './minimap.component';
import { NodeSelection } from './node-selection';
import { CanvasPreviewComponent } from './preview.component';
import { CanvasEdgeComponent } from './shared/canvas-edge.component';
import { CanvasSearchComponent } from './shared/canvas-search.component';
import { dataOf } from './shared/flow-elements';
import { canvasKeyAction, neighbour } from './shared/keyboard-navigation';

/** How arrange mode draws an edge's handles (arrange-mode.scss): on a bend, and the middle one that adds a bend. */
const EDGE_HANDLE_LOOKS = {
  bend: { className: 'bend-point', radius: 5, testId: 'edge-bend-point', hint: 'Drag to move this bend; double-click to remove it' },
  middle: {
    className: 'bend-handle',
    radius: 6,
    testId: 'edge-bend',
    hint: 'Drag to add a bend here; double-click to straighten the edge. Double-click the line to add a bend there.',
  },
} as const;

/**
 * The interactive diagram canvas (the host page provides the LayoutEngine, so it can start it early): the diagram's
 * visible graph laid out by ELK in a Web Worker (CanvasLayout) and drawn with ngx-vflow (FlowDrawing; zoom, pan and
 * minimap: CanvasCamera), one component per node kind, groups as frames with a Hide details button, edges with their
 * labels, strokes and markers, a details panel (NodeSelection), search, keyboard access and change highlights.
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

  readonly flow = viewChild(VflowComponent);
  private readonly layout = new CanvasLayout(this.engine, { arrangement: () => this.arrangement(), drawing: () => this.laidOut(), draw: (drawing, first) => this.draw(drawing, first) });
  readonly camera: CanvasCamera = new CanvasCamera({
    flow: () => this.flow(),
    element: () => (this.host.nativeElement as HTMLElement).querySelector<HTMLElement>('.canvas-viewport'),
    drawing: () => this.laidOut(),
    panelOpenFor: (id) => this.selection() !== null || this.model().nodes.some((n) => n.id === id),
  });
  readonly flowDrawing: FlowDrawing = new FlowDrawing({ graphNodes: () => this.view().graph.nodes.length, viewport: () => this.flow()?.viewport(), viewSize: this.camera.viewSize, arranging: this.arranging, injector: this.injector });
  readonly nodeSelection = new NodeSelection({ drawn: () => this.laidOut() !== null, reveal: (id) => this.camera.centreIfHidden(id), changed: (id) => this.selectedNodeChange.emit(id) });
  /** Arrange mode's moves, resize, bend and selection gestures, each ending in `arrange` or `arrangeRefused`. */
  readonly gestures = new ArrangeGestures({
    drawing: () => this.laidOut(),
    arranging: () => this.arranging(),
    drawingPoint: (event) => this.camera.drawingPoint(event),
    graph: () => this.view().graph,
    arrangement: () => this.arrangement(),
    arranged: (lists) => this.arrange.emit(lists),
    refused: () => this.arrangeRefused.emit(),
  });

  readonly model = computed(() => this.layout.model({ view: this.view(), databases: this.databases(), highlights: this.highlights() }));
  /** The last layout and the model it was made for: drawn together, so the drawing never mixes two states. */
  readonly laidOut = this.flowDrawing.laidOut;
  readonly layoutError = this.layout.error;
  readonly layingOut = this.layout.pending;
  /** Nodes and groups the arrangement does not place (new since it was saved): highlighted with `data-placed`. */
  readonly placed = this.layout.placed;
  /** Arrange mode's selection for "Auto-arrange selection" (node and group ids), emptied when arrange mode ends. */
  readonly arrangeSelection = this.gestures.selection;
  readonly selection = this.nodeSelection.current;
  readonly selectedId = this.nodeSelection.nodeId;
  /**
   * ngx-vflow's own virtualization stays off: a large diagram is culled here (FlowDrawing.shownNodes) and its zoomed-out
   * preview is drawn by CanvasPreviewComponent, so ngx-vflow holds only the nodes on screen — none when zoomed out.
   */
  readonly optimization = { detachedGroupsLayer: true, virtualization: false };
  readonly edgeHandleLooks = EDGE_HANDLE_LOOKS;
  readonly minZoom = ZOOM_LIMITS.min;
  readonly maxZoom = ZOOM_LIMITS.max;
  /** Every marker the edges use, defined once. */
  readonly markers = computed(() => usedMarkers(this.model().edges));
  /** Nodes and groups, by id, for search and keyboard moves. */
  readonly searchable = computed(() => searchItems(this.model()));
  /** Display names of nodes and groups, for edge ends in the details panel. */
  readonly labelOf = (id: string): string => this.searchable().find((item) => item.id === id)?.title ?? id;
  readonly groupData = dataOf<GroupData>();
  readonly edgeData = dataOf<EdgeData>();
  readonly nodeData = dataOf<CanvasNode>();

  constructor() {
    afterNextRender(() => {
      const element = (this.host.nativeElement as HTMLElement).querySelector<HTMLElement>('.canvas-viewport');
      if (!element) return;
      this.destroyRef.onDestroy(this.camera.observeSize(element));
      // Arrange mode's shift-click and shift-drag selection, before ngx-vflow sees the pointer (no pan, no drag).
      const down = (event: Event) => this.gestures.selectPointerDown(event as PointerEvent, element);
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
      untracked(() => this.layout.show(model));
    });
    effect(() => {
      this.arrangement();
      untracked(() => this.layout.arrangementChanged());
    });
    // Arrange mode makes the drawn nodes draggable; its selection ends with it.
    effect(() => {
      const arranging = this.arranging();
      untracked(() => {
        this.flowDrawing.setDraggable(arranging);
        if (!arranging && this.arrangeSelection().size) this.arrangeSelection.set(new Set());
      });
    });
    effect(() => {
      const id = this.selectedNode();
      const model = this.model();
      untracked(() => this.nodeSelection.requested(id, model));
    });
    // A selection keeps pointing at the same element after a redraw (collapse, highlights) when it still exists.
    effect(() => {
      const model = this.model();
      untracked(() => this.nodeSelection.remodelled(model));
    });
  }

  /** CanvasLayout's drawing; the first starts at the zoom that fits it (at ngx-vflow's default zoom of 1 it would first render in full every node that zoom shows, to drop them a frame later). */
  private draw(drawing: Drawing, first: boolean): void {
    if (!first) return this.flowDrawing.draw(drawing);
    this.camera.fit(drawing);
    this.flowDrawing.draw(drawing, () => {
      this.camera.fit();
      const reveal = this.nodeSelection.takeReveal();
      if (reveal) this.camera.centreIfHidden(reveal);
      // The layout workers' warm-up, when put off for the first drawing, starts in a task after that frame.
      setTimeout(() => this.engine.drawn());
    });
  }

  selectNode(id: string): void {
    this.nodeSelection.selectNode(id, this.model());
  }

  selectEdge(edge: CanvasEdge, event: Event): void {
    event.stopPropagation();
    // In arrange mode a line is being edited (a double click adds a bend): no details panel over the drawing.
    if (!this.arranging()) this.nodeSelection.select({ kind: 'edge', edge });
  }

  /** Finds a node or group by id or label, centres it and focuses it. */
  goTo(id: string): void {
    this.camera.centreOn(id);
    this.selectNode(id);
    // The node may be rendered only once the viewport shows it (virtualization): focus after the next frames.
    requestAnimationFrame(() => requestAnimationFrame(() => this.focusElement(id)));
  }

  private focusElement(id: string): void {
    const root = this.host.nativeElement as HTMLElement;
    root.querySelector<HTMLElement>(`[data-node-id="${CSS.escape(id)}"], [data-group-id="${CSS.escape(id)}"] .group-toggle`)?.focus({ preventScroll: true });
  }

  /**
   * +/- zoom, 0 fits; arrows move the focus to the nearest node in that direction (in arrange mode they move the
   * focused, else the selected, node, saved like a drag); Escape closes the details.
   */
  keydown(event: KeyboardEvent): void {
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, .details-panel')) return;
    const action = canvasKeyAction(event.key);
    if (action === 'zoom-in') this.camera.zoomBy(1.25);
    else if (action === 'zoom-out') this.camera.zoomBy(0.8);
    else if (action === 'fit') this.camera.fit();
    else if (action === 'close') this.nodeSelection.select(null);
    else if (action === 'move') {
      const drawing = this.laidOut();
      const from = target.closest<HTMLElement>('[data-node-id]')?.dataset['nodeId'];
      if (this.arranging() && this.gestures.moveByKey(from ?? this.selectedId() ?? undefined, event)) return event.preventDefault();
      const next = drawing ? neighbour(drawing.result.boxes, drawing.model.nodes.map((node) => node.id), from, event.key) : undefined;
      if (!next) return;
      this.camera.centreIfHidden(next);
      requestAnimationFrame(() => this.focusElement(next));
    } else return;
    event.preventDefault();
  }

  /** After a drag in arrange mode: the new arrangement for the page, or, refused, everything back where it was drawn. */
  dragEnded(): void {
    if (this.laidOut() && this.arranging()) this.gestures.move(this.flowDrawing.dragged(), () => this.flowDrawing.undoDrag());
  }

  /** The arrangement of everything as drawn now (a Save without a drag fixes the places of what was placed). */
  currentArrangement(): ArrangementLists | null {
    return this.gestures.currentArrangement();
  }

  /** The drawn SVG of the whole diagram in its current state, for export. */
  laidOutDiagram(): Drawing | null {
    return this.laidOut();
  }
}
