import { SHAPES, type ContextShape } from '../context/context-types';
import type { Point } from './layout';

/**
 * Node outlines as SVG paths: the 23 shapes of the context spec, plus the Mermaid shapes that have no spec name
 * (double circle, flag, left-leaning parallelogram, inverted trapezoid, fork/join bar). Every shape is drawn in a
 * box of the node's size; `shapeSize` gives the box that fits a text block of a given size inside the outline.
 */

export type DrawnShape = ContextShape | 'circle' | 'double-circle' | 'flag' | 'parallelogram-left' | 'inv-trapezoid' | 'bar';

export interface ShapeDrawing {
  /** Closed outlines, drawn filled and stroked, in order (back to front). */
  fills: string[];
  /** Inner lines, stroked only. */
  lines: string[];
}

/** Symbols drawn small with their label below rather than inside. */
export const SYMBOL_SHAPES: ReadonlySet<DrawnShape> = new Set(['or', 'summing-junction']);
export const SYMBOL_SIZE = 40;

const f = (n: number) => Math.round(n * 10) / 10;

function roundedRect(x: number, y: number, w: number, h: number, r: number): string {
  const rr = Math.max(0, Math.min(r, w / 2, h / 2));
  if (rr === 0) return `M${f(x)},${f(y)}H${f(x + w)}V${f(y + h)}H${f(x)}Z`;
  return (
    `M${f(x + rr)},${f(y)}H${f(x + w - rr)}A${f(rr)},${f(rr)} 0 0 1 ${f(x + w)},${f(y + rr)}V${f(y + h - rr)}` +
    `A${f(rr)},${f(rr)} 0 0 1 ${f(x + w - rr)},${f(y + h)}H${f(x + rr)}A${f(rr)},${f(rr)} 0 0 1 ${f(x)},${f(y + h - rr)}` +
    `V${f(y + rr)}A${f(rr)},${f(rr)} 0 0 1 ${f(x + rr)},${f(y)}Z`
  );
}

function ellipse(cx: number, cy: number, rx: number, ry: number): string {
  return `M${f(cx - rx)},${f(cy)}A${f(rx)},${f(ry)} 0 1 0 ${f(cx + rx)},${f(cy)}A${f(rx)},${f(ry)} 0 1 0 ${f(cx - rx)},${f(cy)}Z`;
}

/**
 * The proportions the outlines share, so the drawn path (shapeDrawing) and the polygon lines end on (outlinePolygon)
 * stay one shape: how far slanted sides lean in, how tall a cylinder's curved rim is, how deep a document's wave is.
 */
function proportions(w: number, h: number): { slant: number; cyl: number; wave: number } {
  return { slant: Math.min(h * 0.3, w / 4), cyl: Math.min(h * 0.14, 12), wave: Math.min(h * 0.12, 10) };
}

function documentPath(x: number, y: number, w: number, h: number): string {
  const { wave } = proportions(w, h);
  return `M${f(x)},${f(y)}H${f(x + w)}V${f(y + h - wave)}C${f(x + w * 0.75)},${f(y + h - wave * 2.6)} ${f(x + w * 0.25)},${f(y + h + wave * 0.6)} ${f(x)},${f(y + h - wave)}Z`;
}

