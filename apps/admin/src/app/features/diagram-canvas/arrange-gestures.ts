import { signal } from '@angular/core';
import type { ArrangementLists } from '@sc/contracts';
import { arrangementOf, edgeKeys, layoutInput, moveBoxes, type CanvasEdge, type CanvasModel, type DiagramView, type EdgeRoute, type LayoutInput, type LayoutResult, type Point } from '@sc/diagram';
import { boxAt, boxesWithin, keyboardMove, spanned, toggled, withBendAdded, withBendMoved, withBendRemoved } from './arrange-edit';

/** What arrange mode's gestures need from the canvas they edit. */
export interface ArrangeCanvas {
  /** The drawing on screen (model and the layout it is drawn with), null before the first one. */
  drawing(): { model: CanvasModel; result: LayoutResult } | null;
  arranging(): boolean;
  /** A pointer's place in the drawing's coordinates (null while the flow is not drawn). */
  drawingPoint(event: MouseEvent): Point | null;
  /** The diagram's graph (its elements' parents and edges, for the arrangement's lists). */
  graph(): DiagramView['graph'];
  /** The arrangement drawn now (saved, or being edited), null for none. */
  arrangement(): ArrangementLists | null;
  /** An edit made: the new arrangement (the page keeps it, with undo, until Save). */
  arranged(lists: ArrangementLists): void;
  /** An edit refused (it would put an element inside a frame it is not a member of). */
  refused(): void;
}

/** A handle arrange mode draws on an edge: on its bend number `bend`, or (null) the middle one that adds a bend. */
export interface EdgeHandle {
  at: Point;
  bend: number | null;
}

/**
 * Arrange mode's edits on the viewer's canvas: node and frame moves (ngx-vflow's drags, arrow keys), resizing nodes
 * and frames from their corner handle, an edge's bends (added, moved, removed, straightened) and the shift-click /
 * shift-drag selection for "Auto-arrange selection". Each ends in one new arrangement handed to the canvas
 * (ArrangeCanvas.arranged); the geometry is arrange-edit's and libs/diagram's.
 */
export class ArrangeGestures {
  /** Node and group ids selected (shift-click toggles one, a shift-drag adds what its rectangle encloses). */
  readonly selection = signal<ReadonlySet<string>>(new Set());
  /** The rectangle of a shift-drag under way, in the viewport's pixels (null: none). */
  readonly boxSelecting = signal<{ left: number; top: number; width: number; height: number } | null>(null);

  constructor(private readonly canvas: ArrangeCanvas) {}

  /**
   * Resizing a node or a group: its bottom-right corner is dragged; where it is released is its new corner (a node
   * never smaller than its own size, a frame never smaller than what it holds: moveBoxes).
   */
  startResize(id: string, event: PointerEvent): void {
    if (!this.canvas.arranging()) return;
    this.dragHandle(event, (corner) => {
      const box = this.canvas.drawing()?.result.boxes[id];
      if (box) this.move([{ id, x: box.x, y: box.y, width: corner.x - box.x, height: corner.y - box.y }]);
    });
  }

  /**
   * Nodes and frames moved or resized (a frame carries its members, frames grow around theirs): the new
   * arrangement, or, when that would put an element inside a frame it is not a member of, `undo` and a refusal.
   */
  move(moves: readonly ({ id: string; width?: number; height?: number } & Point)[], undo?: () => void): void {
    const drawing = this.canvas.drawing();
    if (!drawing || moves.length === 0) return;
    const input = layoutInput(drawing.model);
    const boxes = moveBoxes(input, drawing.result.boxes, moves);
    if (boxes) {
      this.canvas.arranged(this.arrangementFor(input, { ...drawing.result, boxes }));
      return;
    }
    undo?.();
    this.canvas.refused();
  }

  /**
   * An arrow key: the node moved by the keyboard's step (arrange-edit.ts keyboardMove), saved like a drag; false when
   * no node moves (another key, no node).
   */
  moveByKey(id: string | undefined, event: KeyboardEvent): boolean {
    const box = id !== undefined ? this.canvas.drawing()?.result.boxes[id] : undefined;
    const to = box ? keyboardMove(box, event) : null;
    if (id === undefined || !to) return false;
    this.move([{ id, ...to }]);
    return true;
  }

  /** The arrangement of everything as drawn now (a Save without a drag fixes the places of what was placed). */
  currentArrangement(): ArrangementLists | null {
    const drawing = this.canvas.drawing();
    return drawing ? this.arrangementFor(layoutInput(drawing.model), drawing.result) : null;
  }

  /**
   * The handles of a drawn edge in arrange mode: one on each bend (its route's points between its ends), then the
   * middle one, in the middle of its middle segment, that adds a bend.
   */
  edgeHandles(route: EdgeRoute): EdgeHandle[] {
    const middle = Math.floor((route.points.length - 1) / 2);
    const p = route.points[middle];
    const q = route.points[middle + 1] ?? p;
    return [...route.points.slice(1, -1).map((at, bend) => ({ at, bend })), { at: { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 }, bend: null }];
  }

