export interface Size {
  width: number;
  height: number;
}

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/** The canvas's smallest text (edge labels, data fields, db columns: 12 px at zoom 1). */
const SMALLEST_TEXT = 12;
/** The least screen size of that text after Fit, up to READABLE_UP_TO nodes. */
export const READABLE_TEXT = 9;
/** Up to this many nodes Fit keeps text readable (and pans); above it, it shows the whole drawing as an overview. */
export const READABLE_UP_TO = 150;
/** Fit never zooms in further than this: a two-node diagram is not blown up to poster size. */
export const FIT_MAX_ZOOM = 1.25;
/** What Fit leaves between a drawing that does not fit and the view's top-left corner, in screen pixels. */
const EDGE_MARGIN = 16;

/** Fit's zoom limits for a drawing of `nodes` nodes: readable text up to READABLE_UP_TO nodes, never above FIT_MAX_ZOOM. */
export function fitZoomLimits(nodes: number, absoluteMin: number): { min: number; max: number } {
  return { min: nodes <= READABLE_UP_TO ? READABLE_TEXT / SMALLEST_TEXT : absoluteMin, max: FIT_MAX_ZOOM };
}

/**
 * The viewport that shows the whole drawing as large as it fits in the view without going under the minimap, which
 * covers the view's bottom-right corner (`corner`: its size plus its margins). The drawing is centred either above
 * the minimap (the full width, the height left above it) or beside it (the full height, the width left of it),
 * whichever gives the larger zoom. `padding` is the share of the drawing's size kept free around it.
 *
 * The zoom stays within `zoomLimits` (see fitZoomLimits). A drawing that does not fit at the least zoom is not
 * shrunk further: along each axis where it is too large, its start (left, top) is shown, EDGE_MARGIN from the view's
 * edge, and the rest is reached by panning; along an axis where it fits it is centred.
 */
export function fitViewport(drawing: Size, view: Size, corner: Size, padding: number, zoomLimits: { min: number; max: number }): Viewport {
  const areas = [
    { width: view.width, height: Math.max(view.height - corner.height, 1) },
    { width: Math.max(view.width - corner.width, 1), height: view.height },
  ];
  const zoomFor = (area: Size) => Math.min(area.width / (drawing.width * (1 + padding)), area.height / (drawing.height * (1 + padding)));
  const area = zoomFor(areas[0]) >= zoomFor(areas[1]) ? areas[0] : areas[1];
  const zoom = Math.min(zoomLimits.max, Math.max(zoomLimits.min, zoomFor(area)));
  const along = (room: number, length: number) => (length * zoom <= room ? room / 2 - (length / 2) * zoom : EDGE_MARGIN);
  return { x: along(area.width, drawing.width), y: along(area.height, drawing.height), zoom };
}
