import type { Box, Point } from '@sc/diagram';
import { absolutePosition, move, reparent, type EditorDoc } from './editor-doc';
import type { EditorModel } from './editor-model';

export interface Size {
  width: number;
  height: number;
}

export interface PlacementOptions {
  /** Free room kept between the new box and every occupied one. */
  gap: number;
  /** Candidates are on this grid (absolute multiples of it), so a placed node is already snapped. */
  step: number;
}

const MAX_RINGS = 64;

const overlaps = (at: Point, size: Size, box: Box, gap: number) =>
  at.x < box.x + box.width + gap && box.x < at.x + size.width + gap && at.y < box.y + box.height + gap && box.y < at.y + size.height + gap;

const inside = (at: Point, size: Size, view: Box) => at.x >= view.x && at.y >= view.y && at.x + size.width <= view.x + view.width && at.y + size.height <= view.y + view.height;

/**
 * The top-left corner for a box of `size` that overlaps none of `occupied` (kept `gap` apart): the free grid point
 * nearest the middle of `view` with the box wholly inside the view, or, when the view has no such room, the free grid
 * point nearest its middle anywhere (the caller then brings it into view). Searched ring by ring around the middle
 * (a square spiral), nearest first within a ring.
 */
export function freeSpot(size: Size, view: Box, occupied: readonly Box[], { gap, step: grid }: PlacementOptions): Point {
  // A view zoomed far out is searched on a coarser multiple of the grid: at most MAX_RINGS rings across it.
  const step = grid * Math.max(1, Math.ceil(Math.max(view.width, view.height) / (grid * MAX_RINGS)));
  const snap = (value: number) => Math.round(value / step) * step;
  const origin = { x: snap(view.x + (view.width - size.width) / 2), y: snap(view.y + (view.height - size.height) / 2) };
  const free = (at: Point) => !occupied.some((box) => overlaps(at, size, box, gap));
  // Rings up to the view's edge hold every candidate inside the view; past the occupied boxes' extent every
  // candidate is free, so the second search ends there at the latest.
  const viewRings = Math.ceil(Math.max(view.width, view.height) / step) + 1;
  const reach = occupied.reduce((far, box) => Math.max(far, Math.abs(box.x - origin.x) + box.width, Math.abs(box.y - origin.y) + box.height), 0);
  const allRings = Math.ceil((reach + gap + Math.max(size.width, size.height)) / step) + 1;
  return search(origin, step, viewRings, (at) => inside(at, size, view) && free(at)) ?? search(origin, step, allRings, free) ?? origin;
}

function search(origin: Point, step: number, rings: number, accept: (at: Point) => boolean): Point | null {
  for (let ring = 0; ring <= rings; ring++) {
    const candidates: Point[] = [];
    // The ring's border: its top and bottom rows, then the columns between them.
    for (let i = -ring; i <= ring; i++) {
      candidates.push({ x: origin.x + i * step, y: origin.y - ring * step });
      if (ring > 0) candidates.push({ x: origin.x + i * step, y: origin.y + ring * step });
    }
    for (let j = -ring + 1; j <= ring - 1; j++) {
      candidates.push({ x: origin.x - ring * step, y: origin.y + j * step });
      candidates.push({ x: origin.x + ring * step, y: origin.y + j * step });
    }
    candidates.sort((a, b) => Math.hypot(a.x - origin.x, a.y - origin.y) - Math.hypot(b.x - origin.x, b.y - origin.y));
    const found = candidates.find(accept);
    if (found) return found;
  }
  return null;
}

/** The innermost group frame under a point of the drawing, with the frame's top-left corner (canvas coordinates). */
export function frameAt(point: Point, model: EditorModel, doc: EditorDoc): { id: string; origin: Point } | null {
  let found: { id: string; origin: Point; depth: number } | null = null;
  for (const frame of model.groups) {
    const origin = absolutePosition(doc, frame.id);
    const inside = point.x >= origin.x && point.y >= origin.y && point.x <= origin.x + frame.width && point.y <= origin.y + frame.height;
    if (inside && (!found || frame.depth > found.depth)) found = { id: frame.id, origin, depth: frame.depth };
  }
  return found ? { id: found.id, origin: found.origin } : null;
}

/**
 * The document after a drag (`model`: as drawn before it): every node or frame moved, in one step, and each node
 * dropped on a frame in that group (dropped outside its frame, it leaves it).
 */
export function dragged(doc: EditorDoc, model: EditorModel, moves: readonly ({ id: string } & Point)[]): EditorDoc {
  let next = move(doc, moves);
  for (const { id } of moves) {
    const entry = model.nodes.find((n) => n.node.id === id);
    if (!entry) continue;
    const at = absolutePosition(next, id);
    // Frames as they were before the drop (a frame grows around its members, so after it the node is always in).
    const frame = frameAt({ x: at.x + entry.node.width / 2, y: at.y + entry.node.height / 2 }, model, doc);
    next = reparent(next, id, frame?.id);
  }
  return next;
}
