import type { ContextShape, NodeType } from '@sc/diagram';

/** What a palette item carries through drag and drop. */
export interface PaletteDrop {
  type: NodeType;
  shape?: ContextShape;
}

/** The drag data type of a palette item (its value: the PaletteDrop as JSON). */
export const PALETTE_MIME = 'application/x-sc-palette';

/** Puts a palette item on a drag that starts (with its name as text, for drop targets outside the editor), as a copy. */
export function startPaletteDrag(event: DragEvent, item: PaletteDrop): void {
  event.dataTransfer?.setData(PALETTE_MIME, JSON.stringify(item));
  event.dataTransfer?.setData('text/plain', item.shape ?? item.type);
  if (event.dataTransfer) event.dataTransfer.effectAllowed = 'copy';
}

/** A drag over the canvas: one carrying a palette item may be dropped there (as a copy); others are left alone. */
export function acceptPaletteDrag(event: DragEvent): void {
  if (event.dataTransfer?.types.includes(PALETTE_MIME)) {
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }
}

/** The palette item a drop carries (the drop is then the canvas's), or null for anything else. */
export function droppedPaletteItem(event: DragEvent): PaletteDrop | null {
  const raw = event.dataTransfer?.getData(PALETTE_MIME);
  if (!raw) return null;
  event.preventDefault();
  return JSON.parse(raw) as PaletteDrop;
}
