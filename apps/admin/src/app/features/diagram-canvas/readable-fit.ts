import { fitViewport, type Size, type Viewport } from './fit';
import type { Box } from './layout';

/** Node text is drawn at 13 px (titles at 14 px) at zoom 1. */
export const LABEL_TEXT_PX = 13;
/** Below this on screen, text is no longer read. */
export const READABLE_TEXT_PX = 9;
/** Up to this many nodes, a fit keeps text readable and pans instead of shrinking further. */
export const READABLE_NODE_LIMIT = 150;
/** A fit never blows a small drawing up beyond this. */
export const FIT_ZOOM_MAX = 1.25;
/** Room kept between the view's edge and a drawing larger than the view, which shows from its top-left corner. */
const EDGE_ROOM = 16;

/**
 * The zoom limits of a fit: never above FIT_ZOOM_MAX, and, for up to READABLE_NODE_LIMIT nodes, never so far out
 * that node text is under READABLE_TEXT_PX (larger diagrams go down to `floor`, the canvas's own minimum).
 */
export function readableZoomLimits(nodeCount: number, floor: number): { min: number; max: number } {
  return { min: nodeCount <= READABLE_NODE_LIMIT ? READABLE_TEXT_PX / LABEL_TEXT_PX : floor, max: FIT_ZOOM_MAX };
}

/**
 * fitViewport at a readable zoom, for a drawing whose box starts anywhere: a drawing that fits is centred as
 * fitViewport does; one that does not fit at the smallest readable zoom shows its top-left corner (the user pans).
 */
export function readableFit(drawing: Box, view: Size, corner: Size, padding: number, nodeCount: number, floor: number): Viewport {
  const fitted = fitViewport(drawing, view, corner, padding, readableZoomLimits(nodeCount, floor));
  const { zoom } = fitted;
  const x = drawing.width * zoom > view.width ? EDGE_ROOM : fitted.x;
  const y = drawing.height * zoom > view.height ? EDGE_ROOM : fitted.y;
  return { x: x - drawing.x * zoom, y: y - drawing.y * zoom, zoom };
}