  /**
   * An edge's handle dragged: where it is released, a bend's handle moves that bend, the middle one adds a bend on the
   * segment it was drawn on.
   */
  dragEdgeHandle(edge: CanvasEdge, route: EdgeRoute, handle: EdgeHandle, event: PointerEvent): void {
    if (!this.editable(edge)) return;
    const { bend } = handle;
    const segment = Math.floor((route.points.length - 1) / 2);
    this.dragHandle(event, (point) => this.bendWith(edge.key, bend === null ? withBendAdded(route, point, segment) : withBendMoved(route, bend, point)));
  }

  /** A double click on an edge's handle: a bend's is removed, the middle one straightens the edge (no bends). */
  doubleClickEdgeHandle(edge: CanvasEdge, route: EdgeRoute, handle: EdgeHandle, event: Event): void {
    if (!this.editable(edge)) return;
    event.stopPropagation();
    this.bendWith(edge.key, handle.bend === null ? [] : withBendRemoved(route, handle.bend));
  }

  /** A double click on an edge's line: a new bend there, on the nearest segment. */
  addBendAt(edge: CanvasEdge, route: EdgeRoute, event: MouseEvent): void {
    if (!this.editable(edge)) return;
    event.stopPropagation();
    const point = this.canvas.drawingPoint(event);
    if (point) this.bendWith(edge.key, withBendAdded(route, point));
  }

  /**
   * Shift held: a click toggles the node or group under the pointer in `selection`, a drag selects every node and
   * group its rectangle encloses. Taken before ngx-vflow (capture phase, default prevented, so no mouse events
   * follow): the canvas neither pans nor drags a node.
   */
  selectPointerDown(event: PointerEvent, viewport: HTMLElement): void {
    const drawing = this.canvas.drawing();
    // Only on the drawing: the minimap and the details panel keep their own clicks.
    if (!this.canvas.arranging() || !event.shiftKey || event.button !== 0 || !drawing || !(event.target as Element | null)?.closest?.('vflow')) return;
    const start = this.canvas.drawingPoint(event);
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
      const end = this.canvas.drawingPoint(at);
      if (!end) return;
      if (Math.abs(at.clientX - from.x) + Math.abs(at.clientY - from.y) < 4) {
        const id = boxAt(drawing.result.boxes, ids(), end);
        if (id !== null) this.selection.set(toggled(this.selection(), id));
        return;
      }
      const chosen = boxesWithin(drawing.result.boxes, ids(), spanned(start, end));
      if (chosen.length) this.selection.set(new Set([...this.selection(), ...chosen]));
    };
    viewport.addEventListener('pointermove', move);
    viewport.addEventListener('pointerup', up);
  }

  /** A shift-click on the drawing in arrange mode is the selection's: ngx-vflow does not see it. */
  selectClick(event: MouseEvent): void {
    if (this.canvas.arranging() && event.shiftKey && (event.target as Element | null)?.closest?.('vflow')) {
      event.stopPropagation();
      event.preventDefault();
    }
  }

  /** Merged edges of a collapse (`*` keys) are not the diagram's own: they keep no bends. */
  private editable(edge: CanvasEdge): boolean {
    return this.canvas.arranging() && !edge.key.startsWith('*');
  }

  /**
   * Dragging a handle: the pointer is captured (the canvas does not pan) and where it is released becomes `drop`'s
   * point, in the drawing's coordinates.
   */
  private dragHandle(event: PointerEvent, drop: (point: Point) => void): void {
    event.stopPropagation();
    event.preventDefault();
    const handle = event.target as SVGElement;
    handle.setPointerCapture?.(event.pointerId);
    const release = (up: PointerEvent) => {
      handle.removeEventListener('pointerup', release);
      const point = this.canvas.drawingPoint(up);
      if (point) drop(point);
    };
    handle.addEventListener('pointerup', release);
  }

  private bendWith(key: string, points: Point[] | null): void {
    const drawing = this.canvas.drawing();
    if (!drawing || !points) return;
    this.canvas.arranged(this.arrangementFor(layoutInput(drawing.model), drawing.result, new Map([[key, points]])));
  }

  /** The whole arrangement with these boxes and these edges' new bends. */
  private arrangementFor(input: LayoutInput, result: LayoutResult, bends: ReadonlyMap<string, Point[]> = new Map()): ArrangementLists {
    const graph = this.canvas.graph();
    const parentOf = new Map<string, string | undefined>([...graph.groups.map((g) => [g.id, g.parent] as const), ...graph.nodes.map((n) => [n.id, n.parent] as const)]);
    const edges = new Map(
      edgeKeys(graph.edges).map((key, i) => [key, { source: graph.edges[i].source, target: graph.edges[i].target, index: Number(key.slice(key.lastIndexOf('#') + 1)) }] as const),
    );
    return arrangementOf(input, result, bends, this.canvas.arrangement(), { parentOf, edges });
  }
}