/** The outline of `shape` in a `w`×`h` box; `radius` rounds the corners of rectangles. */
export function shapeDrawing(shape: DrawnShape, w: number, h: number, radius?: number): ShapeDrawing {
  const { slant, cyl } = proportions(w, h);
  switch (shape) {
    case 'rectangle':
      return { fills: [roundedRect(0, 0, w, h, radius ?? 0)], lines: [] };
    case 'rounded-rect':
      return { fills: [roundedRect(0, 0, w, h, radius ?? Math.min(12, h / 3))], lines: [] };
    case 'ellipse':
    case 'circle':
      return { fills: [ellipse(w / 2, h / 2, w / 2, h / 2)], lines: [] };
    case 'double-circle':
      return { fills: [ellipse(w / 2, h / 2, w / 2, h / 2)], lines: [ellipse(w / 2, h / 2, w / 2 - 4, h / 2 - 4)] };
    case 'diamond':
      return { fills: [`M${f(w / 2)},0L${f(w)},${f(h / 2)}L${f(w / 2)},${f(h)}L0,${f(h / 2)}Z`], lines: [] };
    case 'sort':
      return { fills: [`M${f(w / 2)},0L${f(w)},${f(h / 2)}L${f(w / 2)},${f(h)}L0,${f(h / 2)}Z`], lines: [`M0,${f(h / 2)}H${f(w)}`] };
    case 'collate':
      return { fills: [`M0,0H${f(w)}L0,${f(h)}H${f(w)}Z`], lines: [] };
    case 'triangle':
      return { fills: [`M${f(w / 2)},0L${f(w)},${f(h)}H0Z`], lines: [] };
    case 'parallelogram':
      return { fills: [`M${f(slant)},0H${f(w)}L${f(w - slant)},${f(h)}H0Z`], lines: [] };
    case 'parallelogram-left':
      return { fills: [`M0,0H${f(w - slant)}L${f(w)},${f(h)}H${f(slant)}Z`], lines: [] };
    case 'trapezoid':
      return { fills: [`M${f(slant)},0H${f(w - slant)}L${f(w)},${f(h)}H0Z`], lines: [] };
    case 'inv-trapezoid':
      return { fills: [`M0,0H${f(w)}L${f(w - slant)},${f(h)}H${f(slant)}Z`], lines: [] };
    case 'hexagon':
      return { fills: [`M${f(slant)},0H${f(w - slant)}L${f(w)},${f(h / 2)}L${f(w - slant)},${f(h)}H${f(slant)}L0,${f(h / 2)}Z`], lines: [] };
    case 'flag':
      return { fills: [`M0,0H${f(w)}V${f(h)}H0L${f(slant)},${f(h / 2)}Z`], lines: [] };
    case 'document':
      return { fills: [documentPath(0, 0, w, h)], lines: [] };
    case 'multiple-documents':
      return { fills: [documentPath(8, 0, w - 8, h - 8), documentPath(4, 4, w - 8, h - 8), documentPath(0, 8, w - 8, h - 8)], lines: [] };
    case 'cylinder':
    case 'database': {
      const body = `M0,${f(cyl)}A${f(w / 2)},${f(cyl)} 0 0 1 ${f(w)},${f(cyl)}V${f(h - cyl)}A${f(w / 2)},${f(cyl)} 0 0 1 0,${f(h - cyl)}Z`;
      const rim = `M0,${f(cyl)}A${f(w / 2)},${f(cyl)} 0 0 0 ${f(w)},${f(cyl)}`;
      // A database is drawn as a stack of disks: one more rim below the top.
      const lines = shape === 'database' ? [rim, `M0,${f(cyl * 2.4)}A${f(w / 2)},${f(cyl)} 0 0 0 ${f(w)},${f(cyl * 2.4)}`] : [rim];
      return { fills: [body], lines };
    }
    case 'delay':
      return { fills: [`M0,0H${f(w - h / 2)}A${f(h / 2)},${f(h / 2)} 0 0 1 ${f(w - h / 2)},${f(h)}H0Z`], lines: [] };
    case 'off-page-connector':
      return { fills: [`M0,0H${f(w)}V${f(h * 0.7)}L${f(w / 2)},${f(h)}L0,${f(h * 0.7)}Z`], lines: [] };
    case 'display':
      return { fills: [`M${f(slant)},0H${f(w - slant)}A${f(slant)},${f(h / 2)} 0 0 1 ${f(w - slant)},${f(h)}H${f(slant)}L0,${f(h / 2)}Z`], lines: [] };
    case 'terminator':
      return { fills: [roundedRect(0, 0, w, h, h / 2)], lines: [] };
    case 'or': {
      const r = SYMBOL_SIZE / 2;
      const cx = w / 2;
      return { fills: [ellipse(cx, r, r, r)], lines: [`M${f(cx)},0V${f(2 * r)}`, `M${f(cx - r)},${f(r)}H${f(cx + r)}`] };
    }
    case 'summing-junction': {
      const r = SYMBOL_SIZE / 2;
      const cx = w / 2;
      const d = r * Math.SQRT1_2;
      return { fills: [ellipse(cx, r, r, r)], lines: [`M${f(cx - d)},${f(r - d)}L${f(cx + d)},${f(r + d)}`, `M${f(cx + d)},${f(r - d)}L${f(cx - d)},${f(r + d)}`] };
    }
    case 'subroutine':
      return { fills: [roundedRect(0, 0, w, h, 0)], lines: [`M8,0V${f(h)}`, `M${f(w - 8)},0V${f(h)}`] };
    case 'manual-input':
      return { fills: [`M0,${f(h * 0.25)}L${f(w)},0V${f(h)}H0Z`], lines: [] };
    case 'internal-storage':
      return { fills: [roundedRect(0, 0, w, h, 0)], lines: [`M10,0V${f(h)}`, `M0,10H${f(w)}`] };
    case 'bar':
      return { fills: [roundedRect(0, 0, w, h, 2)], lines: [] };
  }
}

