import type { Point } from '../lib/canvas/layout';

/** Specs: how far `point` is from the nearest side of `polygon` (0 on the outline). */
export function distanceToOutline(point: Point, polygon: readonly Point[]): number {
  let nearest = Number.POSITIVE_INFINITY;
  polygon.forEach((a, i) => {
    const b = polygon[(i + 1) % polygon.length];
    const [dx, dy] = [b.x - a.x, b.y - a.y];
    const t = Math.max(0, Math.min(1, ((point.x - a.x) * dx + (point.y - a.y) * dy) / (dx * dx + dy * dy || 1)));
    nearest = Math.min(nearest, Math.hypot(point.x - (a.x + t * dx), point.y - (a.y + t * dy)));
  });
  return nearest;
}
