import { signal } from '@angular/core';
import type { Point } from '@sc/diagram';
import type { VflowComponent } from 'ngx-vflow';
import type { Drawing } from './canvas-layout';
import { MINIMAP_HEIGHT, MINIMAP_WIDTH } from './minimap.component';
import { CanvasViewport } from './shared/canvas-viewport';

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
/** Zoom limits: far enough out for 1,000 nodes, close enough in to read a table node's cells. */
export const ZOOM_LIMITS = { min: 0.02, max: 3 };

/** What the camera reads from the viewer canvas. */
export interface CameraCanvas {
  flow(): VflowComponent | undefined;
  /** The element showing the flow (`.canvas-viewport`). */
  element(): HTMLElement | null;
  /** The drawing on screen, null before the first. */
  drawing(): Drawing | null;
  /** The details panel is open, or opens for this element when it is gone to. */
  panelOpenFor(id: string): boolean;
}

/**
 * Where the viewer canvas looks: fit clear of the toolbar and the minimap, zoom within the canvas's limits, panning
 * (the minimap) and centring on a node or group, next to the details panel when it is open (CanvasViewport's
 * arithmetic with the viewer's margins and zooms).
 */
export class CanvasCamera {
  /** The size of the element showing the flow, kept for the minimap's frame. */
  readonly viewSize = signal({ width: 0, height: 0 });
  private readonly viewport: CanvasViewport;

  constructor(private readonly canvas: CameraCanvas) {
    this.viewport = new CanvasViewport(
      () => canvas.flow(),
      () => canvas.element(),
    );
  }

  /**
   * Keeps viewSize as the browser lays the element out (reading the size after each drawing instead forced a style
   * and layout pass of its own: 45 ms of a collapse in the CPU profile). Returns the disconnect.
   */
  observeSize(element: Element): () => void {
    const observer = new ResizeObserver(() => this.viewSize.set(this.viewport.size()));
    observer.observe(element);
    return () => observer.disconnect();
  }

  /** The whole drawing, clear of the minimap. A viewport without size (not laid out, hidden) has nothing to fit into. */
  fit(drawing = this.canvas.drawing()): void {
    if (!drawing || this.viewport.size().width === 0 || drawing.result.width === 0 || drawing.result.height === 0) return;
    const box = { x: 0, y: 0, width: drawing.result.width, height: drawing.result.height };
    this.viewport.fit(box, drawing.model.nodes.length, { corner: MINIMAP_CORNER, padding: FIT_PADDING, minZoom: ZOOM_LIMITS.min, top: TOOLBAR_HEIGHT });
  }

  zoomBy(factor: number): void {
    this.viewport.zoomBy(factor, ZOOM_LIMITS);
  }

  /** Centres the view on a point of the drawing, keeping the zoom (the minimap). */
  panTo(point: Point): void {
    this.viewport.panTo(point);
  }

  /** Centres the node or group; zooms in to a readable scale when the view is zoomed far out. */
  centreOn(id: string): void {
    const box = this.canvas.drawing()?.result.boxes[id];
    if (!box) return;
    const { width } = this.viewport.size();
    // The details panel (open, or opening for the node found) covers the right of the view: centre in the rest.
    this.viewport.centreOn(box, READ_ZOOM, this.canvas.panelOpenFor(id) ? Math.max(width - PANEL_WIDTH, width / 2) : width);
  }

  /** Centres the node or group when the view does not show it (below the toolbar) or is zoomed far out. */
  centreIfHidden(id: string): void {
    const box = this.canvas.drawing()?.result.boxes[id];
    if (box && this.canvas.flow() && !this.viewport.shows(box, TOOLBAR_HEIGHT, CENTRE_BELOW_ZOOM)) this.centreOn(id);
  }

  /** A pointer's place in the drawing's coordinates (whole pixels). */
  drawingPoint(event: MouseEvent): Point | null {
    const point = this.viewport.toDrawing({ x: event.clientX, y: event.clientY }, this.canvas.element()?.querySelector('vflow') ?? null);
    return point && { x: Math.round(point.x), y: Math.round(point.y) };
  }
}
