import type { Box } from '@sc/diagram';
import { fitViewport, fitZoomLimits, type Size, type Viewport } from './fit';

/**
 * fitViewport with the canvas's zoom limits (fitZoomLimits: text readable up to 150 nodes, never above 1.25×) for a
 * drawing whose box starts anywhere, as the draft editor's drawing does: one that fits is centred, one that does not
 * shows its top-left corner.
 */
export function readableFit(drawing: Box, view: Size, corner: Size, padding: number, nodeCount: number, floor: number): Viewport {
  const { x, y, zoom } = fitViewport(drawing, view, corner, padding, fitZoomLimits(nodeCount, floor));
  return { x: x - drawing.x * zoom, y: y - drawing.y * zoom, zoom };
}
