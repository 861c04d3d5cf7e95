import { textWidth, type CanvasModel, type LayoutResult } from '@sc/diagram';
import { READABLE_UP_TO, type Size, type Viewport } from './fit';

/**
 * Zoomed out so far that a group's 13 px name is drawn under this screen size, a diagram of more than
 * READABLE_UP_TO nodes shows its group names over the drawing at this size.
 */
const OVERVIEW_LABEL_SIZE = 12;
const GROUP_TITLE_SIZE = 13;
/** A frame narrower than this on screen gets no overview label (it would cover its neighbours). */
const OVERVIEW_LABEL_MIN_WIDTH = 72;
const OVERVIEW_LABEL_FONT = { size: OVERVIEW_LABEL_SIZE, weight: 600 };
/** An overview label's height on screen (12 px text, padding): labels closer than this vertically would overlap. */
const OVERVIEW_LABEL_HEIGHT = 18;
const NONE: never[] = [];

export interface OverviewLabel {
  id: string;
  title: string;
  left: number;
  top: number;
  width: number;
}

/**
 * Group names over a zoomed-out overview of a diagram of more than READABLE_UP_TO nodes, at OVERVIEW_LABEL_SIZE on
 * screen, at the top-left of each frame wide enough to hold a label: the frames' own names are unreadable there
 * (and absent from the preview canvas). Positions are the view's pixels (a view of `view` pixels).
 */
export function overviewLabels(drawing: { model: CanvasModel; result: LayoutResult }, { x, y, zoom }: Viewport, { width, height }: Size): OverviewLabel[] {
  if (drawing.model.nodes.length <= READABLE_UP_TO || GROUP_TITLE_SIZE * zoom >= OVERVIEW_LABEL_SIZE) return NONE;
  const labels: OverviewLabel[] = [];
  // Outer groups first; a label that would overlap one already placed (a nested frame starting at its parent's
  // corner) is left out.
  for (const group of [...drawing.model.groups].sort((a, b) => a.depth - b.depth)) {
    const box = drawing.result.boxes[group.id];
    if (!box) continue;
    const left = box.x * zoom + x;
    const top = box.y * zoom + y;
    const shown = Math.min(box.width * zoom, textWidth(group.title, OVERVIEW_LABEL_FONT) + 12);
    if (box.width * zoom < OVERVIEW_LABEL_MIN_WIDTH || left > width || top > height || left + shown < 0 || top + box.height * zoom < 0) continue;
    const overlaps = labels.some((label) => left < label.left + label.width && label.left < left + shown && Math.abs(top - label.top) < OVERVIEW_LABEL_HEIGHT);
    if (!overlaps) labels.push({ id: group.id, title: group.title, left, top, width: shown });
  }
  return labels;
}
