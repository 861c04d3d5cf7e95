import { centre, type Box } from '@sc/diagram';

/** What a key pressed on the canvas (not in a field) does. */
export type CanvasKeyAction = 'zoom-in' | 'zoom-out' | 'fit' | 'close' | 'move' | null;

/** +/- zoom, 0 fits, Escape closes the details, arrows move the focus between nodes; other keys are not the canvas's. */
export function canvasKeyAction(key: string): CanvasKeyAction {
  if (key === '+' || key === '=') return 'zoom-in';
  if (key === '-' || key === '_') return 'zoom-out';
  if (key === '0') return 'fit';
  if (key === 'Escape') return 'close';
  if (key.startsWith('Arrow')) return 'move';
  return null;
}

/**
 * The nearest node from `from` in the arrow key's direction, among `ids` drawn in `boxes` (the first of them when
 * nothing is focused, or the focused element is not drawn). Nearest weighs the distance across the direction twice
 * the distance along it, so a node straight ahead wins over a closer one off to the side.
 */
export function neighbour(boxes: Readonly<Record<string, Box>>, ids: readonly string[], from: string | undefined, key: string): string | undefined {
  const drawn = ids.filter((id) => boxes[id]);
  if (from === undefined || !boxes[from]) return drawn[0];
  const origin = centre(boxes[from]);
  const [dx, dy] = key === 'ArrowRight' ? [1, 0] : key === 'ArrowLeft' ? [-1, 0] : key === 'ArrowDown' ? [0, 1] : [0, -1];
  let best: { id: string; score: number } | undefined;
  for (const id of drawn) {
    if (id === from) continue;
    const c = centre(boxes[id]);
    const along = (c.x - origin.x) * dx + (c.y - origin.y) * dy;
    if (along <= 0) continue;
    const across = Math.abs((c.x - origin.x) * dy) + Math.abs((c.y - origin.y) * dx);
    const score = along + across * 2;
    if (!best || score < best.score) best = { id, score };
  }
  return best?.id;
}
