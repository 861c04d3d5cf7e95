import { centre, type Box, type Point } from '@sc/diagram';
import type { VflowComponent } from 'ngx-vflow';
import type { Size } from '../fit';
import { readableFit } from '../readable-fit';

/** Fit's options: what covers the view (a corner, the toolbar on top), the room kept around the drawing, the least zoom. */
export interface FitOptions {
  /** The box over the view's bottom-right corner that the drawing is fitted clear of (the minimap), or 0 × 0. */
  corner: Size;
  /** Share of the drawing's size kept free around it. */
  padding: number;
  /** The canvas's least zoom (ngx-vflow's minZoom), the floor of fitZoomLimits. */
  minZoom: number;
  /** Pixels at the top of the view that something floats over (the toolbar): the drawing is fitted below them. */
  top?: number;
}

/**
 * Fit, zoom, pan and centring of one canvas's ngx-vflow viewport, for the viewer's canvas and the draft editor's: the
 * arithmetic between the view (the element ngx-vflow draws in, read when asked) and the drawing's coordinates.
 */
export class CanvasViewport {
  constructor(
    private readonly flow: () => VflowComponent | undefined,
    private readonly element: () => HTMLElement | null,
  ) {}

  /** The size of the element showing the flow: 0 × 0 before it is laid out, or while it is hidden. */
  size(): Size {
    const element = this.element();
    return { width: element?.clientWidth ?? 0, height: element?.clientHeight ?? 0 };
  }

  /** The whole drawing (`drawing`: where it lies) as large as fits (readableFit), clear of what covers the view. */
  fit(drawing: Box, nodeCount: number, options: FitOptions): void {
    const flow = this.flow();
    if (!flow) return;
    const top = options.top ?? 0;
    const { width, height } = this.size();
    const fitted = readableFit(drawing, { width, height: Math.max(height - top, 1) }, options.corner, options.padding, nodeCount, options.minZoom);
    flow.viewportTo({ ...fitted, y: fitted.y + top });
  }

  /** Zooms by `factor` (within the limits) around the centre of the view, as buttons and keys have no pointer position. */
  zoomBy(factor: number, limits: { min: number; max: number }): void {
    const flow = this.flow();
    if (!flow) return;
    const { x, y, zoom } = flow.viewport();
    const next = Math.min(limits.max, Math.max(limits.min, zoom * factor));
    const { width, height } = this.size();
    const cx = (width / 2 - x) / zoom;
    const cy = (height / 2 - y) / zoom;
    flow.viewportTo({ x: width / 2 - cx * next, y: height / 2 - cy * next, zoom: next });
  }

  /** Centres the view on a point of the drawing, keeping the zoom. */
  panTo(point: Point): void {
    const flow = this.flow();
    if (!flow) return;
    const { zoom } = flow.viewport();
    const { width, height } = this.size();
    flow.viewportTo({ x: width / 2 - point.x * zoom, y: height / 2 - point.y * zoom, zoom });
  }

  /**
   * Centres a box in the left `visibleWidth` pixels of the view (what a panel on the right leaves), at least at
   * `leastZoom` (zoomed in to read it when the view is zoomed far out).
   */
  centreOn(box: Box, leastZoom: number, visibleWidth = this.size().width): void {
    const flow = this.flow();
    if (!flow) return;
    const zoom = Math.max(flow.viewport().zoom, leastZoom);
    const c = centre(box);
    flow.viewportTo({ x: visibleWidth / 2 - c.x * zoom, y: this.size().height / 2 - c.y * zoom, zoom });
  }

  /** Whether the box is drawn whole in the view, below its `top` pixels, at `leastZoom` or closer. */
  shows(box: Box, top: number, leastZoom: number): boolean {
    const flow = this.flow();
    if (!flow) return false;
    const { x, y, zoom } = flow.viewport();
    const { width, height } = this.size();
    const left = box.x * zoom + x;
    const boxTop = box.y * zoom + y;
    return !(zoom < leastZoom || left < 0 || boxTop < top || left + box.width * zoom > width || boxTop + box.height * zoom > height);
  }

  /** A point of the page (client coordinates) in the drawing's coordinates, measured from `within`'s top-left corner. */
  toDrawing(client: Point, within: Element | null): Point | null {
    const flow = this.flow();
    if (!flow || !within) return null;
    const { x, y, zoom } = flow.viewport();
    const rect = within.getBoundingClientRect();
    return { x: (client.x - rect.left - x) / zoom, y: (client.y - rect.top - y) / zoom };
  }

  /**
   * The part of the drawing the view shows (drawing coordinates), less `reserveRight` pixels on its right (a panel
   * about to open there) but never under a third of the view. Null while the view has no size.
   */
  visibleArea(reserveRight = 0): Box | null {
    const flow = this.flow();
    const { width, height } = this.size();
    if (!flow || width === 0) return null;
    const { x, y, zoom } = flow.viewport();
    const shown = Math.max(width - reserveRight, width / 3);
    return { x: -x / zoom, y: -y / zoom, width: shown / zoom, height: height / zoom };
  }

  /**
   * Brings a box into view with the least panning, `margin` pixels from the view's edges. One too large for the view
   * is zoomed out to (never under `leastZoom`) and shown from its top-left corner.
   */
  reveal(box: Box, margin: number, leastZoom: number): void {
    const flow = this.flow();
    const view = this.size();
    if (!flow || view.width === 0) return;
    let { x, y, zoom } = flow.viewport();
    const room = { width: view.width - 2 * margin, height: view.height - 2 * margin };
    if (box.width * zoom > room.width || box.height * zoom > room.height) zoom = Math.max(leastZoom, Math.min(zoom, room.width / box.width, room.height / box.height));
    const axis = (start: number, length: number, offset: number, space: number) => {
      const near = start * zoom + offset;
      const far = near + length * zoom;
      if (length * zoom > space - 2 * margin || near < margin) return offset + margin - near;
      if (far > space - margin) return offset - (far - (space - margin));
      return offset;
    };
    // The zoom changes around the view's top-left corner before the box is brought in.
    const scale = zoom / flow.viewport().zoom;
    x = axis(box.x, box.width, x * scale, view.width);
    y = axis(box.y, box.height, y * scale, view.height);
    const now = flow.viewport();
    if (now.x !== x || now.y !== y || now.zoom !== zoom) flow.viewportTo({ x, y, zoom });
  }
}