/** Points along an elliptical arc, angles in radians (0: right, π/2: down), both ends included. */
function arc(cx: number, cy: number, rx: number, ry: number, from: number, to: number, steps = 12): Point[] {
  return Array.from({ length: steps + 1 }, (_, i) => {
    const angle = from + ((to - from) * i) / steps;
    return { x: cx + rx * Math.cos(angle), y: cy + ry * Math.sin(angle) };
  });
}

/** The wavy bottom of documentPath's sheet at (`x`, `y`): its cubic curve sampled, from the right end to the left. */
function documentWave(x: number, y: number, w: number, h: number): Point[] {
  const { wave } = proportions(w, h);
  const [a, b, c, d] = [
    { x: x + w, y: y + h - wave },
    { x: x + w * 0.75, y: y + h - wave * 2.6 },
    { x: x + w * 0.25, y: y + h + wave * 0.6 },
    { x, y: y + h - wave },
  ];
  return Array.from({ length: 13 }, (_, i) => {
    const t = i / 12;
    const [k0, k1, k2, k3] = [(1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t ** 2, t ** 3];
    return { x: k0 * a.x + k1 * b.x + k2 * c.x + k3 * d.x, y: k0 * a.y + k1 * b.y + k2 * c.y + k3 * d.y };
  });
}

/**
 * The outline of `shape` in a `w`×`h` box as a closed polygon (curves as short straight pieces), for the shapes whose
 * outline leaves part of the box's border empty, so that lines end on the outline, not in the air beside it. Undefined
 * where the outline is the box, or all but its corners (rectangles, rounded rectangles, subroutines). A symbol drawn
 * above its label (`or`, `summing-junction`) gives its circle.
 */
export function outlinePolygon(shape: DrawnShape, w: number, h: number): Point[] | undefined {
  const { slant, cyl } = proportions(w, h);
  const P = (x: number, y: number): Point => ({ x, y });
  const half = Math.PI / 2;
  switch (shape) {
    case 'ellipse':
    case 'circle':
    case 'double-circle':
      return arc(w / 2, h / 2, w / 2, h / 2, 0, 2 * Math.PI, 48).slice(1);
    case 'diamond':
    case 'sort':
      return [P(w / 2, 0), P(w, h / 2), P(w / 2, h), P(0, h / 2)];
    case 'collate':
      return [P(0, 0), P(w, 0), P(0, h), P(w, h)];
    case 'triangle':
      return [P(w / 2, 0), P(w, h), P(0, h)];
    case 'parallelogram':
      return [P(slant, 0), P(w, 0), P(w - slant, h), P(0, h)];
    case 'parallelogram-left':
      return [P(0, 0), P(w - slant, 0), P(w, h), P(slant, h)];
    case 'trapezoid':
      return [P(slant, 0), P(w - slant, 0), P(w, h), P(0, h)];
    case 'inv-trapezoid':
      return [P(0, 0), P(w, 0), P(w - slant, h), P(slant, h)];
    case 'hexagon':
      return [P(slant, 0), P(w - slant, 0), P(w, h / 2), P(w - slant, h), P(slant, h), P(0, h / 2)];
    case 'flag':
      return [P(0, 0), P(w, 0), P(w, h), P(0, h), P(slant, h / 2)];
    case 'off-page-connector':
      return [P(0, 0), P(w, 0), P(w, h * 0.7), P(w / 2, h), P(0, h * 0.7)];
    case 'manual-input':
      return [P(0, h * 0.25), P(w, 0), P(w, h), P(0, h)];
    case 'document':
      return [P(0, 0), P(w, 0), ...documentWave(0, 0, w, h)];
    case 'multiple-documents': {
      // The three sheets of shapeDrawing, 8 px apart in all: the back two show only as steps above and right of the
      // front one, whose wave is the bottom.
      const sheet = { w: w - 8, h: h - 8 };
      const bottom = (y: number) => y + sheet.h - proportions(sheet.w, sheet.h).wave;
      return [P(8, 0), P(w, 0), P(w, bottom(0)), P(w - 4, bottom(0)), P(w - 4, bottom(4)), P(w - 8, bottom(4)), ...documentWave(0, 8, sheet.w, sheet.h), P(0, 8), P(4, 8), P(4, 4), P(8, 4)];
    }
    case 'cylinder':
    case 'database':
      return [...arc(w / 2, cyl, w / 2, cyl, Math.PI, 2 * Math.PI), ...arc(w / 2, h - cyl, w / 2, cyl, 0, Math.PI)];
    case 'delay':
      return [P(0, 0), ...arc(w - h / 2, h / 2, h / 2, h / 2, -half, half), P(0, h)];
    case 'display':
      return [...arc(w - slant, h / 2, slant, h / 2, -half, half), P(slant, h), P(0, h / 2), P(slant, 0)];
    case 'terminator': {
      const r = Math.min(h / 2, w / 2);
      return [...arc(w - r, h / 2, r, h / 2, -half, half), ...arc(r, h / 2, r, h / 2, half, 3 * half)];
    }
    case 'or':
    case 'summing-junction':
      // The circle at the top of the box; the label under it is not part of the outline (the layout gives lines the
      // circle's height to end on, as it does a shape above its data rows).
      return arc(w / 2, SYMBOL_SIZE / 2, SYMBOL_SIZE / 2, SYMBOL_SIZE / 2, 0, 2 * Math.PI, 48).slice(1);
    default:
      return undefined;
  }
}

/**
 * Where a line coming from `from` and reaching a box's border at `end` meets the outline inside it (`polygon`, in the
 * coordinates of `end`): `end` carried on along the line, never back. `end` itself where the line misses the outline
 * or is on it already.
 */
export function onOutline(from: Point, end: Point, polygon: readonly Point[]): Point {
  const dx = end.x - from.x;
  const dy = end.y - from.y;
  const length = Math.hypot(dx, dy);
  if (length === 0 || polygon.length < 2) return end;
  let nearest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i];
    const b = polygon[(i + 1) % polygon.length];
    const ex = b.x - a.x;
    const ey = b.y - a.y;
    const denominator = dx * ey - dy * ex;
    if (Math.abs(denominator) < 1e-9) continue;
    // from + t·(end − from) = a + u·(b − a): t along the line (1 at `end`), u along the polygon's side.
    const t = ((a.x - from.x) * ey - (a.y - from.y) * ex) / denominator;
    const u = ((a.x - from.x) * dy - (a.y - from.y) * dx) / denominator;
    // Half a pixel of slack each way: an end on the outline already stays where it is.
    if (u >= -1e-9 && u <= 1 + 1e-9 && t >= 1 - 0.5 / length && t < nearest) nearest = t;
  }
  return Number.isFinite(nearest) && nearest > 1 ? { x: from.x + dx * nearest, y: from.y + dy * nearest } : end;
}

