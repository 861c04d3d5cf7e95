import { signal } from '@angular/core';
import { absolutePosition, labelOf, setLabel, type EditorDoc, type Point } from './editor-doc';
import type { EditorModel } from './editor-model';
import type { EditorStore } from './editor-store';

/** What a label belongs to: a node or a group (by id), or an edge (by index). */
export type LabelTarget = { kind: 'node' | 'group'; id: string } | { kind: 'edge'; index: number };

/** The in-place label editor: what it edits, where it is drawn (over the canvas, in view pixels) and its text. */
export interface LabelEditing {
  target: LabelTarget;
  left: number;
  top: number;
  width: number;
  text: string;
}

/** ngx-vflow's viewport: the drawing's offset in the view and its zoom. */
export interface ViewTransform {
  x: number;
  y: number;
  zoom: number;
}

/** The editor's width when nothing else decides it, and its least width over a node or frame. */
const EDITOR_WIDTH = 180;
const LEAST_WIDTH = 140;
/** Half the editor's height (.label-editor is 32 px high): it is centred on what it renames. */
const HALF_HEIGHT = 16;
/** Room between a frame's top and the editor drawn over its header. */
const HEADER_OFFSET = 4;
/** Where an edge's editor goes when its line is not drawn (view pixels). */
const FALLBACK = { x: 40, y: 40 };

/**
 * Where the editor of a node's or group's label is drawn (view pixels): over the node, as wide as it (at least
 * LEAST_WIDTH) and centred on it; over a frame's header. An edge's editor is centred on its drawn line (`edgeCentre`,
 * view pixels, measured by the canvas), or at FALLBACK when the line is not drawn.
 */
export function labelBox(target: LabelTarget, model: EditorModel, doc: EditorDoc, view: ViewTransform, edgeCentre: Point | null): { left: number; top: number; width: number } {
  if (target.kind === 'edge') {
    const at = edgeCentre ? { x: edgeCentre.x - EDITOR_WIDTH / 2, y: edgeCentre.y - HALF_HEIGHT } : FALLBACK;
    return { left: at.x, top: at.y, width: EDITOR_WIDTH };
  }
  const { x, y, zoom } = view;
  const position = absolutePosition(doc, target.id);
  const entry = target.kind === 'node' ? model.nodes.find((n) => n.node.id === target.id)?.node : model.groups.find((g) => g.id === target.id);
  const down = target.kind === 'node' ? ((entry?.height ?? 40) * zoom) / 2 - HALF_HEIGHT : HEADER_OFFSET;
  return { left: position.x * zoom + x, top: position.y * zoom + y + down, width: Math.max(LEAST_WIDTH, (entry?.width ?? EDITOR_WIDTH) * zoom) };
}

/**
 * Renaming in place (double-click on a node, a frame's header or an edge): the editor's state, opened over what it
 * renames; Enter or leaving the field applies the text to the store (one undo step), Escape drops it.
 */
export class LabelEditor {
  readonly editing = signal<LabelEditing | null>(null);

  constructor(
    private readonly store: () => EditorStore,
    private readonly model: () => EditorModel,
  ) {}

  /** Opens the editor on `target`'s label over the view `view` shows (labelBox; `edgeCentre` for an edge). */
  open(target: LabelTarget, view: ViewTransform, edgeCentre: Point | null = null): void {
    const doc = this.store().doc();
    this.editing.set({ target, ...labelBox(target, this.model(), doc, view, edgeCentre), text: labelOf(doc, target) });
  }

  commit(text: string): void {
    const editing = this.editing();
    if (!editing) return;
    this.editing.set(null);
    this.store().apply((doc) => setLabel(doc, editing.target, text));
  }

  /** Keys typed in the editor stay there (the page's shortcuts would delete the node on Backspace). */
  key(event: KeyboardEvent, text: string): void {
    event.stopPropagation();
    if (event.key === 'Enter') this.commit(text);
    else if (event.key === 'Escape') this.editing.set(null);
  }
}
