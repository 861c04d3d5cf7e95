import type { Point } from './layout';
import type { CanvasEdge, MarkerSpec } from './canvas-types';

/** An SVG path through the points with rounded corners (orthogonal routes from ELK look drawn, not plotted). */
export function roundedPath(points: readonly Point[], radius = 8): string {
  if (points.length === 0) return '';
  const r = (n: number) => Math.round(n * 10) / 10;
  let d = `M${r(points[0].x)},${r(points[0].y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [prev, point, next] = [points[i - 1], points[i], points[i + 1]];
    const inLength = Math.hypot(point.x - prev.x, point.y - prev.y);
    const outLength = Math.hypot(next.x - point.x, next.y - point.y);
    const corner = Math.min(radius, inLength / 2, outLength / 2);
    if (corner < 0.5) {
      d += `L${r(point.x)},${r(point.y)}`;
      continue;
    }
    const before = { x: point.x - ((point.x - prev.x) / inLength) * corner, y: point.y - ((point.y - prev.y) / inLength) * corner };
    const after = { x: point.x + ((next.x - point.x) / outLength) * corner, y: point.y + ((next.y - point.y) / outLength) * corner };
    d += `L${r(before.x)},${r(before.y)}Q${r(point.x)},${r(point.y)} ${r(after.x)},${r(after.y)}`;
  }
  const last = points[points.length - 1];
  return `${d}L${r(last.x)},${r(last.y)}`;
}

/** The id of the `<marker>` drawing `spec` (one per type and colour, defined once per canvas). */
export function markerId(spec: MarkerSpec, end: 'start' | 'end'): string {
  return `sc-marker-${end}-${spec.type}-${spec.color.replace(/[^a-zA-Z0-9]/g, '')}`;
}

/** The `marker-start` / `marker-end` value of an edge, or null when that end has no marker. */
export function markerUrl(edge: CanvasEdge, end: 'start' | 'end'): string | null {
  const spec = end === 'start' ? edge.markerStart : edge.markerEnd;
  return spec ? `url(#${markerId(spec, end)})` : null;
}

/** Marker shapes in a 10×10 box, pointing right (end) — `orient="auto-start-reverse"` turns start markers. */
export const MARKER_PATHS: Record<MarkerSpec['type'], { d: string; filled: boolean }> = {
  arrow: { d: 'M0,0L10,5L0,10Z', filled: true },
  'arrow-open': { d: 'M0,0L10,5L0,10', filled: false },
  circle: { d: 'M5,1A4,4 0 1 0 5,9A4,4 0 1 0 5,1Z', filled: true },
  cross: { d: 'M1,1L9,9M9,1L1,9', filled: false },
  diamond: { d: 'M0,5L5,0L10,5L5,10Z', filled: true },
};

/** A `<marker>` to define: its id, outline, colour and which end of the edge it is for. */
export interface MarkerDef {
  id: string;
  d: string;
  filled: boolean;
  color: string;
  start: boolean;
}

/** Every marker the edges use, once each. */
export function usedMarkers(edges: readonly CanvasEdge[]): MarkerDef[] {
  const defs = new Map<string, MarkerDef>();
  // Each end, type and colour once: the id's colour clean-up is a regular expression, and a 1,300-edge model
  // rebuilt by a collapse has only a handful of distinct markers.
  const seen = new Set<string>();
  for (const edge of edges) {
    for (const [spec, end] of [
      [edge.markerStart, 'start'],
      [edge.markerEnd, 'end'],
    ] as const) {
      if (!spec) continue;
      const look = `${end}\u0000${spec.type}\u0000${spec.color}`;
      if (seen.has(look)) continue;
      seen.add(look);
      const id = markerId(spec, end);
      if (!defs.has(id)) defs.set(id, { id, ...MARKER_PATHS[spec.type], color: spec.color, start: end === 'start' });
    }
  }
  return [...defs.values()];
}