/** The node box for a text block of `textWidth`×`textHeight` inside the outline (or below a symbol). */
export function shapeSize(shape: DrawnShape, textWidth: number, textHeight: number): { width: number; height: number } {
  const w = textWidth + 32;
  const h = textHeight + 20;
  const at = (width: number, height: number) => ({ width: Math.ceil(Math.max(width, 56)), height: Math.ceil(Math.max(height, 36)) });
  switch (shape) {
    case 'rectangle':
    case 'rounded-rect':
    case 'bar':
      return at(w, h);
    case 'ellipse':
    case 'double-circle':
      return at(w * 1.3, h * 1.4);
    case 'circle': {
      const d = Math.max(w, h) * 1.1;
      return at(d, d);
    }
    case 'diamond':
    case 'sort':
    case 'collate': {
      const side = textWidth + textHeight + 32;
      return at(side, Math.max(side * 0.7, textHeight * 2 + 24));
    }
    case 'triangle':
      return at(w * 2, h * 2);
    case 'parallelogram':
    case 'parallelogram-left':
    case 'trapezoid':
    case 'inv-trapezoid':
    case 'hexagon':
    case 'display':
      return at(w + h * 0.8, h);
    case 'flag':
      return at(w + h * 0.4, h);
    case 'document':
      return at(w, h * 1.3);
    case 'multiple-documents':
      return at(w + 8, h * 1.3 + 8);
    case 'cylinder':
    case 'database':
      return at(w, h + 32);
    case 'delay':
      return at(w + h / 2, h);
    case 'off-page-connector':
      return at(w, h * 1.5);
    case 'terminator':
      return at(w + h * 0.6, h);
    case 'or':
    case 'summing-junction':
      return at(Math.max(SYMBOL_SIZE, textWidth) + 8, SYMBOL_SIZE + textHeight + 8);
    case 'subroutine':
      return at(w + 16, h);
    case 'manual-input':
      return at(w, h * 1.35);
    case 'internal-storage':
      return at(w + 10, h + 10);
  }
}

/** Where the text block sits in the node box: centred, shifted for outlines with decorations at one side. */
export function textOffset(shape: DrawnShape, height: number): { top: number; bottom: number } {
  switch (shape) {
    case 'cylinder':
    case 'database':
      return { top: shape === 'database' ? 26 : 16, bottom: 8 };
    case 'document':
    case 'multiple-documents':
      return { top: 4, bottom: height * 0.18 };
    case 'off-page-connector':
      return { top: 0, bottom: height * 0.3 };
    case 'manual-input':
      return { top: height * 0.2, bottom: 0 };
    case 'triangle':
      return { top: height * 0.4, bottom: 0 };
    case 'internal-storage':
      return { top: 10, bottom: 0 };
    case 'or':
    case 'summing-junction':
      return { top: SYMBOL_SIZE + 4, bottom: 0 };
    default:
      return { top: 0, bottom: 0 };
  }
}

const MERMAID_FLOWCHART_SHAPES: Record<string, DrawnShape> = {
  square: 'rectangle',
  rect: 'rectangle',
  round: 'rounded-rect',
  rounded: 'rounded-rect',
  stadium: 'terminator',
  subroutine: 'subroutine',
  'fr-rect': 'subroutine',
  cylinder: 'cylinder',
  cyl: 'cylinder',
  circle: 'circle',
  doublecircle: 'double-circle',
  'dbl-circ': 'double-circle',
  diamond: 'diamond',
  diam: 'diamond',
  hexagon: 'hexagon',
  hex: 'hexagon',
  odd: 'flag',
  lean_right: 'parallelogram',
  'lean-r': 'parallelogram',
  lean_left: 'parallelogram-left',
  'lean-l': 'parallelogram-left',
  trapezoid: 'trapezoid',
  'trap-b': 'trapezoid',
  inv_trapezoid: 'inv-trapezoid',
  'trap-t': 'inv-trapezoid',
  ellipse: 'ellipse',
  doc: 'document',
  docs: 'multiple-documents',
  delay: 'delay',
  'lin-cyl': 'database',
  'h-cyl': 'cylinder',
  tri: 'triangle',
  'sl-rect': 'manual-input',
  'win-pane': 'internal-storage',
  collate: 'collate',
  'f-circ': 'summing-junction',
  'cross-circ': 'summing-junction',
  'notch-pent': 'off-page-connector',
  'curv-trap': 'display',
};

/** The outline for a node without a context shape: Mermaid's own shape (flowchart vertex type, state type). */
export function mermaidShape(kind: string, shape: string | undefined): DrawnShape {
  if (kind === 'state') {
    if (shape === 'fork' || shape === 'join') return 'bar';
    if (shape === 'choice') return 'diamond';
    return 'rounded-rect';
  }
  if (shape && (SHAPES as readonly string[]).includes(shape)) return shape as ContextShape;
  return (shape && MERMAID_FLOWCHART_SHAPES[shape]) || 'rectangle';
}
